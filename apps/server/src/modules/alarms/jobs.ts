/** The alarms module's job (issue 30), registered in jobs/index.ts: notifications a stopped server never sent (notify.ts). */
export const ALARM_NOTIFY_JOB = 'alarms-notify';
export const ALARM_NOTIFY_CRON = '* * * * *';
