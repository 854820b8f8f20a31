import {
  formatFen,
  type InvoiceState,
  type MovementCode,
  type PayMethod,
  type PayPurpose,
  type PayState,
  type Wallet,
} from '@marquee/protocol';
import { Typography } from 'antd';
import type { TFunction } from 'i18next';
import type { TagLook } from '../../components/columns';

/**
 * How the finance centre names and colours things: a wallet (a platform account's key is
 * translated), an amount in or out, the states of payments and invoices.
 */

/** A wallet's name for a person: a platform account translated, an advertiser's with its enterprise. */
export function walletLabel(t: TFunction, wallet: Pick<Wallet, 'kind' | 'name' | 'platformAccount' | 'entName'>) {
  if (wallet.kind === 'platform')
    return t(`platformAccount.${wallet.platformAccount ?? wallet.name}`, { ns: 'finance' });
  if (wallet.kind === 'advertiser' && wallet.entName && wallet.entName !== wallet.name)
    return `${wallet.name} (${wallet.entName})`;
  return wallet.name;
}

/** A counterparty: a platform account's key translated, an owner's name as it is. */
export function counterpartyLabel(t: TFunction, counterparty: string): string {
  const key = counterparty.startsWith('platform:') ? counterparty.slice('platform:'.length) : counterparty;
  const words = t(`platformAccount.${key}`, { ns: 'finance', defaultValue: '' });
  return words || counterparty;
}

/** A signed amount: money in green with '+', money out red with '-', nothing moved '-'. */
export function SignedFen({ fen, language, testId }: { fen: number; language: string; testId?: string }) {
  if (fen === 0) return <span data-testid={testId}>-</span>;
  return (
    <Typography.Text type={fen > 0 ? 'success' : 'danger'} data-testid={testId} className="mq-finance-fen">
      {formatFen(fen, language, { signed: true })}
    </Typography.Text>
  );
}

export const movementLook =
  (t: TFunction) =>
  (code: string): TagLook => ({
    color: (
      {
        recharge: 'green',
        payment: 'blue',
        refund: 'cyan',
        hold: 'orange',
        release: 'gold',
        correction: 'purple',
      } as Record<MovementCode, string>
    )[code as MovementCode],
    text: t(`movement.${code}`, { ns: 'finance' }),
  });

export const payStateLook =
  (t: TFunction) =>
  (state: string): TagLook => ({
    color: (
      { unpaid: 'warning', review: 'processing', paid: 'success', closed: 'default' } as Record<PayState, string>
    )[state as PayState],
    text: t(`payState.${state}`, { ns: 'finance' }),
  });

export const invoiceStateLook =
  (t: TFunction) =>
  (state: string): TagLook => ({
    color: ({ requested: 'processing', issued: 'success', refused: 'error' } as Record<InvoiceState, string>)[
      state as InvoiceState
    ],
    text: t(`invoiceState.${state}`, { ns: 'finance' }),
  });

export const purposeText = (t: TFunction, purpose: PayPurpose | string) => t(`purpose.${purpose}`, { ns: 'finance' });
export const methodText = (t: TFunction, method: PayMethod | string | null) =>
  method ? t(`method.${method}`, { ns: 'finance' }) : '-';
