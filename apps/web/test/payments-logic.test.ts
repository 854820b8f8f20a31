import { VOUCHER_MAX_BYTES } from '@marquee/protocol';
import { describe, expect, it } from 'vitest';
import {
  amountInWords,
  formatCountdown,
  isFinal,
  offlinePath,
  payPath,
  secondsLeft,
  voucherIdsOf,
  voucherProblem,
  vouchersCountOk,
} from '../src/features/payments/payLogic';

describe('payment countdown', () => {
  const now = Date.parse('2026-11-28T10:00:00.000Z');
  it('counts whole seconds to the expiry, never below 0', () => {
    expect(secondsLeft('2026-11-28T10:30:00.000Z', now)).toBe(1800);
    expect(secondsLeft('2026-11-28T10:00:01.999Z', now)).toBe(1);
    expect(secondsLeft('2026-11-28T09:59:00.000Z', now)).toBe(0);
    expect(secondsLeft('2026-11-28T18:30:00+08:00', now)).toBe(1800);
  });
  it('has none without an expiry or with a bad one', () => {
    expect(secondsLeft(null, now)).toBeNull();
    expect(secondsLeft(undefined, now)).toBeNull();
    expect(secondsLeft('not a time', now)).toBeNull();
  });
  it('shows mm:ss, and h:mm:ss from an hour up', () => {
    expect(formatCountdown(0)).toBe('00:00');
    expect(formatCountdown(65)).toBe('01:05');
    expect(formatCountdown(1800)).toBe('30:00');
    expect(formatCountdown(3599)).toBe('59:59');
    expect(formatCountdown(3723)).toBe('1:02:03');
    expect(formatCountdown(-5)).toBe('00:00');
  });
});

describe('amount in words', () => {
  it('writes capital numerals in zh-CN only', () => {
    expect(amountInWords(200_000_000, 'zh-CN')).toBe('贰佰万元整');
    expect(amountInWords(123_405, 'zh-CN')).toBe('壹仟贰佰叁拾肆元零伍分');
    expect(amountInWords(15_000, 'zh-CN')).toBe('壹佰伍拾元整');
    expect(amountInWords(5, 'zh-CN')).toBe('伍分');
    expect(amountInWords(15_000, 'en-US')).toBeNull();
    expect(amountInWords(15_000, 'ja')).toBeNull();
  });
});

describe('voucher files', () => {
  it('takes PNG, JPEG and PDF up to 10 MB', () => {
    expect(voucherProblem({ type: 'image/png', size: 1000 })).toBeNull();
    expect(voucherProblem({ type: 'image/jpeg', size: VOUCHER_MAX_BYTES })).toBeNull();
    expect(voucherProblem({ type: 'application/pdf', size: 1 })).toBeNull();
  });
  it('refuses other types, empty files and files over 10 MB', () => {
    expect(voucherProblem({ type: 'image/gif', size: 10 })).toBe('type');
    expect(voucherProblem({ type: '', size: 10 })).toBe('type');
    expect(voucherProblem({ type: 'image/png', size: 0 })).toBe('empty');
    expect(voucherProblem({ type: 'application/pdf', size: VOUCHER_MAX_BYTES + 1 })).toBe('size');
  });
  it('submits the ids of uploaded vouchers only when every one is done', () => {
    const done = (id: string) => ({ status: 'done' as const, response: { voucherId: id } });
    expect(voucherIdsOf([done('v1'), done('v2')])).toEqual({ ids: ['v1', 'v2'] });
    expect(voucherIdsOf([])).toEqual({ error: 'required' });
    expect(voucherIdsOf(undefined)).toEqual({ error: 'required' });
    expect(voucherIdsOf([done('v1'), { status: 'uploading' }])).toEqual({ error: 'uploading' });
    expect(voucherIdsOf([done('v1'), { status: 'error' }])).toEqual({ error: 'failedInList' });
    expect(voucherIdsOf([{ status: 'done' }])).toEqual({ error: 'failedInList' });
    expect(voucherIdsOf(Array.from({ length: 6 }, (_, i) => done(`v${i}`)))).toEqual({ error: 'tooMany' });
  });
  it('needs 1 to 5 of them', () => {
    expect(vouchersCountOk(0)).toBe(false);
    expect(vouchersCountOk(1)).toBe(true);
    expect(vouchersCountOk(5)).toBe(true);
    expect(vouchersCountOk(6)).toBe(false);
  });
});

describe('order states and addresses', () => {
  it('stops at paid and closed', () => {
    expect(isFinal('paid')).toBe(true);
    expect(isFinal('closed')).toBe(true);
    expect(isFinal('unpaid')).toBe(false);
    expect(isFinal('review')).toBe(false);
  });
  it('links the order pages', () => {
    expect(payPath('po 1')).toBe('/pay?id=po%201');
    expect(offlinePath('po-1')).toBe('/payUnderline?id=po-1');
  });
});
