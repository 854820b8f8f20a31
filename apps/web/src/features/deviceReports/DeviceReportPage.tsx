import { Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useCallQuery } from '../../api/queries';
import { ExportButton } from '../../components/ExportDialog';
import { ListPage, useListPage } from '../../components/listPage';
import { DeptPicker, useCanPickDept } from '../../components/pickers/DeptPicker';
import { ReportZoneNote } from '../../components/ReportZoneNote';
import { hoursText, playText } from './format';

/** The detail page of a device over the same range. */
function detailHref(deviceId: string, from?: string, to?: string): string {
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
  const groups = useCallQuery('deviceGroupOptions', {});
  const list = useListPage({
    id: 'deviceReport',
    endpoint: 'reportDeviceList',
    filters: [
      {
        key: 'keyword',
        label: t('filter.keyword'),
        placeholder: t('filter.keywordPlaceholder'),
        testId: 'device-report-keyword',
      },
      {
        key: 'deptId',
        kind: 'custom',
        label: t('filter.dept'),
        hidden: !canPickDept,
        render: () => (
          <DeptPicker allowClear style={{ width: 180 }} placeholder={t('filter.all')} testId="device-report-dept" />
        ),
      },
      {
        key: 'groupId',
        kind: 'select',
        label: t('filter.group'),
        showSearch: true,
        placeholder: t('filter.all'),
        loading: groups.isLoading,
        options: groups.data?.map((g) => ({ value: g.id, label: g.name })) ?? [],
        testId: 'device-report-group',
      },
      { key: 'range', kind: 'range', from: 'from', to: 'to', label: t('filter.range'), testId: 'device-report-range' },
    ],
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
  });
  // The range the figures are over (the last 7 days when none is chosen).
  const from = list.query.data?.from;
  const to = list.query.data?.to;

  return (
    <ListPage
      list={list}
      testPrefix="device-report"
      className="mq-device-report"
      title={
        <span>
          {t('device.title')}
          {from && to ? (
            <Typography.Text type="secondary" style={{ marginLeft: 8, fontWeight: 'normal' }}>
              {t('range', { from, to, zone: list.query.data?.timeZone })}
            </Typography.Text>
          ) : null}
          <ReportZoneNote from={from} zoneSince={list.query.data?.zoneSince} />
        </span>
      }
      toolbar={
        <ExportButton
          ns="deviceReports"
          testId="device-report-export"
          calls={{
            start: 'reportDeviceExportStart',
            status: 'reportDeviceExportStatus',
            download: 'reportDeviceExportDownload',
          }}
          request={list.request}
        />
      }
      rowTestId={() => 'device-report-row'}
      empty={t('empty')}
      showTotal={(total) => t('total', { count: total })}
      below={
        <Typography.Paragraph type="secondary" style={{ marginTop: 8, marginBottom: 0 }}>
          {t('note.downloads')}
        </Typography.Paragraph>
      }
    />
  );
}
