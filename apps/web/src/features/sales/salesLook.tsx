import type {
  ContractState,
  CouponState,
  GoodsState,
  SalesMethod,
  SalesOrderState,
  SettlementState,
  SyncState,
} from '@marquee/protocol';
import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { i18n } from '../../i18n';

/**
 * The sales pages' shared looks (issue 28): a tag per state of each state machine and per
 * sales method, the hours of a day as ranges, a discount as people say it in each language.
 */

const ORDER_COLOR: Record<SalesOrderState, string> = {
  unpaid: 'warning',
  toUpload: 'processing',
  paid: 'blue',
  inProgress: 'success',
  settled: 'default',
  cancelled: 'default',
};
const SETTLEMENT_COLOR: Record<SettlementState, string> = { toBePaid: 'warning', paid: 'blue', completed: 'success' };
const GOODS_COLOR: Record<GoodsState, string> = {
  onSale: 'success',
  soldOut: 'error',
  expired: 'default',
  offShelf: 'default',
};
const COUPON_COLOR: Record<CouponState, string> = {
  available: 'success',
  notStarted: 'blue',
  exhausted: 'warning',
  expired: 'default',
  disabled: 'default',
};
const CONTRACT_COLOR: Record<ContractState, string> = { signing: 'processing', signed: 'success' };
const SYNC_COLOR: Record<SyncState, string> = {
  unsynchronized: 'default',
  synchronizing: 'processing',
  synchronized: 'success',
  failed: 'error',
};

function StateTag({ kind, state, color }: { kind: string; state: string; color: string }) {
  const { t } = useTranslation('sales');
  return (
    <Tag color={color} data-testid={`sales-${kind}-state-${state}`}>
      {t(`state.${kind}.${state}`)}
    </Tag>
  );
}

export function OrderStateTag({ state }: { state: SalesOrderState }) {
  return <StateTag kind="order" state={state} color={ORDER_COLOR[state] ?? 'default'} />;
}
export function SettlementStateTag({ state }: { state: SettlementState }) {
  return <StateTag kind="settlement" state={state} color={SETTLEMENT_COLOR[state] ?? 'default'} />;
}
export function GoodsStateTag({ state }: { state: GoodsState }) {
  return <StateTag kind="goods" state={state} color={GOODS_COLOR[state] ?? 'default'} />;
}
export function CouponStateTag({ state }: { state: CouponState }) {
  return <StateTag kind="coupon" state={state} color={COUPON_COLOR[state] ?? 'default'} />;
}
export function ContractStateTag({ state }: { state: ContractState }) {
  return <StateTag kind="contract" state={state} color={CONTRACT_COLOR[state] ?? 'default'} />;
}
export function SyncStateTag({ state }: { state: SyncState }) {
  return <StateTag kind="sync" state={state} color={SYNC_COLOR[state] ?? 'default'} />;
}

export function SalesMethodTag({ method }: { method: SalesMethod }) {
  const { t } = useTranslation('sales');
  return (
    <Tag color={method === 'cpt' ? 'geekblue' : 'purple'} title={t(`method.${method}Hint`)}>
      {t(`method.${method}`)}
    </Tag>
  );
}

const hh = (h: number) => `${String(h).padStart(2, '0')}:00`;

/** Hours of the day as ranges ('08:00–12:00, 18:00–22:00'); none or all 24: 'all day' in the current language. */
export function formatHours(hours: readonly number[]): string {
  const sorted = [...new Set(hours)].filter((h) => h >= 0 && h <= 23).sort((a, b) => a - b);
  if (sorted.length === 0 || sorted.length === 24) return i18n.t('common.allDay', { ns: 'sales' });
  const out: string[] = [];
  let i = 0;
  while (i < sorted.length) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] === sorted[j] + 1) j++;
    out.push(`${hh(sorted[i])}–${hh(sorted[j] + 1)}`);
    i = j + 1;
  }
  return out.join(', ');
}

/**
 * A discount of the spec (0..1, 0.85 = pay 85%) as people say it: '8.5折' in Chinese,
 * '15% off' in English, '15%オフ' in Japanese; 1 is no discount.
 */
export function discountText(discount: number, language: string = i18n.language): string {
  const pct = Math.round(discount * 100);
  if (pct >= 100) return i18n.t('common.noDiscount', { ns: 'sales', lng: language });
  if (language.startsWith('zh')) {
    const zhe = pct % 10 === 0 ? String(pct / 10) : (pct / 10).toFixed(1);
    return `${zhe}折`;
  }
  return i18n.t('common.percentOff', { ns: 'sales', lng: language, pct: 100 - pct });
}
