/** The probe job (material.uploadVerify sends it): payload `{ materialId }`. */
export const PROBE_JOB = 'material-probe';
/** The prune of expired upload slots, every 10 minutes. */
export const UPLOAD_PRUNE_JOB = 'material-upload-prune';
export const UPLOAD_PRUNE_CRON = '*/10 * * * *';
/** A 2 G video's probe reads the file once and seeks for a frame: generous. */
export const PROBE_EXPIRE_SECONDS = 30 * 60;
