import { formatFen, MOVEMENT_CODES, type Movement, type MovementFilter } from '@marquee/protocol';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { tagColumn, timeColumn } from '../../components/columns';
import { ExportButton } from '../../components/ExportDialog';
import { ListPage, useListPage } from '../../components/listPage';
import { yuanBound } from '../../components/money';
import { counterpartyLabel, movementLook, SignedFen } from './look';

/**
 * The Movements tab: the selected wallet's ledger, newest first, like a bank statement (each
 * line's change, the balance after it, the change of the frozen amount), every line naming
 * its cause and linking to it. Filters: time range, kind, amount bounds typed in yuan (sent as
 * fen) and direction, all in the URL; an Excel export of the same filters.
 */
export function MovementsTab() {
  const { t, i18n } = useTranslation('finance');
  const language = i18n.language;
  const list = useListPage({
    id: 'financeMovements',
    endpoint: 'financeMovements',
    scope: ['wallet'],
    filters: [
      { key: 'range', kind: 'range', from: 'from', to: 'to', time: true, label: t('filter.time') },
      {
        key: 'code',
        kind: 'select',
        label: t('filter.kind'),
        placeholder: t('filter.all'),
        width: 140,
        options: MOVEMENT_CODES.map((c) => ({ value: c, label: t(`movement.${c}`) })),
      },
      {
        key: 'amount',
        kind: 'numberRange',
        from: 'minAmount',
        to: 'maxAmount',
        label: t('filter.amount'),
        placeholders: [t('filter.amountMin'), t('filter.amountMax')],
        width: 110,
      },
      {
        key: 'direction',
        kind: 'select',
        label: t('filter.direction'),
        placeholder: t('filter.all'),
        width: 120,
        options: [
          { value: 'in', label: t('direction.in') },
          { value: 'out', label: t('direction.out') },
        ],
      },
    ],
    // The amount bounds are typed in yuan and sent as fen; the wallet is the page's (?wallet=).
    request: ({ wallet, minAmount, maxAmount, ...filters }, page) => {
      const min = yuanBound(minAmount);
      const max = yuanBound(maxAmount);
      return {
        page: page.page,
        size: page.size,
        ...(filters as Omit<MovementFilter, 'minAmount' | 'maxAmount' | 'walletId'>),
        ...(wallet ? { walletId: String(wallet) } : {}),
        ...(min === undefined ? {} : { minAmount: min }),
        ...(max === undefined ? {} : { maxAmount: max }),
      };
    },
    columns: [
      timeColumn<Movement>('at', t('col.time')),
      tagColumn<Movement>('code', t('col.kind'), movementLook(t), { width: 110 }),
      {
        prop: 'cause',
        label: t('col.cause'),
        width: 200,
        ellipsis: true,
        slot: (cause: Movement['cause']) =>
          cause.route ? (
            <Link to={cause.route} data-testid="finance-movements-cause">
              {cause.label || cause.id}
            </Link>
          ) : (
            <span title={cause.id}>{cause.label || cause.id || '-'}</span>
          ),
      },
      {
        prop: 'counterparty',
        label: t('col.counterparty'),
        width: 180,
        ellipsis: true,
        slot: (v: string) => counterpartyLabel(t, v),
      },
      {
        prop: 'in',
        label: t('col.in'),
        width: 130,
        align: 'right',
        slot: (_: unknown, row) => (row.amount > 0 ? <SignedFen fen={row.amount} language={language} /> : '-'),
      },
      {
        prop: 'out',
        label: t('col.out'),
        width: 130,
        align: 'right',
        slot: (_: unknown, row) => (row.amount < 0 ? <SignedFen fen={row.amount} language={language} /> : '-'),
      },
      {
        prop: 'balance',
        label: t('col.balance'),
        width: 140,
        align: 'right',
        slot: (v: number) => formatFen(v, language),
      },
      {
        prop: 'frozenChange',
        label: t('col.frozenChange'),
        width: 130,
        align: 'right',
        slot: (v: number) => (v === 0 ? '-' : formatFen(v, language, { signed: true })),
      },
      { prop: 'note', label: t('col.note'), ellipsis: true },
    ],
  });
  const capped = Boolean(list.query.data?.capped);

  return (
    <ListPage
      list={list}
      bare
      testPrefix="finance-movements"
      rowKey="seq"
      toolbar={
        <ExportButton
          ns="finance"
          testId="finance-export"
          calls={{
            start: 'financeMovementExportStart',
            status: 'financeMovementExportStatus',
            download: 'financeMovementExportDownload',
          }}
          request={list.request}
        />
      }
      rowTestId={() => 'finance-movements-row'}
      empty={list.filtered ? t('movements.emptyFiltered') : t('movements.empty')}
      failed={{ description: t('loadFailed'), retryLabel: t('action.retry') }}
      showTotal={(total) =>
        capped ? t('movements.totalCapped', { count: total }) : t('movements.total', { count: total })
      }
    />
  );
}
