import { describe, expect, it } from 'vitest';
import {
  type AdFacts,
  type AdStatus,
  adBodySchema,
  adStatus,
  issueMessage,
  monitorUrlValid,
  planBodySchema,
} from '../src/index.js';

const NOW = Date.parse('2026-06-15T12:00:00Z');
const BEFORE = '2026-06-01T00:00:00Z';
const AFTER = '2026-07-01T00:00:00Z';
const LATER = '2026-08-01T00:00:00Z';
const EARLIER = '2026-05-01T00:00:00Z';

const base: AdFacts = {
  reviewState: 'passed',
  paused: false,
  deleted: false,
  startAt: BEFORE,
  endAt: AFTER,
  downloaded: true,
};

describe('adStatus (spec section 4)', () => {
  // [what, facts, expected]
  const table: [string, Partial<AdFacts>, AdStatus][] = [
    ['passed, period begun, downloaded: playing', {}, 'playing'],
    ['passed, period begun, not downloaded: pending play', { downloaded: false }, 'pendingPlay'],
    ['passed, period not begun: pending play', { startAt: AFTER, endAt: LATER }, 'pendingPlay'],
    [
      'passed, not begun, not downloaded: pending play',
      { startAt: AFTER, endAt: LATER, downloaded: false },
      'pendingPlay',
    ],
    ['passed and paused: pausing', { paused: true }, 'paused'],
    ['paused before its period: pausing', { paused: true, startAt: AFTER, endAt: LATER }, 'paused'],
    ['pending first audit', { reviewState: 'pending' }, 'pendingAudit'],
    ['pending second audit shows as pending audit', { reviewState: 'pendingSecond' }, 'pendingAudit'],
    ['pending audit and paused: still pending audit', { reviewState: 'pending', paused: true }, 'pendingAudit'],
    ['audit failed', { reviewState: 'failed' }, 'auditFailed'],
    ['audit failed and paused', { reviewState: 'failed', paused: true }, 'auditFailed'],
    ['period over: expired', { startAt: EARLIER, endAt: BEFORE }, 'expired'],
    ['period over, paused: expired', { startAt: EARLIER, endAt: BEFORE, paused: true }, 'expired'],
    ['period over, never reviewed: expired', { startAt: EARLIER, endAt: BEFORE, reviewState: 'pending' }, 'expired'],
    ['period over, failed: expired', { startAt: EARLIER, endAt: BEFORE, reviewState: 'failed' }, 'expired'],
    ['deleted wins over everything', { deleted: true }, 'deleted'],
    ['deleted and expired', { deleted: true, startAt: EARLIER, endAt: BEFORE }, 'deleted'],
    ['deleted pending audit', { deleted: true, reviewState: 'pending' }, 'deleted'],
    ['starts exactly now: begun', { startAt: NOW }, 'playing'],
    ['ends exactly now: expired', { endAt: NOW, startAt: EARLIER }, 'expired'],
  ];
  it.each(table)('%s', (_what, facts, want) => {
    expect(adStatus({ ...base, ...facts }, NOW)).toBe(want);
    expect(adStatus({ ...base, ...facts }, new Date(NOW))).toBe(want);
  });
});

describe('monitorUrlValid (spec section 8 monitoring address)', () => {
  it.each([
    ['https://monitor.example.com/imp?id=1&t=__TS__', true],
    ['http://10.0.0.1:8080/p', true],
    ['https://a.b', true],
    [`https://example.com/${'x'.repeat(480)}`, true],
    [`https://example.com/${'x'.repeat(481)}`, false],
    ['ftp://example.com/p', false],
    ['javascript:alert(1)', false],
    ['https://', false],
    ['https://exa mple.com', false],
    ['https://user@example.com/', false],
    ['example.com/p', false],
    ['', false],
  ])('%s: %s', (url, valid) => {
    expect(monitorUrlValid(url)).toBe(valid);
  });
});

describe('the ad body schema (spec section 5)', () => {
  const body = {
    name: 'Spring',
    type: 'common',
    startAt: '2026-06-01T00:00:00+08:00',
    endAt: '2026-06-30T00:00:00+08:00',
    playsMin: 1,
    playsMax: 99999,
    materialIds: ['m1'],
  };
  const key = (value: unknown) => {
    const parsed = adBodySchema.safeParse(value);
    return parsed.success ? null : issueMessage(parsed.error.issues[0]).key;
  };

  it('takes a valid ad', () => {
    expect(key(body)).toBeNull();
    expect(key({ ...body, materialIds: [], layoutId: 'l1' })).toBeNull();
  });
  it('play counts are 1 to 99999, min not above max', () => {
    expect(key({ ...body, playsMin: 0 })).toBe('playCount');
    expect(key({ ...body, playsMax: 100000 })).toBe('playCount');
    expect(key({ ...body, playsMin: 1.5 })).toBe('playCount');
    expect(key({ ...body, playsMin: 10, playsMax: 5 })).toBe('playCountOrder');
  });
  it('materials or a layout, not both, not neither', () => {
    expect(key({ ...body, materialIds: [] })).toBe('adContent');
    expect(key({ ...body, layoutId: 'l1' })).toBe('adContent');
  });
  it('the period ends after it starts, within years PostgreSQL stores', () => {
    expect(key({ ...body, endAt: body.startAt })).toBe('periodEndBeforeStart');
    expect(key({ ...body, startAt: '0000-01-01T00:00:00Z' })).toBe('dateTimeFormat');
  });
  it('time periods of the day follow the time rules', () => {
    expect(key({ ...body, periods: [{ start: '08:00', end: '08:00' }] })).toBe('sameStartEnd');
    expect(key({ ...body, periods: [{ start: '10:00', end: '09:00' }] })).toBe('endBeforeStart');
    expect(
      key({
        ...body,
        periods: [
          { start: '08:00', end: '12:00' },
          { start: '11:00', end: '13:00' },
        ],
      }),
    ).toBe('periodsOverlap');
    expect(
      key({
        ...body,
        periods: [
          { start: '08:00', end: '12:00' },
          { start: '12:00', end: '13:00' },
        ],
      }),
    ).toBeNull();
  });
});

describe('the plan body schema', () => {
  it('a budget of at least 0 with at most 2 decimals; end not before start', () => {
    expect(planBodySchema.safeParse({ name: 'P', budget: 10.25 }).success).toBe(true);
    expect(planBodySchema.safeParse({ name: 'P', budget: -1 }).success).toBe(false);
    expect(planBodySchema.safeParse({ name: 'P', budget: 1.234 }).success).toBe(false);
    expect(planBodySchema.safeParse({ name: 'P', startDate: '2026-02-01', endDate: '2026-01-31' }).success).toBe(false);
    expect(planBodySchema.safeParse({ name: 'P', startDate: '0000-01-01' }).success).toBe(false);
  });
});
