import { Perm } from '@marquee/protocol';
import { Button, Card, Result, Space, Tabs, Typography } from 'antd';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useCallQuery } from '../../api/queries';
import { useCan } from '../../session/useCan';
import { BillCreateButton } from '../payments/BillCreateButton';
import { OfflineReviewPanel } from '../payments/OfflineReviewPanel';
import { InvoicesTab } from './InvoicesTab';
import { walletLabel } from './look';
import { MovementsTab } from './MovementsTab';
import { PaymentsTab } from './PaymentsTab';
import { RechargeDialog } from './RechargeDialog';
import { StatementTab } from './StatementTab';
import { SummaryCards } from './SummaryCards';
import { useSeesSeveralWallets, WalletSelect } from './WalletSelect';
import './finance.css';

const FINANCE_TABS = ['movements', 'payments', 'invoices', 'statement', 'offline', 'bills'] as const;
type FinanceTab = (typeof FINANCE_TABS)[number];

/**
 * The finance centre (/my/finance, alias /finance_center; issue 26): the selected wallet's
 * available, frozen and posted balance with the low-balance warning and its threshold, what
 * can be invoiced and the unpaid orders, and Recharge; then the tabs Movements (the ledger,
 * filtered and exported), Payments, Invoices and Statement (12 months, table and chart); the
 * platform operator also reviews offline transfers and raises bills. The wallet (`?wallet=`)
 * and the tab (`?tab=`) are in the URL; a caller who sees several wallets picks one.
 */
export default function FinancePage() {
  const { t } = useTranslation('finance');
  const can = useCan();
  const operator = can(Perm.financeManage);
  const [params, setParams] = useSearchParams();
  const walletId = params.get('wallet') || undefined;
  const several = useSeesSeveralWallets();
  const summary = useCallQuery('financeSummary', walletId ? { walletId } : {}, { keepPrevious: true });
  const wallet = summary.data?.wallet;
  const [recharging, setRecharging] = useState(false);

  /** Another tab or wallet: the lists' filters and pages are left behind, the wallet kept. */
  const go = (next: { tab?: string; wallet?: string; extra?: Record<string, string> }) => {
    const out: Record<string, string> = {};
    const nextWallet = next.wallet ?? walletId;
    if (nextWallet) out.wallet = nextWallet;
    out.tab = next.tab ?? active;
    setParams({ ...out, ...next.extra }, { replace: true });
  };

  const platform = wallet?.kind === 'platform';
  const showOwner = several && !walletId;
  const items: { key: FinanceTab; label: string; children: ReactNode }[] = [
    { key: 'movements', label: t('tab.movements'), children: <MovementsTab /> },
    { key: 'payments', label: t('tab.payments'), children: <PaymentsTab showOwner={showOwner} /> },
    {
      key: 'invoices',
      label: t('tab.invoices'),
      children: (
        <InvoicesTab
          walletId={walletId}
          invoiceable={summary.data?.invoiceable ?? 0}
          canRequest={Boolean(wallet) && !platform}
          showOwner={showOwner || operator}
        />
      ),
    },
    { key: 'statement', label: t('tab.statement'), children: <StatementTab walletId={walletId} /> },
    ...(operator
      ? [
          { key: 'offline' as const, label: t('tab.offline'), children: <OfflineReviewPanel /> },
          {
            key: 'bills' as const,
            label: t('tab.bills'),
            children: <PaymentsTab purpose="bill" showOwner testPrefix="finance-bills" />,
          },
        ]
      : []),
  ];
  const requested = params.get('tab');
  const active: FinanceTab = items.some((i) => i.key === requested) ? (requested as FinanceTab) : 'movements';

  if (summary.isError && !summary.data)
    return (
      <div className="mq-view mq-finance" data-testid="finance-page">
        <Result
          status="warning"
          title={t('loadFailed')}
          extra={
            <Space>
              {walletId ? (
                <Button onClick={() => setParams({}, { replace: true })} data-testid="finance-own-wallet">
                  {t('wallet.own')}
                </Button>
              ) : null}
              <Button type="primary" onClick={() => summary.refetch()} data-testid="finance-retry">
                {t('action.retry')}
              </Button>
            </Space>
          }
        />
      </div>
    );

  return (
    <div className="mq-view mq-finance" data-testid="finance-page">
      <div className="mq-finance-head">
        <div className="mq-finance-heading">
          <Typography.Title level={4} className="mq-finance-title">
            {t('title')}
          </Typography.Title>
          {wallet ? (
            <Typography.Text type="secondary" data-testid="finance-wallet-name">
              {walletLabel(t, wallet)}
            </Typography.Text>
          ) : null}
        </div>
        <Space wrap className="mq-finance-actions">
          {several || operator ? (
            <WalletSelect value={walletId} current={wallet} onChange={(id) => go({ wallet: id, tab: active })} />
          ) : null}
          {/* The platform operator raises a bill to an enterprise from any tab (hidden from others). */}
          <BillCreateButton />
        </Space>
      </div>
      <SummaryCards
        summary={summary.data}
        loading={summary.isLoading}
        onRecharge={wallet && !platform ? () => setRecharging(true) : undefined}
        onUnpaid={() => go({ tab: 'payments', extra: { state: 'unpaid' } })}
      />
      <Card size="small" className="mq-finance-tabs">
        <Tabs
          activeKey={active}
          onChange={(key) => go({ tab: key })}
          destroyOnHidden
          items={items.map((i) => ({
            ...i,
            label: <span data-testid={`finance-tab-${i.key}`}>{i.label}</span>,
          }))}
        />
      </Card>
      <RechargeDialog
        open={recharging}
        walletId={walletId}
        walletName={walletId && wallet ? walletLabel(t, wallet) : undefined}
        onClose={() => setRecharging(false)}
      />
    </div>
  );
}
