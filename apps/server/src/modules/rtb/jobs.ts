/**
 * The RTB module's jobs (issue 29), registered in jobs/index.ts: `rtb-decide` (decide.ts) and
 * `rtb-bill` (billing.ts) and `rtb-creatives` (creatives.ts), every minute, both taking the time as their input.
 */
export const RTB_DECIDE_JOB = 'rtb-decide';
export const RTB_BILL_JOB = 'rtb-bill';
/** DSPs' new creatives fetched into the library and given their ad for review (creatives.ts). */
export const RTB_CREATIVES_JOB = 'rtb-creatives';
export const RTB_JOBS_CRON = '* * * * *';
