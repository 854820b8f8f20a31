import { QRCODE_GROUPS, type QrcodeGroup, type QrcodeReportRow } from '@marquee/protocol';
import { Button, Card, Col, Empty, Row, Skeleton, Space, Statistic, Tag, Typography } from 'antd';
import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { ExportButton } from '../../components/ExportDialog';
import { ListPage, useListPage } from '../../components/listPage';

const QrcodeChart = lazy(() => import('./QrcodeChart'));

const OBJECT_FILTER: Record<Exclude<QrcodeGroup, 'day'>, 'adId' | 'layoutId' | 'deviceId'> = {
  ad: 'adId',
  layout: 'layoutId',
  device: 'deviceId',
};

/**
 * QR code events (/report/qrcodeEvent, alias /qrcode_event; issue 31): the scans of layouts' QR
 * codes on the screens the caller sees, over a range of UTC days (the last 7 by default): the
 * totals, a chart of scans a day, and a table per day, ad, layout or device. A row of an ad,
 * layout or device narrows the report to it (shown as a tag that clears it). Excel export in the
 * background, as the other reports.
 */
export default function QrcodeEventPage() {
  const { t } = useTranslation('qrcode');
  const list = useListPage({
    id: 'qrcode',
    endpoint: 'qrcodeReport',
    scope: ['adId', 'layoutId', 'deviceId'],
    filters: [
      {
        key: 'groupBy',
        kind: 'select',
        label: t('filter.groupBy'),
        defaultValue: 'day',
        options: QRCODE_GROUPS.map((g) => ({ value: g, label: t(`group.${g}`) })),
        testId: 'qrcode-group',
      },
      { key: 'range', kind: 'range', from: 'from', to: 'to', label: t('filter.range'), testId: 'qrcode-range' },
    ],
    columns: [
      {
        prop: 'name',
        label: t('col.name'),
        width: 260,
        ellipsis: true,
        slot: (v: string, row: QrcodeReportRow) => {
          if (group === 'day') return v;
          if (group === 'ad' && row.key === '') return <Typography.Text type="secondary">{t('noAd')}</Typography.Text>;
          const label = v || t('gone');
          return (
            <Button
              type="link"
              size="small"
              style={{ padding: 0 }}
              data-testid="qrcode-drill"
              onClick={() => list.refine({ [OBJECT_FILTER[group]]: row.key, groupBy: 'day' })}
            >
              {label}
            </Button>
          );
        },
      },
      { prop: 'scans', label: t('col.scans'), width: 120, showThousands: true },
      { prop: 'devices', label: t('col.devices'), width: 120, showThousands: true },
      {
        prop: 'lastAt',
        label: t('col.lastAt'),
        width: 180,
        slot: (v: number) => new Date(v).toLocaleString(),
      },
    ],
  });
  const data = list.query.data;
  const group = ((list.values.groupBy as string | undefined) ?? 'day') as QrcodeGroup;
  const sent = list.request as Record<string, unknown>;
  const narrowed = (['adId', 'layoutId', 'deviceId'] as const).filter((k) => sent[k] !== undefined);

  const summary = (
    <Card size="small" style={{ marginBottom: 12 }} data-testid="qrcode-summary">
      {data ? (
        <Row gutter={16} align="middle">
          <Col xs={24} md={6}>
            <Space direction="vertical" size={4}>
              <Statistic title={t('totals.scans')} value={data.totals.scans} data-testid="qrcode-total-scans" />
              <Statistic title={t('totals.devices')} value={data.totals.devices} />
              <Typography.Text type="secondary">{t('range', { from: data.from, to: data.to })}</Typography.Text>
              {narrowed.map((k) => (
                <Tag key={k} closable onClose={() => list.refine({ [k]: undefined })} data-testid="qrcode-narrowed">
                  {t(`narrowed.${k}`)}
                </Tag>
              ))}
            </Space>
          </Col>
          <Col xs={24} md={18}>
            {data.totals.scans === 0 ? (
              <Empty description={t('chart.empty')} image={Empty.PRESENTED_IMAGE_SIMPLE} />
            ) : (
              <Suspense fallback={<Skeleton active paragraph={{ rows: 4 }} />}>
                <QrcodeChart series={data.series} />
              </Suspense>
            )}
          </Col>
        </Row>
      ) : (
        <Skeleton active paragraph={{ rows: 4 }} />
      )}
    </Card>
  );

  return (
    <ListPage
      list={list}
      testPrefix="qrcode"
      title={t('title')}
      above={summary}
      toolbar={
        <ExportButton
          ns="qrcode"
          testId="qrcode-export"
          calls={{ start: 'qrcodeExportStart', status: 'qrcodeExportStatus', download: 'qrcodeExportDownload' }}
          request={list.request}
        />
      }
      rowTestId={() => 'qrcode-row'}
      empty={t('empty')}
      showTotal={(total) => t('total', { count: total })}
      below={
        <Typography.Paragraph type="secondary" style={{ marginTop: 8, marginBottom: 0 }}>
          {t('note')}
        </Typography.Paragraph>
      }
    />
  );
}
