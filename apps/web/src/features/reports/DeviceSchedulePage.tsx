import type { DeviceScheduleRow } from '@marquee/protocol';
import { Space, Tooltip, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { ListPage, useListPage } from '../../components/listPage';
import { DeptPicker, useCanPickDept } from '../../components/pickers/DeptPicker';
import { ReportZoneNote } from '../../components/ReportZoneNote';
import { deliveryCell, ReportExportButton } from './look';
import './reports.css';

/**
 * The device schedule report (/report/deviceSchedule): per device of the caller's scope and
 * UTC day, the ads scheduled on it with their expected plays against the plays it reported;
 * under-delivered device-days are marked, and listed first on request. Excel export.
 */
export default function DeviceSchedulePage() {
  const { t } = useTranslation('reports');
  const canPickDept = useCanPickDept();
  const list = useListPage({
    id: 'deviceSchedule',
    endpoint: 'reportDeviceSchedule',
    filters: [
      { key: 'keyword', label: t('field.deviceKeyword'), width: 180, testId: 'device-schedule-keyword' },
      {
        key: 'deptId',
        kind: 'custom',
        label: t('field.dept'),
        hidden: !canPickDept,
        render: () => (
          <DeptPicker allowClear style={{ width: 180 }} placeholder={t('all')} testId="device-schedule-dept" />
        ),
      },
      {
        key: 'range',
        kind: 'range',
        from: 'from',
        to: 'to',
        label: t('field.range'),
        testId: 'device-schedule-range',
      },
      {
        key: 'underFirst',
        kind: 'check',
        label: t('underFirst'),
        testId: 'device-schedule-under-first',
        param: () => true,
      },
    ],
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
  });

  return (
    <ListPage
      list={list}
      testPrefix="device-schedule"
      className="mq-reports"
      title={
        list.query.data ? (
          <span>
            {t('scheduleTitle', { from: list.query.data.from, to: list.query.data.to, zone: list.query.data.timeZone })}
            <ReportZoneNote from={list.query.data.from} zoneSince={list.query.data.zoneSince} />
          </span>
        ) : (
          t('schedule')
        )
      }
      rowKey={(r) => `${r.deviceId}|${r.day}`}
      rowClassName={(r) => (r.underDelivered ? 'mq-report-under' : '')}
      toolbar={
        <ReportExportButton
          testId="device-schedule-export"
          start="reportDeviceScheduleExportStart"
          request={list.request}
        />
      }
      rowTestId={(row) => `device-schedule-row-${row.number}-${row.day}`}
      empty={t('noDevicesInScope')}
      failed={{ description: t('loadFailed'), retryLabel: t('retry') }}
      showTotal={(total) => t('rowsTotal', { count: total })}
    />
  );
}
