import { describe, expect, it } from 'vitest';
import { formatSize, formatTime, TIME_FORMAT, toChineseAmount, toDate } from '../src/format';

describe('formatTime (spec section 9: 10-digit timestamps are seconds, YYYY-MM-DD HH:mm:ss)', () => {
  const local = new Date(2024, 0, 2, 3, 4, 5);
  it('uses the default format with seconds', () => {
    expect(TIME_FORMAT).toBe('YYYY-MM-DD HH:mm:ss');
    expect(formatTime(local)).toBe('2024-01-02 03:04:05');
    expect(formatTime(local, 'YYYY-MM-DD')).toBe('2024-01-02');
    expect(formatTime(local, 'HH:mm')).toBe('03:04');
  });
  it('reads 10-digit timestamps as seconds and 13-digit ones as milliseconds', () => {
    const seconds = Math.floor(local.getTime() / 1000);
    expect(formatTime(seconds)).toBe('2024-01-02 03:04:05');
    expect(formatTime(String(seconds))).toBe('2024-01-02 03:04:05');
    expect(formatTime(local.getTime())).toBe('2024-01-02 03:04:05');
    expect(formatTime(String(local.getTime()))).toBe('2024-01-02 03:04:05');
    expect(toDate(1_700_000_000)?.getTime()).toBe(1_700_000_000_000);
  });
  it('reads ISO strings and shows - for empty or unreadable values', () => {
    expect(formatTime(local.toISOString())).toBe('2024-01-02 03:04:05');
    for (const v of [null, undefined, '', 'not a time', Number.NaN, new Date('x')]) expect(formatTime(v)).toBe('-');
  });
});

describe('formatSize (spec section 9: Bytes/KB/MB/GB/TB)', () => {
  it('picks the largest unit of at least 1', () => {
    expect(formatSize(0)).toBe('0 Bytes');
    expect(formatSize(1023)).toBe('1023 Bytes');
    expect(formatSize(1024)).toBe('1 KB');
    expect(formatSize(1536)).toBe('1.5 KB');
    expect(formatSize(10 * 1024 ** 2)).toBe('10 MB');
    expect(formatSize(200 * 1024 ** 3)).toBe('200 GB');
    expect(formatSize(1.234 * 1024 ** 4)).toBe('1.23 TB');
    expect(formatSize(5 * 1024 ** 5)).toBe('5120 TB');
  });
  it('handles negatives, decimals and missing values', () => {
    expect(formatSize(-2048)).toBe('-2 KB');
    expect(formatSize(1587, 1)).toBe('1.5 KB');
    expect(formatSize(null)).toBe('-');
    expect(formatSize(Number.POSITIVE_INFINITY)).toBe('-');
  });
});

describe('toChineseAmount (spec section 9: amounts below 1e15 in capital numerals)', () => {
  it.each([
    [0, '零元整'],
    [1, '壹元整'],
    [10, '壹拾元整'],
    [100, '壹佰元整'],
    [1234.56, '壹仟贰佰叁拾肆元伍角陆分'],
    [0.05, '伍分'],
    [0.5, '伍角'],
    [0.55, '伍角伍分'],
    [1.05, '壹元零伍分'],
    [1.5, '壹元伍角'],
    [1001, '壹仟零壹元整'],
    [1010, '壹仟零壹拾元整'],
    [10001, '壹万零壹元整'],
    [100010, '壹拾万零壹拾元整'],
    [10010000, '壹仟零壹万元整'],
    [100000000, '壹亿元整'],
    [100000001, '壹亿零壹元整'],
    [101000000, '壹亿零壹佰万元整'],
    [110000000, '壹亿壹仟万元整'],
    [1_0000_0000_0000, '壹万亿元整'],
    [1_2345_0000_0000, '壹万贰仟叁佰肆拾伍亿元整'],
    [100000, '壹拾万元整'],
    [-1, '负壹元整'],
    [-0.05, '负伍分'],
    [1.005, '壹元零壹分'],
    [0.004, '零元整'],
  ])('%s -> %s', (amount, words) => {
    expect(toChineseAmount(amount)).toBe(words);
  });

  it('writes 1e15 - 0.01 from a decimal string (a number cannot hold that fen)', () => {
    expect(toChineseAmount('999999999999999.99')).toBe(
      '玖佰玖拾玖万玖仟玖佰玖拾玖亿玖仟玖佰玖拾玖万玖仟玖佰玖拾玖元玖角玖分',
    );
    expect(toChineseAmount('-999999999999999.99').startsWith('负玖佰')).toBe(true);
    expect(toChineseAmount('100000000000000')).toBe('壹佰万亿元整');
    expect(toChineseAmount('2.345')).toBe('贰元叁角伍分');
    expect(1e15 - 0.01).toBe(1e15);
  });

  it('refuses amounts at or above 1e15 and values that are not amounts', () => {
    expect(() => toChineseAmount(1e15)).toThrow(RangeError);
    expect(() => toChineseAmount(-1e15)).toThrow(RangeError);
    expect(() => toChineseAmount('1000000000000000')).toThrow(RangeError);
    expect(() => toChineseAmount('999999999999999.995')).toThrow(RangeError);
    expect(() => toChineseAmount(Number.NaN)).toThrow(RangeError);
    expect(() => toChineseAmount('12a')).toThrow(RangeError);
  });
});
