import {
  fenToYuan,
  type OfflineState,
  type PayState,
  toChineseAmount,
  VOUCHER_MAX_BYTES,
  VOUCHER_TYPES,
  VOUCHERS_MAX,
} from '@marquee/protocol';
import type { UploadFile } from 'antd';

/**
 * The payment pages' pure parts: the expiry countdown, the amount in words, the checks of a
 * voucher file and of an amount typed in yuan, and the look of an order's and a transfer's state.
 */

/** Whole seconds left until `expiresAt` (never negative); null without an expiry. */
export function secondsLeft(expiresAt: string | null | undefined, now: number): number | null {
  if (!expiresAt) return null;
  const end = Date.parse(expiresAt);
  if (Number.isNaN(end)) return null;
  return Math.max(0, Math.floor((end - now) / 1000));
}

/** Seconds as a countdown: '29:05', or '1:02:03' from an hour up. */
export function formatCountdown(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  const hours = Math.floor(s / 3600);
  const minutes = Math.floor((s % 3600) / 60);
  const rest = s % 60;
  const mm = String(minutes).padStart(2, '0');
  const ss = String(rest).padStart(2, '0');
  return hours > 0 ? `${hours}:${mm}:${ss}` : `${mm}:${ss}`;
}

/** The amount in Chinese capital numerals (zh-CN only: a receipt's words); null in other languages. */
export function amountInWords(fen: number, locale: string): string | null {
  if (locale !== 'zh-CN') return null;
  try {
    return toChineseAmount(fenToYuan(fen));
  } catch {
    return null;
  }
}

/** Why a voucher file is refused ('type': not PNG, JPEG or PDF; 'size': over 10 MB; 'empty'), or null. */
export function voucherProblem(file: { type: string; size: number }): 'type' | 'size' | 'empty' | null {
  if (!(VOUCHER_TYPES as readonly string[]).includes(file.type)) return 'type';
  if (file.size <= 0) return 'empty';
  if (file.size > VOUCHER_MAX_BYTES) return 'size';
  return null;
}

/** A voucher in the offline form's list: uploaded to storage as soon as it is chosen; `response` holds its id. */
export type VoucherFile = UploadFile<{ voucherId: string }>;

/**
 * The voucher ids of the offline form's list, or why it cannot be submitted yet: 'required'
 * (none), 'tooMany', 'uploading' (one is still on its way) or 'failedInList' (one failed).
 */
export function voucherIdsOf(
  list: readonly Pick<VoucherFile, 'status' | 'response'>[] | undefined,
): { ids: string[] } | { error: 'required' | 'tooMany' | 'uploading' | 'failedInList' } {
  const files = list ?? [];
  if (files.length === 0) return { error: 'required' };
  if (files.length > VOUCHERS_MAX) return { error: 'tooMany' };
  if (files.some((f) => f.status === 'uploading')) return { error: 'uploading' };
  if (files.some((f) => f.status !== 'done' || !f.response?.voucherId)) return { error: 'failedInList' };
  return { ids: files.map((f) => f.response?.voucherId ?? '') };
}

/** Whether `count` vouchers can be submitted (1 to 5). */
export function vouchersCountOk(count: number): boolean {
  return count >= 1 && count <= VOUCHERS_MAX;
}

/** The tag colour of an order's state. */
export const PAY_STATE_COLORS: Readonly<Record<PayState, string>> = {
  unpaid: 'warning',
  review: 'processing',
  paid: 'success',
  closed: 'default',
};

/** The tag colour of an offline transfer's state. */
export const OFFLINE_STATE_COLORS: Readonly<Record<OfflineState, string>> = {
  submitted: 'processing',
  confirmed: 'success',
  rejected: 'error',
};

/** Whether an order's state is final (the page stops polling). */
export function isFinal(state: PayState): boolean {
  return state === 'paid' || state === 'closed';
}

/** The order page's address (the aggregate page) and its offline transfer page. */
export const payPath = (id: string) => `/pay?id=${encodeURIComponent(id)}`;
export const offlinePath = (id: string) => `/payUnderline?id=${encodeURIComponent(id)}`;
/** The finance centre, on its movements tab. */
export const FINANCE_MOVEMENTS = '/my/finance?tab=movements';
export const FINANCE_HOME = '/my/finance';
