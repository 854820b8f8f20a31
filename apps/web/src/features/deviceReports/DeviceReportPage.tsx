import { DownloadOutlined } from '@ant-design/icons';
import type { DeviceReportRow } from '@marquee/protocol';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Button, Card, DatePicker, Form, Input, Select, Typography } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { call } from '../../api/client';
import { FilterBar } from '../../components/FilterBar';
import { ListTable } from '../../components/ListTable';
import { useUrlListState } from '../../components/listState';
import { NotForMonitor } from '../../components/MonitorGuard';
import type { TableConfig } from '../../components/tableConfig';
import { DeptPicker, useCanPickDept } from '../accounts/AccountFields';
import { useSearchRound } from '../reports/searchRound';
import { type DeviceReportFilter, ExportDialog } from './ExportDialog';
import { hoursText, playText } from './format';

const FILTER_KEYS = ['keyword', 'deptId', 'groupId', 'from', 'to'] as const;

interface FormValues {
  keyword?: string;
  deptId?: string;
  groupId?: string;
  range?: [Dayjs | null, Dayjs | null] | null;
}

/** The detail page of a device over the same range. */
export function detailHref(deviceId: string, from?: string, to?: string): string {
  const q = new URLSearchParams({ id: deviceId });
  if (from) q.set('from', from);
  if (to) q.set('to', to);
  return `/report/deviceDetail?${q}`;
}

/**
 * The device report (/report/device): per device in the caller's scope over a range of days
 * (the last 7 by default), its online time, plays, play time, ads played, pushes received
 * and full rate, filtered by device, department and group (kept in the URL), with an Excel
 * export that runs in the background.
 */
export default function DeviceReportPage() {
  const { t } = useTranslation('deviceReports');
  const canPickDept = useCanPickDept();
  const listState = useUrlListState(FILTER_KEYS);
  const { page, size, filters } = listState;
  const { round, again } = useSearchRound();
  const [exportFilter, setExportFilter] = useState<DeviceReportFilter | null>(null);
  const filter: DeviceReportFilter = useMemo(
    () => Object.fromEntries(Object.entries(filters).filter(([, v]) => v)) as DeviceReportFilter,
    [filters],
  );
  const fields: FormValues = useMemo(
    () => ({
      keyword: filters.keyword,
      deptId: filters.deptId,
      groupId: filters.groupId,
      range: filters.from && filters.to ? [dayjs(filters.from), dayjs(filters.to)] : null,
    }),
    [filters],
  );
  const list = useQuery({
    queryKey: ['report.deviceList', page, size, filter, round],
    queryFn: ({ signal }) => call('reportDeviceList', { page, size, ...filter }, { signal }),
    placeholderData: keepPreviousData,
  });
  const groups = useQuery({ queryKey: ['deviceGroups', 'options'], queryFn: () => call('deviceGroupOptions', {}) });
  const search = ({ range, ...values }: FormValues) => {
    const [from, to] = range ?? [];
    listState.applyFilters({ ...values, from: from?.format('YYYY-MM-DD'), to: to?.format('YYYY-MM-DD') });
  };
  const from = list.data?.from;
  const to = list.data?.to;

  const config: TableConfig<DeviceReportRow> = {
    id: 'deviceReport',
    columns: [
      { prop: 'number', label: t('col.number'), width: 150, ellipsis: true },
      {
        prop: 'name',
        label: t('col.name'),
        width: 200,
        ellipsis: true,
        slot: (v: string, row) => (
          <Link to={detailHref(row.deviceId, from, to)} data-testid="device-report-detail">
            {v}
          </Link>
        ),
      },
      { prop: 'deptName', label: t('col.dept'), width: 140, ellipsis: true },
      { prop: 'onlineSec', label: t('col.online'), width: 130, slot: (v: number) => hoursText(t, v) },
      { prop: 'plays', label: t('col.plays'), width: 100, showThousands: true },
      { prop: 'completed', label: t('col.completed'), width: 100, showThousands: true, show: false },
      { prop: 'playMs', label: t('col.playTime'), width: 130, slot: (v: number) => playText(t, v) },
      { prop: 'ads', label: t('col.ads'), width: 100, showThousands: true },
      { prop: 'downloads', label: t('col.downloads'), width: 120, showThousands: true },
      { prop: 'downloadsFailed', label: t('col.downloadsFailed'), width: 110, showThousands: true },
      {
        prop: 'downloadSec',
        label: t('col.downloadTime'),
        width: 130,
        slot: (v: number | null) => (v === null ? '-' : t('downloadTime.value', { sec: v.toLocaleString() })),
      },
      { prop: 'fullRate', label: t('col.fullRate'), width: 100, align: 'right', slot: (v: number) => `${v}%` },
    ],
  };

  return (
    <div className="mq-view mq-device-report" data-testid="device-report-page">
      <Card size="small" className="mq-filter-card" style={{ marginBottom: 12 }}>
        <FilterBar
          values={fields}
          onSearch={again(search)}
          onReset={again(listState.clearFilters)}
          testIds={{ search: 'device-report-search', reset: 'device-report-reset' }}
          className="mq-filter-form"
        >
          <Form.Item name="keyword" label={t('filter.keyword')}>
            <Input allowClear placeholder={t('filter.keywordPlaceholder')} data-testid="device-report-keyword" />
          </Form.Item>
          {canPickDept ? (
            <Form.Item name="deptId" label={t('filter.dept')}>
              <DeptPicker allowClear style={{ width: 180 }} placeholder={t('filter.all')} testId="device-report-dept" />
            </Form.Item>
          ) : null}
          <Form.Item name="groupId" label={t('filter.group')}>
            <Select
              allowClear
              showSearch={{ optionFilterProp: 'label' }}
              style={{ width: 160 }}
              placeholder={t('filter.all')}
              loading={groups.isLoading}
              options={groups.data?.map((g) => ({ value: g.id, label: g.name }))}
              data-testid="device-report-group"
            />
          </Form.Item>
          <Form.Item name="range" label={t('filter.range')}>
            <DatePicker.RangePicker data-testid="device-report-range" />
          </Form.Item>
        </FilterBar>
      </Card>
      <Card
        size="small"
        className="mq-list-card"
        title={
          <span>
            {t('device.title')}
            {from && to ? (
              <Typography.Text type="secondary" style={{ marginLeft: 8, fontWeight: 'normal' }}>
                {t('range', { from, to })}
              </Typography.Text>
            ) : null}
          </span>
        }
      >
        <ListTable
          config={config}
          query={list}
          state={listState}
          toolbar={
            <NotForMonitor>
              <Button
                icon={<DownloadOutlined />}
                onClick={() => setExportFilter(filter)}
                data-testid="device-report-export"
              >
                {t('export.button')}
              </Button>
            </NotForMonitor>
          }
          rowTestId={() => 'device-report-row'}
          empty={t('empty')}
          showTotal={(total) => t('total', { count: total })}
        />
        <Typography.Paragraph type="secondary" style={{ marginTop: 8, marginBottom: 0 }}>
          {t('note.downloads')}
        </Typography.Paragraph>
      </Card>
      <ExportDialog filter={exportFilter} onClose={() => setExportFilter(null)} />
    </div>
  );
}
