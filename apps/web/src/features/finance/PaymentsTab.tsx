import {
  type Endpoints,
  formatFen,
  PAY_METHODS,
  PAY_PURPOSES,
  PAY_STATES,
  type PayOrder,
  type PayPurpose,
  type Req,
} from '@marquee/protocol';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { tagColumn, timeColumn } from '../../components/columns';
import { ListPage, useListPage } from '../../components/listPage';
import { useSession } from '../../session/session';
import { methodText, payStateLook, purposeText } from './look';

/** The page that pays (or shows) an order. */
export const payRoute = (id: string) => `/pay?id=${encodeURIComponent(id)}`;

/**
 * The Payments tab: recharges and bills of the wallets the caller sees (the selected one when
 * a wallet is chosen), with their states; each order links to its payment page, an unpaid one
 * of the caller's enterprise has a Pay action (another's, View). Filters: purpose, state, method, keyword (number or title), time range.
 * With `purpose` the list is of that purpose only (the operator's Bills tab).
 */
export function PaymentsTab({
  purpose,
  showOwner,
  toolbar,
  testPrefix = 'finance-payments',
}: {
  purpose?: PayPurpose;
  /** Show whose wallet each order is (the caller sees several). */
  showOwner: boolean;
  toolbar?: ReactNode;
  testPrefix?: string;
}) {
  const { t, i18n } = useTranslation('finance');
  const language = i18n.language;
  const navigate = useNavigate();
  const entId = useSession((st) => st.entId);
  // Pay what the caller's enterprise owes; another enterprise's order (the operator's view) is only viewed.
  const payable = (row: PayOrder) => row.state === 'unpaid' && row.entId === entId;
  const list = useListPage({
    id: purpose ? `financePayments-${purpose}` : 'financePayments',
    endpoint: 'paymentList',
    scope: ['wallet'],
    filters: [
      {
        key: 'keyword',
        label: t('filter.keyword'),
        placeholder: t('filter.orderKeyword'),
        maxLength: 64,
      },
      {
        key: 'purpose',
        kind: 'select',
        label: t('filter.purpose'),
        placeholder: t('filter.all'),
        width: 130,
        hidden: Boolean(purpose),
        options: PAY_PURPOSES.map((p) => ({ value: p, label: purposeText(t, p) })),
      },
      {
        key: 'state',
        kind: 'select',
        label: t('filter.state'),
        placeholder: t('filter.all'),
        width: 130,
        options: PAY_STATES.map((s) => ({ value: s, label: t(`payState.${s}`) })),
      },
      {
        key: 'method',
        kind: 'select',
        label: t('filter.method'),
        placeholder: t('filter.all'),
        width: 130,
        options: PAY_METHODS.map((m) => ({ value: m, label: methodText(t, m) })),
      },
      { key: 'range', kind: 'range', from: 'from', to: 'to', time: true, label: t('filter.createdAt') },
    ],
    request: ({ wallet, ...filters }, page) =>
      ({
        page: page.page,
        size: page.size,
        ...filters,
        ...(purpose ? { purpose } : {}),
        ...(wallet ? { walletId: String(wallet) } : {}),
      }) as Req<Endpoints['paymentList']>,
    columns: [
      {
        prop: 'no',
        label: t('col.orderNo'),
        width: 190,
        slot: (v: string, row) => (
          <Link to={payRoute(row.id)} data-testid="finance-payments-link">
            {v}
          </Link>
        ),
      },
      { prop: 'title', label: t('col.title'), width: 200, ellipsis: true },
      {
        prop: 'purpose',
        label: t('col.purpose'),
        width: 100,
        show: !purpose,
        slot: (v: string) => purposeText(t, v),
      },
      {
        prop: 'amount',
        label: t('col.amount'),
        width: 140,
        align: 'right',
        slot: (v: number) => formatFen(v, language),
      },
      tagColumn<PayOrder>('state', t('col.state'), payStateLook(t), { width: 110 }),
      { prop: 'method', label: t('col.method'), width: 110, slot: (v: string | null) => methodText(t, v) },
      { prop: 'walletName', label: t('col.wallet'), width: 180, ellipsis: true, show: showOwner },
      { prop: 'entName', label: t('col.enterprise'), width: 180, ellipsis: true, show: showOwner },
      timeColumn<PayOrder>('createdAt', t('col.createdAt')),
      timeColumn<PayOrder>('paidAt', t('col.paidAt')),
      { prop: 'createdBy', label: t('col.createdBy'), width: 130, ellipsis: true, show: false },
    ],
    operations: [
      {
        key: 'pay',
        label: t('payments.pay'),
        isShow: payable,
        handler: (row) => navigate(payRoute(row.id)),
        notForMonitor: true,
        testId: () => 'finance-payments-pay',
      },
      {
        key: 'view',
        label: t('payments.view'),
        isShow: (row) => !payable(row),
        handler: (row) => navigate(payRoute(row.id)),
        testId: () => 'finance-payments-view',
      },
    ],
  });

  return (
    <ListPage
      list={list}
      bare
      testPrefix={testPrefix}
      toolbar={toolbar}
      rowTestId={() => `${testPrefix}-row`}
      empty={list.filtered ? t('payments.emptyFiltered') : t('payments.empty')}
      failed={{ description: t('loadFailed'), retryLabel: t('action.retry') }}
      showTotal={(total) => t('payments.total', { count: total })}
    />
  );
}
