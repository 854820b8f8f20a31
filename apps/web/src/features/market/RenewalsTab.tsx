import { type Endpoints, formatFen, RENEWAL_OUTCOMES, type Renewal, type Req } from '@marquee/protocol';
import { Button } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { tagColumn, timeColumn } from '../../components/columns';
import { ListPage, useListPage } from '../../components/listPage';
import { ExpiryChange, failureText, kindLook, outcomeLook } from './look';

/**
 * The Renewals tab (market.renewalList): every renewal attempt, newest first: when, what,
 * the outcome and why it failed, the amount, the order it made (opens it in the Orders tab),
 * when the new term takes effect and the expiry before -> after. Filters outcome and time range.
 */
export function RenewalsTab() {
  const { t, i18n } = useTranslation('market');
  const language = i18n.language;
  const [, setParams] = useSearchParams();
  const list = useListPage({
    id: 'marketRenewals',
    endpoint: 'marketRenewalList',
    filters: [
      {
        key: 'outcome',
        kind: 'select',
        label: t('filter.outcome'),
        placeholder: t('filter.all'),
        width: 120,
        options: RENEWAL_OUTCOMES.map((o) => ({ value: o, label: t(`outcome.${o}`) })),
      },
      { key: 'range', kind: 'range', from: 'from', to: 'to', time: true, label: t('filter.time') },
    ],
    request: (filters, page) =>
      ({ page: page.page, size: page.size, ...filters }) as Req<Endpoints['marketRenewalList']>,
    columns: [
      timeColumn<Renewal>('at', t('renewal.at')),
      { prop: 'subjectName', label: t('renewal.subject'), width: 190, ellipsis: true },
      tagColumn<Renewal>('kind', t('renewal.kind'), kindLook(t), { width: 120 }),
      tagColumn<Renewal>('outcome', t('renewal.outcome'), outcomeLook(t), { width: 90 }),
      {
        prop: 'reason',
        label: t('renewal.reason'),
        width: 200,
        ellipsis: true,
        slot: (v: Renewal['reason']) => failureText(t, v),
      },
      {
        prop: 'amount',
        label: t('renewal.amount'),
        width: 120,
        align: 'right',
        slot: (v: number) => formatFen(v, language),
      },
      {
        prop: 'orderNo',
        label: t('renewal.order'),
        width: 190,
        slot: (v: string | null, row) =>
          v && row.orderId ? (
            <Button
              type="link"
              size="small"
              className="mq-market-link"
              onClick={() => setParams({ tab: 'orders', id: row.orderId ?? '' })}
              data-testid="market-renewal-order"
            >
              {v}
            </Button>
          ) : (
            '-'
          ),
      },
      timeColumn<Renewal>('effectiveAt', t('renewal.effectiveAt')),
      {
        prop: 'expiresAfter',
        label: t('renewal.expiry'),
        width: 220,
        slot: (_: unknown, row) => <ExpiryChange t={t} before={row.expiresBefore} after={row.expiresAfter} />,
      },
    ],
  });

  return (
    <ListPage
      list={list}
      bare
      testPrefix="market-renewals"
      rowTestId={(row) => `market-renewal-row-${row.id}`}
      empty={list.filtered ? t('renewal.emptyFiltered') : t('renewal.empty')}
      failed={{ description: t('loadFailed'), retryLabel: t('action.retry') }}
      showTotal={(total) => t('renewal.total', { count: total })}
    />
  );
}
