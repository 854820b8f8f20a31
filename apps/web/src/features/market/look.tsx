import {
  formatFen,
  formatTime,
  type ItemState,
  type LicenceState,
  type MarketKind,
  type MarketOrderSource,
  type ProductState,
  type RenewalFailure,
} from '@marquee/protocol';
import { Space, Tag, Typography } from 'antd';
import type { TFunction } from 'i18next';
import type { TagLook } from '../../components/columns';
import { daysLeft, expiringSoon, type OrderShownState } from './marketLogic';

/**
 * How the market names and colours things: kinds, product, order, item and renewal states,
 * licences, a term ('3 months'), an expiry with its warning, an expiry before -> after.
 */

const tx = (t: TFunction, key: string, options: Record<string, unknown> = {}) => t(key, { ns: 'market', ...options });

export const kindText = (t: TFunction, kind: MarketKind | string) => tx(t, `kind.${kind}`);

export const kindLook =
  (t: TFunction) =>
  (kind: string): TagLook => ({
    color: ({ devicePoints: 'blue', storagePack: 'purple', dataCard: 'cyan' } as Record<MarketKind, string>)[
      kind as MarketKind
    ],
    text: kindText(t, kind),
  });

export const productStateLook =
  (t: TFunction) =>
  (state: string): TagLook => ({
    color: ({ onSale: 'success', offShelf: 'default' } as Record<ProductState, string>)[state as ProductState],
    text: tx(t, `productState.${state}`),
  });

export const orderStateLook =
  (t: TFunction) =>
  (state: string): TagLook => ({
    color: (
      { unpaid: 'warning', review: 'processing', paid: 'success', cancelled: 'default' } as Record<
        OrderShownState,
        string
      >
    )[state as OrderShownState],
    text: tx(t, `orderState.${state}`),
  });

export const sourceLook =
  (t: TFunction) =>
  (source: string): TagLook => ({
    color: ({ purchase: 'blue', renewal: 'geekblue' } as Record<MarketOrderSource, string>)[
      source as MarketOrderSource
    ],
    text: tx(t, `source.${source}`),
  });

export const itemStateLook =
  (t: TFunction) =>
  (state: string): TagLook => ({
    color: ({ active: 'success', expired: 'error' } as Record<ItemState, string>)[state as ItemState],
    text: tx(t, `itemState.${state}`),
  });

export const licenceLook =
  (t: TFunction) =>
  (licence: string): TagLook => ({
    color: ({ trial: 'gold', licensed: 'success', expired: 'error' } as Record<LicenceState, string>)[
      licence as LicenceState
    ],
    text: tx(t, `licence.${licence}`),
  });

export const outcomeLook =
  (t: TFunction) =>
  (outcome: string): TagLook => ({
    color: outcome === 'succeeded' ? 'success' : 'error',
    text: tx(t, `outcome.${outcome}`),
  });

export const failureText = (t: TFunction, reason: RenewalFailure | string | null) =>
  reason ? tx(t, `failure.${reason}`) : '-';

/** A term: '1 month', '12 months'. */
export const termText = (t: TFunction, months: number) => tx(t, 'term.months', { count: months });

/** An expiry as a day, '-' without one. */
export const day = (value: string | null | undefined) => formatTime(value ?? null, 'YYYY-MM-DD');

/** An expiry with 'expires in N days' under EXPIRING_DEVICE_DAYS, 'expired' once past. */
export function ExpiryText({
  t,
  expiry,
  now,
  testId,
}: {
  t: TFunction;
  expiry: string | null;
  now: number;
  testId?: string;
}) {
  if (!expiry) return <span>-</span>;
  const days = daysLeft(expiry, now);
  return (
    <Space size={4} wrap data-testid={testId}>
      <span>{day(expiry)}</span>
      {days !== null && days <= 0 ? (
        <Typography.Text type="danger">{tx(t, 'expiry.expired')}</Typography.Text>
      ) : expiringSoon(expiry, now) ? (
        <Typography.Text type="warning">{tx(t, 'expiry.inDays', { count: days ?? 0 })}</Typography.Text>
      ) : null}
    </Space>
  );
}

/** An expiry before and after an order: '2026-12-01 → 2027-01-01' ('none' before a first one). */
export function ExpiryChange({ t, before, after }: { t: TFunction; before: string | null; after: string | null }) {
  return (
    <span className="mq-market-change">
      <Typography.Text type="secondary">{before ? day(before) : tx(t, 'expiry.none')}</Typography.Text>
      {' → '}
      <Typography.Text strong>{after ? day(after) : '-'}</Typography.Text>
    </span>
  );
}

/** A tag of a look (a cell outside a tag column). */
export function LookTag({ look }: { look: TagLook }) {
  return <Tag color={look.color}>{look.text}</Tag>;
}

export const money = (fen: number, language: string) => formatFen(fen, language);
