import { DeleteOutlined } from '@ant-design/icons';
import { formatSize, formatTime, Perm, SCREENSHOT_TRIGGERS, type ScreenshotTrigger } from '@marquee/protocol';
import { Button, Image, Popconfirm, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCallMutation } from '../../api/queries';
import { confirmOkProps } from '../../components/ConfirmAction';
import { ListPage, useListPage } from '../../components/listPage';
import { NotForMonitor } from '../../components/MonitorGuard';
import { DeviceSelect } from '../../components/pickers/DevicePicker';

/**
 * Screenshot history (/device/screenshotHistory): the screenshots of the visible devices, or of
 * one, newest first, within a date range (kept 7 days, spec section 9), with delete (one or a
 * selection, confirmed).
 */
export default function ScreenshotHistoryPage() {
  const { t } = useTranslation(['screenshots', 'common']);
  const [selected, setSelected] = useState<string[]>([]);
  // The chosen device's name, so the picker names it before any search (from the rows shown).
  const [chosen, setChosen] = useState<{ id: string; name: string } | undefined>();

  const remove = useCallMutation('screenshotDelete', { success: t('deleted'), onSuccess: () => setSelected([]) });

  const list = useListPage({
    id: 'screenshotHistory',
    endpoint: 'screenshotHistory',
    filters: [
      {
        key: 'deviceId',
        kind: 'custom',
        label: t('col.device'),
        render: () => (
          <DeviceSelect
            allowClear
            style={{ width: 200 }}
            placeholder={t('allDevices')}
            limit={20}
            known={chosen ? [chosen] : undefined}
            testId="shots-filter-device"
          />
        ),
      },
      {
        key: 'trigger',
        kind: 'select',
        label: t('col.trigger'),
        placeholder: t('screenshots:filter.all'),
        width: 130,
        options: SCREENSHOT_TRIGGERS.map((v) => ({ value: v, label: t(`trigger.${v}`) })),
        testId: 'shots-filter-trigger',
      },
      {
        key: 'range',
        kind: 'range',
        from: 'from',
        to: 'to',
        wholeDays: true,
        label: t('dateRange'),
        testId: 'shots-filter-range',
      },
    ],
    onFilter: () => setSelected([]),
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
        handler: (row) => remove.mutateAsync({ ids: [row.id] }),
        testId: (row) => `shot-delete-${row.id}`,
      },
    ],
  });
  const deviceId = list.state.filters.deviceId;
  const shown = list.query.data?.data.find((row) => row.deviceId === deviceId);
  if (shown && chosen?.id !== shown.deviceId) setChosen({ id: shown.deviceId, name: shown.deviceName });

  return (
    <ListPage
      list={list}
      testId="screenshot-history-page"
      className="mq-screenshot-history"
      filterTestIds={{ search: 'shots-search', reset: 'shots-reset' }}
      title={t('historyTitle')}
      rowSelection={{ selectedRowKeys: selected, onChange: (keys) => setSelected(keys as string[]) }}
      toolbar={
        <NotForMonitor>
          <Popconfirm
            title={t('confirm.deleteMany', { count: selected.length })}
            okText={t('delete')}
            cancelText={t('common:action.cancel')}
            okButtonProps={confirmOkProps(true)}
            disabled={selected.length === 0}
            onConfirm={() => remove.mutateAsync({ ids: selected }).catch(() => undefined)}
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
  );
}
