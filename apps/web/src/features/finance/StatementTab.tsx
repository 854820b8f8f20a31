import { formatFen, type StatementMonth } from '@marquee/protocol';
import { Button, Card, Empty, Result, Skeleton, Table, Typography, theme } from 'antd';
import { useMemo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useCallQuery } from '../../api/queries';
import { categoryAxis, useEChart } from '../../components/useEChart';

const loadFinanceCharts = () => import('./echartsFinance');

/**
 * The Statement tab: the selected wallet's last 12 monthly statements (opening + in - out =
 * closing, in the enterprise's calendar), as a table (newest first) and a chart of the closing
 * balance as a line over the money in and out as bars (oldest first).
 */
export function StatementTab({ walletId }: { walletId?: string }) {
  const { t, i18n } = useTranslation('finance');
  const language = i18n.language;
  const statement = useCallQuery('financeStatement', { months: 12, ...(walletId ? { walletId } : {}) });
  const months = statement.data?.months;
  const rows = useMemo(() => [...(months ?? [])].reverse(), [months]);
  const money = (fen: number) => formatFen(fen, language);

  if (statement.isError)
    return (
      <Result
        status="warning"
        title={t('loadFailed')}
        extra={<Button onClick={() => statement.refetch()}>{t('action.retry')}</Button>}
      />
    );
  if (!months) return <Skeleton active data-testid="finance-statement-loading" />;

  return (
    <div className="mq-finance-statement" data-testid="finance-statement">
      {months.some((m) => m.movements > 0 || m.closing !== 0) ? (
        <Card size="small" title={t('statement.chartTitle')} className="mq-finance-chart-card">
          <StatementChart months={months} />
        </Card>
      ) : null}
      <Table<StatementMonth>
        rowKey="month"
        size="middle"
        dataSource={rows}
        pagination={false}
        loading={statement.isFetching}
        locale={{ emptyText: <Empty description={t('statement.empty')} /> }}
        onRow={() => ({ 'data-testid': 'finance-statement-row' }) as React.HTMLAttributes<HTMLElement>}
        columns={[
          { key: 'month', dataIndex: 'month', title: t('statement.month'), width: 110 },
          {
            key: 'opening',
            dataIndex: 'opening',
            title: t('statement.opening'),
            align: 'right',
            render: (v: number) => money(v),
          },
          {
            key: 'credits',
            dataIndex: 'credits',
            title: t('statement.in'),
            align: 'right',
            render: (v: number) => (v === 0 ? '-' : <Typography.Text type="success">{money(v)}</Typography.Text>),
          },
          {
            key: 'debits',
            dataIndex: 'debits',
            title: t('statement.out'),
            align: 'right',
            render: (v: number) => (v === 0 ? '-' : <Typography.Text type="danger">{money(v)}</Typography.Text>),
          },
          {
            key: 'closing',
            dataIndex: 'closing',
            title: t('statement.closing'),
            align: 'right',
            render: (v: number) => <strong>{money(v)}</strong>,
          },
          {
            key: 'movements',
            dataIndex: 'movements',
            title: t('statement.movements'),
            align: 'right',
            width: 110,
          },
        ]}
      />
    </div>
  );
}

/** Closing balance (a line) over money in and out (bars) by month; amounts stay fen, shown as yuan. */
function StatementChart({ months }: { months: readonly StatementMonth[] }) {
  const { t, i18n } = useTranslation('finance');
  const language = i18n.language;
  const { token } = theme.useToken();
  const ref = useRef<HTMLDivElement>(null);
  const option = useMemo(() => {
    const yuanAxis = new Intl.NumberFormat(language, { notation: 'compact', maximumFractionDigits: 1 });
    return {
      aria: { enabled: true, label: { description: t('statement.chartLabel') } },
      legend: { top: 0, textStyle: { color: token.colorTextSecondary } },
      grid: { left: 8, right: 8, top: 36, bottom: 4, containLabel: true },
      tooltip: { trigger: 'axis', valueFormatter: (v: number) => formatFen(Math.round(Number(v)), language) },
      xAxis: categoryAxis(
        months.map((m) => m.month),
        token,
      ),
      yAxis: {
        type: 'value',
        splitLine: { lineStyle: { color: token.colorBorderSecondary } },
        // Fen on the axis, read as yuan.
        axisLabel: { color: token.colorTextSecondary, formatter: (v: number) => yuanAxis.format(v / 100) },
      },
      series: [
        {
          type: 'bar',
          name: t('statement.in'),
          data: months.map((m) => m.credits),
          barMaxWidth: 18,
          itemStyle: { color: token.colorSuccess },
        },
        {
          type: 'bar',
          name: t('statement.out'),
          data: months.map((m) => m.debits),
          barMaxWidth: 18,
          itemStyle: { color: token.colorError },
        },
        {
          type: 'line',
          name: t('statement.closing'),
          data: months.map((m) => m.closing),
          symbolSize: 6,
          itemStyle: { color: token.colorPrimary },
        },
      ],
    };
  }, [months, language, t, token]);
  useEChart(ref, loadFinanceCharts, option, 'finance');
  return <div ref={ref} className="mq-finance-chart" data-testid="finance-statement-chart" />;
}
