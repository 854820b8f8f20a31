/** The monitoring module's job (issue 30), registered in jobs/index.ts: open tasks past their due time become overdue. */
export const MONITOR_OVERDUE_JOB = 'monitoring-overdue';
export const MONITOR_OVERDUE_CRON = '*/5 * * * *';
