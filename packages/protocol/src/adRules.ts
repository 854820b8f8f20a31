/**
 * The rules of ads and promotion plans (issue 13; spec sections 3, 4, 5, 6, 9), shared by the
 * server and the console: the ad types, the play-count and material limits, the monitoring-URL
 * rule and the one function that derives an ad's status from its facts.
 */

/** Spec section 3: the five ad types. */
export const AD_TYPES = ['common', 'emergency', 'interstitial', 'fallback', 'opening'] as const;
export type AdType = (typeof AD_TYPES)[number];

/** Spec section 4, in the order the console lists them. */
export const AD_STATUSES = [
  'pendingAudit',
  'auditFailed',
  'playing',
  'pendingPlay',
  'paused',
  'expired',
  'deleted',
] as const;
export type AdStatus = (typeof AD_STATUSES)[number];

/**
 * Where an ad's review stands: `pending` (first audit), `pendingSecond` (passed the first audit
 * of an enterprise that requires a second one), `passed`, `failed`. Each edit of a decided ad
 * opens a new review round at `pending`.
 */
export const AD_REVIEW_STATES = ['pending', 'pendingSecond', 'passed', 'failed'] as const;
export type AdReviewState = (typeof AD_REVIEW_STATES)[number];

/** Plays per day, or plays per loop of the target's playlist. */
export const AD_PLAY_STRATEGIES = ['perDay', 'perLoop'] as const;
export type AdPlayStrategy = (typeof AD_PLAY_STRATEGIES)[number];

/** Spec section 5: at most 20 materials per release. */
export const AD_MAX_MATERIALS = 20;
/** Spec section 5: play count min and max 1 to 99999. */
export const AD_PLAY_COUNT_MIN = 1;
export const AD_PLAY_COUNT_MAX = 99999;
/** An ad's name: 1 to 50 characters. */
export const AD_NAME_MAX = 50;
/** The third-party monitoring URL: http(s), at most this many characters. */
export const AD_MONITOR_URL_MAX = 500;
export const AD_LINK_MAX = 500;
/** Time periods of the day an ad plays in (none: all day). */
export const AD_MAX_PERIODS = 24;
/** Ids of one kind of target. */
export const AD_MAX_TARGETS = 500;
export const PLAN_NAME_MAX = 50;
/** Spec section 5 'invalid amount': a budget of at most 2 decimals, below 1e12. */
export const PLAN_BUDGET_MAX = 999_999_999_999.99;
/** Spec section 9: ads expiring in under 7 days are flagged. */
export const AD_EXPIRING_DAYS = 7;
/** Spec section 9: an ad's review takes 1 to 3 days (shown to advertisers). */
export const AD_REVIEW_DAYS = { min: 1, max: 3 } as const;

/**
 * Spec section 8 'monitoring address does not meet requirements': a third-party monitoring
 * address is an absolute http(s) URL with a host, at most AD_MONITOR_URL_MAX characters.
 */
export function monitorUrlValid(value: string): boolean {
  if (value.length === 0 || value.length > AD_MONITOR_URL_MAX) return false;
  const match = /^(https?):\/\/([^/?#\s@]+)([/?#]\S*)?$/i.exec(value);
  if (!match || [...value].some((c) => c.charCodeAt(0) <= 32 || c.charCodeAt(0) === 127)) return false;
  const host = match[2].replace(/:\d{1,5}$/, '');
  return /^(\[[0-9a-f:.]+\]|[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*)$/i.test(host);
}

/** What an ad's status follows from. */
export interface AdFacts {
  reviewState: AdReviewState;
  paused: boolean;
  deleted: boolean;
  /** The period, as instants (ISO 8601 or ms). */
  startAt: string | number | Date;
  endAt: string | number | Date;
  /** At least one target reported the ad's content downloaded (the player slice sets it). */
  downloaded: boolean;
}

const ms = (value: string | number | Date) => (value instanceof Date ? value.getTime() : new Date(value).getTime());

/**
 * The status of spec section 4 from an ad's facts at `now`, first rule that applies:
 * deleted; expired (the period is over: it can never play, whatever its review); audit not
 * passed; pending audit (first or second audit); paused; playing (the period has begun and
 * the download succeeded); else pending play (not begun, or not downloaded).
 */
export function adStatus(facts: AdFacts, now: number | Date): AdStatus {
  const t = typeof now === 'number' ? now : now.getTime();
  if (facts.deleted) return 'deleted';
  if (t >= ms(facts.endAt)) return 'expired';
  if (facts.reviewState === 'failed') return 'auditFailed';
  if (facts.reviewState !== 'passed') return 'pendingAudit';
  if (facts.paused) return 'paused';
  if (t >= ms(facts.startAt) && facts.downloaded) return 'playing';
  return 'pendingPlay';
}
