/**
 * The RTB module's jobs (issue 29), registered in jobs/index.ts: `rtb-decide` (decide.ts) and
 * `rtb-bill` (billing.ts), both every minute, both taking the time as their input.
 */
export const RTB_DECIDE_JOB = 'rtb-decide';
export const RTB_BILL_JOB = 'rtb-bill';
export const RTB_JOBS_CRON = '* * * * *';
