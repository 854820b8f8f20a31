import type { PlatformAccount } from '@marquee/protocol';
import type { Executor } from '../../db/client.js';
import type { PayOrderRow } from '../../db/schema/index.js';

/**
 * The registry of what a payment order can pay for (issue 26). Payments knows 'recharge'
 * (the money stays in the wallet) and 'bill' (the platform's charge); the market, ad orders
 * and renewals register their purposes from their own modules (wired in app.ts), so a
 * lower module never imports a higher one.
 */
export interface Payable {
  purpose: string;
  /** The wallet's balance may pay it (never a recharge). */
  byBalance: boolean;
  /**
   * Where the money goes once paid: a platform account, or the account id a function gives
   * (an ad order pays the enterprise that sells the airtime). Null: it stays in the wallet (a recharge).
   */
  payee: PlatformAccount | ((order: PayOrderRow) => string) | null;
  /** Runs in the transaction that marks the order paid, before its money goes to the payee (a refusal rolls it back). */
  onPaid?: (db: Executor, order: PayOrderRow, now: Date) => Promise<void>;
  /** Runs in the transaction that closes an unpaid order (the payer gave up, it expired). */
  onClosed?: (db: Executor, order: PayOrderRow, now: Date) => Promise<void>;
  /** The console route that shows the order's cause ('/shop/order?id=...'), for the ledger's links. */
  route?: (order: PayOrderRow) => string | null;
}

const payables = new Map<string, Payable>();

export function registerPayable(payable: Payable): void {
  const known = payables.get(payable.purpose);
  if (known && known !== payable) throw new Error(`payable ${payable.purpose} is registered twice`);
  payables.set(payable.purpose, payable);
}

export function payableOf(purpose: string): Payable {
  const p = payables.get(purpose);
  if (!p) throw new Error(`no payable is registered for purpose ${purpose}`);
  return p;
}

registerPayable({ purpose: 'recharge', byBalance: false, payee: null });
registerPayable({ purpose: 'bill', byBalance: true, payee: 'revenue' });
