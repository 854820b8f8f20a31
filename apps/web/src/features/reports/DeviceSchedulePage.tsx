import type { DeviceScheduleRow } from '@marquee/protocol';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Card, Checkbox, DatePicker, Form, Input, Space, Tooltip, Typography } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import { type DayRange, dayRangeParams, dayRangeValue } from '../../components/dateRange';
import { FilterBar } from '../../components/FilterBar';
import { ListTable } from '../../components/ListTable';
import { useUrlListState } from '../../components/listState';
import type { TableConfig } from '../../components/tableConfig';
import { DeptPicker, useCanPickDept } from '../accounts/AccountFields';
import { deliveryCell, ReportExportButton } from './look';
import { useSearchRound } from './searchRound';
import './reports.css';

const FILTER_KEYS = ['keyword', 'deptId', 'from', 'to', 'underFirst'] as const;

interface FilterValues {
  keyword?: string;
  deptId?: string;
  underFirst?: boolean;
  range?: DayRange;
}

/**
 * The device schedule report (/report/deviceSchedule): per device of the caller's scope and
 * UTC day, the ads scheduled on it with their expected plays against the plays it reported;
 * under-delivered device-days are marked, and listed first on request. Excel export.
 */
export default function DeviceSchedulePage() {
  const { t } = useTranslation('reports');
  const canPickDept = useCanPickDept();
  const listState = useUrlListState(FILTER_KEYS);
  const { filters, pageRequest } = listState;
  const { round, again } = useSearchRound();
  const request = {
    keyword: filters.keyword,
    deptId: filters.deptId,
    from: filters.from,
    to: filters.to,
    underFirst: filters.underFirst === 'true' || undefined,
  };
  const list = useQuery({
    queryKey: ['reports', 'deviceSchedule', pageRequest, filters, round],
    queryFn: ({ signal }) => call('reportDeviceSchedule', { ...pageRequest, ...request }, { signal }),
    placeholderData: keepPreviousData,
  });

  const config: TableConfig<DeviceScheduleRow> = {
    id: 'deviceSchedule',
    operationsLabel: t('actions'),
    columns: [
      { prop: 'number', label: t('field.deviceNumber'), width: 150, ellipsis: true },
      { prop: 'name', label: t('field.deviceName'), width: 180, ellipsis: true },
      { prop: 'deptName', label: t('field.dept'), width: 140, ellipsis: true, show: false },
      { prop: 'day', label: t('field.day'), width: 120 },
      {
        prop: 'ads',
        label: t('field.scheduledAds'),
        width: 260,
        slot: (v: DeviceScheduleRow['ads']) =>
          v.length === 0 ? (
            <Typography.Text type="secondary">{t('noneScheduled')}</Typography.Text>
          ) : (
            <Space size={4} wrap>
              {v.map((a) => (
                <Tooltip key={a.adId} title={t('adCounts', { expected: a.expected, reported: a.reported })}>
                  <span className="mq-report-ad">{`${a.name || a.adId} (${a.reported}/${a.expected})`}</span>
                </Tooltip>
              ))}
            </Space>
          ),
      },
      { prop: 'expected', label: t('field.expected'), width: 120, align: 'right', showThousands: true },
      { prop: 'reported', label: t('field.reported'), width: 120, align: 'right', showThousands: true },
      {
        prop: 'deliveryPct',
        label: t('field.delivery'),
        width: 170,
        align: 'right',
        slot: (_v: number | null, row) => deliveryCell(t, row),
      },
    ],
    operations: [],
  };

  const filterValues = useMemo<FilterValues>(
    () => ({
      keyword: filters.keyword,
      deptId: filters.deptId,
      underFirst: filters.underFirst === 'true',
      range: dayRangeValue(filters.from, filters.to),
    }),
    [filters],
  );
  const search = (v: FilterValues) =>
    listState.applyFilters({
      keyword: v.keyword,
      deptId: v.deptId,
      underFirst: v.underFirst ? 'true' : undefined,
      ...dayRangeParams(v.range),
    });

  return (
    <div className="mq-view mq-reports" data-testid="device-schedule-page">
      <Card size="small" className="mq-filter-card" style={{ marginBottom: 12 }}>
        <FilterBar
          values={filterValues}
          onSearch={again(search)}
          onReset={again(listState.clearFilters)}
          testIds={{ search: 'device-schedule-search', reset: 'device-schedule-reset' }}
        >
          <Form.Item name="keyword" label={t('field.deviceKeyword')}>
            <Input allowClear style={{ width: 180 }} data-testid="device-schedule-keyword" />
          </Form.Item>
          {canPickDept ? (
            <Form.Item name="deptId" label={t('field.dept')}>
              <DeptPicker allowClear style={{ width: 180 }} placeholder={t('all')} testId="device-schedule-dept" />
            </Form.Item>
          ) : null}
          <Form.Item name="range" label={t('field.rangeUtc')}>
            <DatePicker.RangePicker allowEmpty={[true, true]} data-testid="device-schedule-range" />
          </Form.Item>
          <Form.Item name="underFirst" valuePropName="checked">
            <Checkbox data-testid="device-schedule-under-first">{t('underFirst')}</Checkbox>
          </Form.Item>
        </FilterBar>
      </Card>
      <Card
        size="small"
        className="mq-list-card"
        title={list.data ? t('scheduleTitle', { from: list.data.from, to: list.data.to }) : t('schedule')}
      >
        <ListTable
          config={config}
          query={list}
          state={listState}
          rowKey={(r) => `${r.deviceId}|${r.day}`}
          rowClassName={(r) => (r.underDelivered ? 'mq-report-under' : '')}
          toolbar={
            <ReportExportButton
              testId="device-schedule-export"
              start={() => call('reportDeviceScheduleExportStart', request)}
            />
          }
          rowTestId={(row) => `device-schedule-row-${row.number}-${row.day}`}
          empty={t('noDevicesInScope')}
          failed={{ description: t('loadFailed'), retryLabel: t('retry') }}
          showTotal={(total) => t('rowsTotal', { count: total })}
        />
      </Card>
    </div>
  );
}
