import {
  type Endpoints,
  type ExportStatus,
  formatFen,
  formatTime,
  MAKE_GOOD_REMEDIES,
  type MakeGoodRemedy,
  Perm,
  type Req,
  type Res,
  type SalesOrder,
  type Settlement,
} from '@marquee/protocol';
import {
  Alert,
  Button,
  Card,
  Checkbox,
  Descriptions,
  Dropdown,
  Empty,
  Modal,
  Skeleton,
  Space,
  Table,
  Tag,
  Typography,
  theme,
} from 'antd';
import type { EChartsCoreOption } from 'echarts/core';
import { type Key, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call, download } from '../../api/client';
import { useCallMutation, useCallQuery } from '../../api/queries';
import { ExportDialog } from '../../components/ExportDialog';
import { useEnterpriseToday } from '../../components/enterpriseToday';
import { NotForMonitor } from '../../components/MonitorGuard';
import { categoryAxis, useEChart } from '../../components/useEChart';
import { useCan } from '../../session/useCan';
import { loadSalesCharts } from './AvailabilityChart';
import { deliveredPct, playsPerDay, settlementMoves } from './orderLogic';
import { SettlementStateTag } from './salesLook';

type Line = Res<Endpoints['salesSettlementInfo']>['lines']['data'][number];

/** Expected vs delivered plays per day (bars and a line), ECharts loaded on first use. */
function PlaysChart({ days }: { days: { day: string; expected: number; delivered: number }[] }) {
  const { t } = useTranslation('sales');
  const { token } = theme.useToken();
  const ref = useRef<HTMLDivElement>(null);
  const option = useMemo<EChartsCoreOption>(
    () => ({
      aria: { enabled: true, label: { description: t('settlement.chartLabel') } },
      grid: { left: 8, right: 8, top: 40, bottom: 4, containLabel: true },
      legend: { top: 0, textStyle: { color: token.colorTextSecondary } },
      tooltip: { trigger: 'axis' },
      xAxis: categoryAxis(
        days.map((d) => d.day),
        token,
      ),
      yAxis: {
        type: 'value',
        minInterval: 1,
        splitLine: { lineStyle: { color: token.colorBorderSecondary } },
        axisLabel: { color: token.colorTextSecondary },
      },
      series: [
        {
          type: 'bar',
          name: t('settlement.expected'),
          barMaxWidth: 22,
          itemStyle: { color: token.colorFillSecondary },
          data: days.map((d) => d.expected),
        },
        {
          type: 'line',
          name: t('settlement.delivered'),
          symbolSize: 5,
          itemStyle: { color: token.colorPrimary },
          data: days.map((d) => d.delivered),
        },
      ],
    }),
    [days, t, token],
  );
  useEChart(ref, loadSalesCharts, option, 'sales');
  return <div ref={ref} style={{ height: 220, width: '100%' }} data-testid="sales-settlement-chart" />;
}

/** The impressions basis sentence: audience where gather has data, else the multiplier per play. */
export function basisText(
  t: (key: string, options?: Record<string, unknown>) => string,
  basis: Settlement['impressionsBasis'],
): string {
  return t('settlement.basis', {
    audience: basis.audienceScreenDays,
    multiplier: (basis.multiplierPct / 100).toFixed(2),
    rest: basis.multiplierScreenDays,
  });
}

/**
 * The order's settlement (sales.settlementInfo): its state and make-good deadline; the
 * figures (expected and delivered plays, impressions with where they came from, frozen,
 * billed and credited amounts); expected vs delivered per day; the screen-day table
 * (under-delivered first, optionally only them) with the make-good per line or for all
 * (credit or extra plays, yxf_new_operate_sales_manage); compute, confirm (a confirmation
 * stating billed, credited and released amounts) and the Excel export.
 */
export function SettlementPanel({ order }: { order: SalesOrder }) {
  const { today } = useEnterpriseToday();
  const { t, i18n } = useTranslation('sales');
  const language = i18n.language;
  const can = useCan();
  const manage = can(Perm.salesManage);
  const [underOnly, setUnderOnly] = useState(false);
  const [page, setPage] = useState({ page: 1, size: 20 });
  const [confirming, setConfirming] = useState(false);
  const [exporting, setExporting] = useState<{ orderId: string } | null>(null);
  const [picked, setPicked] = useState<Key[]>([]);
  const info = useCallQuery(
    'salesSettlementInfo',
    {
      orderId: order.id,
      underOnly,
      page: page.page,
      size: page.size,
    } as Req<Endpoints['salesSettlementInfo']>,
    { keepPrevious: true },
  );
  const forChart = useCallQuery('salesSettlementInfo', {
    orderId: order.id,
    underOnly: false,
    page: 1,
    size: 500,
  } as Req<Endpoints['salesSettlementInfo']>);
  const s = info.data?.settlement ?? null;
  const lines = (info.data?.lines.data ?? []) as Line[];
  const days = useMemo(() => playsPerDay(forChart.data?.lines.data ?? []), [forChart.data]);

  const compute = useCallMutation('salesSettlementCompute', { success: t('settlement.computed') });
  const remedy = useCallMutation('salesSettlementRemedy', {
    success: t('settlement.remedySaved'),
    onSuccess: () => setPicked([]),
  });
  const confirm = useCallMutation('salesSettlementConfirm', {
    success: t('settlement.confirmed'),
    invalidates: ['finance', 'payments'],
    onSuccess: () => setConfirming(false),
  });
  const open = s?.state === 'toBePaid';
  const canCompute = manage && order.state === 'inProgress' && (!s || s.state === 'toBePaid');
  const periodOver = today() > order.endDate;
  const lineKey = (l: Line) => `${l.subOrderId}|${l.deviceId}|${l.day}`;
  const chooseRemedy = (r: MakeGoodRemedy, only?: Line[]) =>
    remedy.mutate({
      orderId: order.id,
      remedy: r,
      ...(only ? { lines: only.map((l) => ({ subOrderId: l.subOrderId, deviceId: l.deviceId, day: l.day })) } : {}),
    });
  const moves = s ? settlementMoves(s) : null;

  return (
    <Card
      size="small"
      title={
        <Space>
          {t('settlement.title')}
          {s ? <SettlementStateTag state={s.state} /> : null}
        </Space>
      }
      data-testid="sales-settlement"
      extra={
        <NotForMonitor>
          <Space wrap>
            {canCompute ? (
              <Button
                onClick={() => compute.mutate({ orderId: order.id })}
                loading={compute.isPending}
                data-testid="sales-settlement-compute"
              >
                {s ? t('settlement.recompute') : t('settlement.compute')}
              </Button>
            ) : null}
            {manage && open ? (
              <Button
                type="primary"
                disabled={!periodOver}
                title={periodOver ? undefined : t('settlement.confirmAfterPeriod')}
                onClick={() => setConfirming(true)}
                data-testid="sales-settlement-confirm"
              >
                {t('settlement.confirm')}
              </Button>
            ) : null}
            {s ? (
              <Button onClick={() => setExporting({ orderId: order.id })} data-testid="sales-settlement-export">
                {t('export.button')}
              </Button>
            ) : null}
          </Space>
        </NotForMonitor>
      }
    >
      {info.isPending ? (
        <Skeleton active paragraph={{ rows: 4 }} />
      ) : !s ? (
        <Empty
          image={Empty.PRESENTED_IMAGE_SIMPLE}
          description={t('settlement.none')}
          data-testid="sales-settlement-none"
        />
      ) : (
        <Space orientation="vertical" size={12} style={{ width: '100%' }}>
          {s.makeGoodUntil ? (
            <Alert type="info" showIcon title={t('settlement.makeGoodUntil', { at: formatTime(s.makeGoodUntil) })} />
          ) : null}
          <Descriptions size="small" bordered column={{ xs: 1, md: 3 }}>
            <Descriptions.Item label={t('settlement.expectedPlays')}>{s.expectedPlays}</Descriptions.Item>
            <Descriptions.Item label={t('settlement.deliveredPlays')}>
              <span data-testid="sales-settlement-delivered">
                {s.deliveredPlays} ({deliveredPct(s.expectedPlays, s.deliveredPlays)}%)
              </span>
            </Descriptions.Item>
            <Descriptions.Item label={t('settlement.impressions')}>{s.impressions}</Descriptions.Item>
            <Descriptions.Item label={t('settlement.frozen')}>{formatFen(s.frozenAmount, language)}</Descriptions.Item>
            <Descriptions.Item label={t('settlement.billed')}>
              <span data-testid="sales-settlement-billed">{formatFen(s.billedAmount, language)}</span>
            </Descriptions.Item>
            <Descriptions.Item label={t('settlement.credited')}>
              {formatFen(s.creditAmount, language)}
            </Descriptions.Item>
            <Descriptions.Item label={t('settlement.underScreenDays')}>{s.underDeliveredScreenDays}</Descriptions.Item>
            <Descriptions.Item label={t('settlement.computedAt')}>{formatTime(s.computedAt)}</Descriptions.Item>
            <Descriptions.Item label={t('settlement.confirmedAt')}>
              {s.confirmedAt ? `${formatTime(s.confirmedAt)} · ${s.confirmedBy ?? ''}` : '-'}
            </Descriptions.Item>
          </Descriptions>
          <Typography.Paragraph type="secondary" data-testid="sales-settlement-basis">
            {basisText(t, s.impressionsBasis)}
          </Typography.Paragraph>
          {days.length > 0 ? <PlaysChart days={days} /> : null}
          <Space wrap>
            <Checkbox
              checked={underOnly}
              onChange={(e) => {
                setUnderOnly(e.target.checked);
                setPage((p) => ({ ...p, page: 1 }));
              }}
              data-testid="sales-settlement-under-only"
            >
              {t('settlement.underOnly')}
            </Checkbox>
            {manage && open ? (
              <NotForMonitor>
                <Space wrap>
                  <Dropdown
                    disabled={picked.length === 0}
                    menu={{
                      items: MAKE_GOOD_REMEDIES.map((r) => ({ key: r, label: t(`settlement.remedy.${r}`) })),
                      onClick: ({ key }) =>
                        chooseRemedy(
                          key as MakeGoodRemedy,
                          lines.filter((l) => picked.includes(lineKey(l))),
                        ),
                    }}
                  >
                    <Button data-testid="sales-settlement-remedy-picked">
                      {t('settlement.remedyPicked', { count: picked.length })}
                    </Button>
                  </Dropdown>
                  <Dropdown
                    disabled={s.underDeliveredScreenDays === 0}
                    menu={{
                      items: MAKE_GOOD_REMEDIES.map((r) => ({ key: r, label: t(`settlement.remedy.${r}`) })),
                      onClick: ({ key }) => chooseRemedy(key as MakeGoodRemedy),
                    }}
                  >
                    <Button loading={remedy.isPending} data-testid="sales-settlement-remedy-all">
                      {t('settlement.remedyAll')}
                    </Button>
                  </Dropdown>
                </Space>
              </NotForMonitor>
            ) : null}
          </Space>
          <Table<Line>
            rowKey={lineKey}
            size="small"
            data-testid="sales-settlement-lines"
            loading={info.isFetching}
            dataSource={lines}
            rowSelection={
              manage && open
                ? {
                    selectedRowKeys: picked,
                    onChange: setPicked,
                    getCheckboxProps: (l) => ({ disabled: !l.underDelivered }),
                  }
                : undefined
            }
            pagination={{
              current: page.page,
              pageSize: page.size,
              total: info.data?.lines.total ?? 0,
              size: 'small',
              showSizeChanger: true,
              pageSizeOptions: [10, 20, 50, 100],
              onChange: (p, size) => setPage({ page: size === page.size ? p : 1, size }),
            }}
            columns={[
              { key: 'day', dataIndex: 'day', title: t('settlement.day'), width: 110 },
              { key: 'device', dataIndex: 'deviceName', title: t('settlement.screen'), ellipsis: true },
              {
                key: 'expected',
                dataIndex: 'expectedPlays',
                title: t('settlement.expected'),
                align: 'right',
                width: 90,
              },
              {
                key: 'delivered',
                title: t('settlement.delivered'),
                align: 'right',
                width: 120,
                render: (_: unknown, l) => (
                  <span>
                    {l.deliveredPlays} {l.underDelivered ? <Tag color="error">{t('settlement.under')}</Tag> : null}
                  </span>
                ),
              },
              {
                key: 'impressions',
                title: t('settlement.impressions'),
                align: 'right',
                width: 130,
                render: (_: unknown, l) => (
                  <span title={t(`settlement.source.${l.impressionsSource}`)}>
                    {l.impressions}
                    <Typography.Text type="secondary">
                      {' '}
                      · {t(`settlement.sourceShort.${l.impressionsSource}`)}
                    </Typography.Text>
                  </span>
                ),
              },
              {
                key: 'amount',
                dataIndex: 'amount',
                title: t('settlement.amount'),
                align: 'right',
                width: 110,
                render: (v: number) => formatFen(v, language),
              },
              {
                key: 'remedy',
                title: t('settlement.remedyColumn'),
                width: 150,
                render: (_: unknown, l) =>
                  l.remedy ? (
                    <span>
                      {t(`settlement.remedy.${l.remedy}`)}
                      {l.credit > 0 ? ` ${formatFen(l.credit, language)}` : ''}
                    </span>
                  ) : l.underDelivered && manage && open ? (
                    <Space size={4}>
                      {MAKE_GOOD_REMEDIES.map((r) => (
                        <Button
                          key={r}
                          size="small"
                          type="link"
                          onClick={() => chooseRemedy(r, [l])}
                          data-testid={`sales-settlement-remedy-${r}-${lineKey(l)}`}
                        >
                          {t(`settlement.remedy.${r}`)}
                        </Button>
                      ))}
                    </Space>
                  ) : (
                    '-'
                  ),
              },
            ]}
          />
          {s.transfers.length > 0 ? (
            <Table
              rowKey="id"
              size="small"
              pagination={false}
              title={() => t('settlement.transfers')}
              dataSource={s.transfers}
              data-testid="sales-settlement-transfers"
              columns={[
                { key: 'id', dataIndex: 'id', title: t('order.transferId') },
                { key: 'code', dataIndex: 'code', title: t('order.transferCode'), width: 100 },
                {
                  key: 'amount',
                  dataIndex: 'amount',
                  title: t('order.transferAmount'),
                  align: 'right',
                  width: 130,
                  render: (v: number) => formatFen(v, language),
                },
                {
                  key: 'at',
                  dataIndex: 'at',
                  title: t('order.transferAt'),
                  width: 170,
                  render: (v: string) => formatTime(v),
                },
              ]}
            />
          ) : null}
        </Space>
      )}
      <Modal
        open={confirming && Boolean(moves)}
        title={t('settlement.confirmTitle', { no: order.no })}
        okText={t('settlement.confirm')}
        cancelText={t('order.back')}
        confirmLoading={confirm.isPending}
        okButtonProps={{ 'data-testid': 'sales-settlement-confirm-ok' }}
        onCancel={() => setConfirming(false)}
        onOk={() => confirm.mutateAsync({ orderId: order.id }).catch(() => undefined)}
        destroyOnHidden
      >
        {moves ? (
          <Typography.Paragraph data-testid="sales-settlement-confirm-text">
            {t('settlement.confirmText', {
              billed: formatFen(moves.billed, language),
              credited: formatFen(moves.credited, language),
              released: formatFen(moves.released, language),
            })}
          </Typography.Paragraph>
        ) : null}
      </Modal>
      <ExportDialog
        filter={exporting}
        onClose={() => setExporting(null)}
        ns="sales"
        testIdPrefix="sales-settlement-export"
        start={(f) => call('salesSettlementExportStart', f) as Promise<ExportStatus>}
        status={(exportId) => call('salesSettlementExportStatus', { exportId }) as Promise<ExportStatus>}
        fetchFile={(exportId) => download('salesSettlementExportDownload', { exportId })}
      />
    </Card>
  );
}
