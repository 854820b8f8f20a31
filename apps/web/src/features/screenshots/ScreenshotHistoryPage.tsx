import { DeleteOutlined } from '@ant-design/icons';
import {
  formatSize,
  formatTime,
  Perm,
  SCREENSHOT_TRIGGERS,
  type ScreenshotRow,
  type ScreenshotTrigger,
} from '@marquee/protocol';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, DatePicker, Form, Image, Popconfirm, Select, Tag } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import { confirmOkProps } from '../../components/ConfirmAction';
import { FilterBar } from '../../components/FilterBar';
import { ListTable } from '../../components/ListTable';
import { useUrlListState } from '../../components/listState';
import { NotForMonitor } from '../../components/MonitorGuard';
import type { TableConfig } from '../../components/tableConfig';

const FILTER_KEYS = ['deviceId', 'trigger', 'from', 'to'] as const;

interface FormValues {
  deviceId?: string;
  trigger?: string;
  range?: [Dayjs | null, Dayjs | null] | null;
}

/**
 * Screenshot history (/device/screenshotHistory): the screenshots of the visible devices, or of
 * one, newest first, within a date range (kept 7 days, spec section 9), with delete (one or a
 * selection, confirmed).
 */
export default function ScreenshotHistoryPage() {
  const { t } = useTranslation(['screenshots', 'common']);
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const listState = useUrlListState(FILTER_KEYS);
  const { filters, pageRequest } = listState;
  const [selected, setSelected] = useState<string[]>([]);
  const [deviceSearch, setDeviceSearch] = useState('');

  const fields: FormValues = useMemo(
    () => ({
      deviceId: filters.deviceId,
      trigger: filters.trigger,
      range:
        filters.from || filters.to
          ? [filters.from ? dayjs(filters.from) : null, filters.to ? dayjs(filters.to) : null]
          : null,
    }),
    [filters],
  );
  const list = useQuery({
    queryKey: ['screenshots', 'history', pageRequest, filters],
    queryFn: ({ signal }) =>
      call(
        'screenshotHistory',
        {
          page: pageRequest.page,
          size: pageRequest.size,
          deviceId: filters.deviceId,
          trigger: filters.trigger as ScreenshotTrigger | undefined,
          from: filters.from,
          to: filters.to,
        },
        { signal },
      ),
    placeholderData: keepPreviousData,
  });
  // The device picker: the visible devices matching what is typed (and the chosen one).
  const devices = useQuery({
    queryKey: ['screenshots', 'devicePicker', deviceSearch],
    queryFn: ({ signal }) =>
      call('deviceList', { page: 1, size: 20, keyword: deviceSearch || undefined }, { signal, silent: true }),
    placeholderData: keepPreviousData,
  });
  const deviceOptions = useMemo(() => {
    const options = (devices.data?.data ?? []).map((d) => ({ value: d.id, label: d.name }));
    const chosen = list.data?.data.find((s) => s.deviceId === filters.deviceId);
    if (filters.deviceId && !options.some((o) => o.value === filters.deviceId)) {
      options.unshift({ value: filters.deviceId, label: chosen?.deviceName ?? filters.deviceId });
    }
    return options;
  }, [devices.data, list.data, filters.deviceId]);

  const remove = useMutation({
    mutationFn: (ids: string[]) => call('screenshotDelete', { ids }),
    onSuccess: () => {
      void message.success(t('deleted'));
      setSelected([]);
      void queryClient.invalidateQueries({ queryKey: ['screenshots'] });
    },
  });

  const search = ({ range, ...values }: FormValues) => {
    const [from, to] = range ?? [];
    listState.applyFilters({
      ...values,
      from: from ? from.startOf('day').toISOString() : undefined,
      to: to ? to.endOf('day').toISOString() : undefined,
    });
  };

  const config: TableConfig<ScreenshotRow> = {
    id: 'screenshotHistory',
    columns: [
      {
        prop: 'url',
        label: t('col.image'),
        width: 140,
        slot: (url: string, row) => (
          <Image
            src={url}
            width={112}
            height={63}
            style={{ objectFit: 'contain', background: 'rgba(127,127,127,0.08)' }}
            alt={t('imageAlt', { name: row.deviceName, time: formatTime(row.takenAt) })}
          />
        ),
      },
      { prop: 'deviceName', label: t('col.device'), width: 180, ellipsis: true },
      { prop: 'takenAt', label: t('col.takenAt'), width: 170, slot: (v: string) => formatTime(v) },
      {
        prop: 'trigger',
        label: t('col.trigger'),
        width: 110,
        slot: (v: ScreenshotTrigger) => <Tag color={v === 'timed' ? 'processing' : 'success'}>{t(`trigger.${v}`)}</Tag>,
      },
      {
        prop: 'width',
        label: t('col.resolution'),
        width: 120,
        slot: (_v: number, row) => `${row.width}×${row.height}`,
      },
      { prop: 'size', label: t('col.size'), width: 100, align: 'right', slot: (v: number) => formatSize(v) },
    ],
    operations: [
      {
        key: 'delete',
        label: t('delete'),
        authCode: Perm.deviceScreenshot,
        notForMonitor: true,
        danger: true,
        confirm: (row) => ({ title: t('confirm.deleteOne', { name: row.deviceName, time: formatTime(row.takenAt) }) }),
        handler: (row) => remove.mutateAsync([row.id]),
        testId: (row) => `shot-delete-${row.id}`,
      },
    ],
  };

  return (
    <div className="mq-view mq-screenshot-history" data-testid="screenshot-history-page">
      <Card size="small" className="mq-filter-card" style={{ marginBottom: 12 }}>
        <FilterBar
          values={fields}
          onSearch={search}
          onReset={listState.clearFilters}
          testIds={{ search: 'shots-search', reset: 'shots-reset' }}
        >
          <Form.Item name="deviceId" label={t('col.device')}>
            <Select
              allowClear
              showSearch={{ filterOption: false, onSearch: setDeviceSearch }}
              style={{ width: 200 }}
              placeholder={t('allDevices')}
              options={deviceOptions}
              loading={devices.isFetching}
              data-testid="shots-filter-device"
            />
          </Form.Item>
          <Form.Item name="trigger" label={t('col.trigger')}>
            <Select
              allowClear
              style={{ width: 130 }}
              placeholder={t('screenshots:filter.all')}
              options={SCREENSHOT_TRIGGERS.map((v) => ({ value: v, label: t(`trigger.${v}`) }))}
              data-testid="shots-filter-trigger"
            />
          </Form.Item>
          <Form.Item name="range" label={t('dateRange')}>
            <DatePicker.RangePicker allowEmpty={[true, true]} data-testid="shots-filter-range" />
          </Form.Item>
        </FilterBar>
      </Card>
      <Card size="small" className="mq-list-card" title={t('historyTitle')}>
        <ListTable
          config={config}
          query={list}
          state={listState}
          rowSelection={{ selectedRowKeys: selected, onChange: (keys) => setSelected(keys as string[]) }}
          toolbar={
            <NotForMonitor>
              <Popconfirm
                title={t('confirm.deleteMany', { count: selected.length })}
                okText={t('delete')}
                cancelText={t('common:action.cancel')}
                okButtonProps={confirmOkProps(true)}
                disabled={selected.length === 0}
                onConfirm={() => remove.mutateAsync(selected).catch(() => undefined)}
              >
                <Button
                  danger
                  icon={<DeleteOutlined />}
                  disabled={selected.length === 0}
                  data-testid="shots-delete-selected"
                >
                  {t('deleteSelected')}
                </Button>
              </Popconfirm>
            </NotForMonitor>
          }
          rowTestId={(row) => `shots-row-${row.id}`}
          empty={t('historyEmpty')}
          showTotal={(total) => t('historyTotal', { count: total })}
        />
      </Card>
    </div>
  );
}
