import { formatFen } from '@marquee/protocol';
import { Card, DatePicker, Empty, Result, Segmented, Skeleton, Space, Table, Typography } from 'antd';
import type { Dayjs } from 'dayjs';
import { lazy, type ReactNode, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCallQuery } from '../../api/queries';
import { useCpmText } from './rtbLook';

const FillChart = lazy(() => import('./FillChart'));

const BYS = ['slot', 'device', 'hour'] as const;
type By = (typeof BYS)[number];

/** A share 0..1 as a percent with one decimal. */
export const percent = (share: number) => `${(Math.round(share * 1000) / 10).toFixed(1)}%`;

/**
 * /operate/slot?tab=fill: the RTB fill-rate report (rtb.fillReport) by slot, screen or hour of
 * day (of the enterprise's time zone, issue 31) over a time range: a chart of the fill rate and average clearing CPM, and the table
 * of auctions, bids, wins, billed plays, fill rate, average clearing CPM and revenue with the
 * totals row.
 */
export function FillReportTab({ header }: { header?: ReactNode }) {
  const { t, i18n } = useTranslation('rtb');
  const language = i18n.language;
  const cpm = useCpmText();
  const [by, setBy] = useState<By>('slot');
  const [range, setRange] = useState<[Dayjs | null, Dayjs | null] | null>(null);
  const from = range?.[0]?.startOf('day').toISOString();
  const to = range?.[1]?.endOf('day').toISOString();
  const report = useCallQuery(
    'rtbFillReport',
    { by, ...(from ? { from } : {}), ...(to ? { to } : {}) },
    { keepPrevious: true },
  );
  const rows = report.data?.rows ?? [];
  const totals = report.data?.totals;
  const fen = (v: number) => formatFen(v, language);
  const num = (v: number) => v.toLocaleString(language);

  return (
    <div className="mq-view" data-testid="rtb-fill-page">
      {header}
      <Card size="small" style={{ marginBottom: 12 }}>
        <Space wrap size={16}>
          <Space>
            <Typography.Text>{t('fill.by')}</Typography.Text>
            <Segmented
              value={by}
              onChange={(v) => setBy(v as By)}
              options={BYS.map((b) => ({ value: b, label: t(`fill.by.${b}`) }))}
              data-testid="rtb-fill-by"
            />
          </Space>
          <Space>
            <Typography.Text>{t('fill.range')}</Typography.Text>
            <DatePicker.RangePicker
              allowEmpty={[true, true]}
              value={range}
              onChange={(v) => setRange(v as [Dayjs | null, Dayjs | null] | null)}
              data-testid="rtb-fill-range"
            />
          </Space>
        </Space>
      </Card>
      <Card size="small" title={report.data ? t('fill.titleIn', { zone: report.data.timeZone }) : t('fill.title')}>
        {report.isPending ? (
          <Skeleton active paragraph={{ rows: 6 }} />
        ) : !report.data ? (
          <Result status="warning" title={t('loadFailed')} />
        ) : rows.length === 0 ? (
          <Empty description={t('fill.empty')} data-testid="rtb-fill-empty" />
        ) : (
          <Space orientation="vertical" size={12} style={{ width: '100%' }}>
            <Suspense fallback={<Skeleton.Node active style={{ width: '100%', height: 260 }} />}>
              <FillChart rows={rows} />
            </Suspense>
            <Table
              rowKey="key"
              size="small"
              pagination={false}
              loading={report.isFetching}
              dataSource={rows}
              data-testid="rtb-fill-table"
              scroll={{ x: 900 }}
              columns={[
                { key: 'name', dataIndex: 'name', title: t(`fill.by.${by}`), ellipsis: true },
                { key: 'auctions', dataIndex: 'auctions', title: t('fill.auctions'), align: 'right', render: num },
                { key: 'bids', dataIndex: 'bids', title: t('fill.bids'), align: 'right', render: num },
                { key: 'wins', dataIndex: 'wins', title: t('fill.wins'), align: 'right', render: num },
                { key: 'billed', dataIndex: 'billed', title: t('fill.billed'), align: 'right', render: num },
                {
                  key: 'fillRate',
                  dataIndex: 'fillRate',
                  title: t('fill.fillRate'),
                  align: 'right',
                  render: (v: number) => percent(v),
                },
                {
                  key: 'avgClearingCpm',
                  dataIndex: 'avgClearingCpm',
                  title: t('fill.avgClearingCpm'),
                  align: 'right',
                  render: (v: number | null) => cpm(v),
                },
                { key: 'revenue', dataIndex: 'revenue', title: t('fill.revenue'), align: 'right', render: fen },
              ]}
              summary={() =>
                totals ? (
                  <Table.Summary.Row data-testid="rtb-fill-totals">
                    <Table.Summary.Cell index={0}>
                      <strong>{t('fill.totals')}</strong>
                    </Table.Summary.Cell>
                    <Table.Summary.Cell index={1} align="right">
                      {num(totals.auctions)}
                    </Table.Summary.Cell>
                    <Table.Summary.Cell index={2} align="right">
                      {num(totals.bids)}
                    </Table.Summary.Cell>
                    <Table.Summary.Cell index={3} align="right">
                      {num(totals.wins)}
                    </Table.Summary.Cell>
                    <Table.Summary.Cell index={4} align="right">
                      {num(totals.billed)}
                    </Table.Summary.Cell>
                    <Table.Summary.Cell index={5} align="right">
                      {percent(totals.fillRate)}
                    </Table.Summary.Cell>
                    <Table.Summary.Cell index={6} align="right">
                      {cpm(totals.avgClearingCpm)}
                    </Table.Summary.Cell>
                    <Table.Summary.Cell index={7} align="right">
                      {fen(totals.revenue)}
                    </Table.Summary.Cell>
                  </Table.Summary.Row>
                ) : null
              }
            />
          </Space>
        )}
      </Card>
    </div>
  );
}
