import { z } from 'zod';
import { pruneSessions } from '../auth/sessions.js';
import { pruneThrottle } from '../auth/throttle.js';
import { ALARM_NOTIFY_CRON, ALARM_NOTIFY_JOB } from '../modules/alarms/jobs.js';
import { sweepAlarmNotifications } from '../modules/alarms/notify.js';
import { ensurePartitions, partitionDays } from '../modules/content/plays.js';
import {
  dropExpiredPlays,
  PLAYS_RETENTION_CRON,
  PLAYS_RETENTION_JOB,
  pruneManifestDownloads,
} from '../modules/content/retention.js';
import {
  REZONE_CRON,
  REZONE_JOB,
  ROLLUP_CRON,
  ROLLUP_JOB,
  rezoneRollups,
  runPlayRollups,
} from '../modules/content/rollups.js';
import { markMissedOffline } from '../modules/devices/repository.js';
import { PRUNE_SAMPLES_CRON, PRUNE_SAMPLES_JOB, pruneSamples } from '../modules/flow/usage.js';
import {
  EXPIRE_ITEMS_CRON,
  EXPIRE_ITEMS_JOB,
  expireItems,
  RENEWAL_CRON,
  RENEWAL_JOB,
  runRenewals,
} from '../modules/market/renewal.js';
import { PROBE_EXPIRE_SECONDS, PROBE_JOB, UPLOAD_PRUNE_CRON, UPLOAD_PRUNE_JOB } from '../modules/materials/jobs.js';
import { probeMaterial } from '../modules/materials/probe.js';
import { pruneUploads } from '../modules/materials/upload.js';
import { MONITOR_OVERDUE_CRON, MONITOR_OVERDUE_JOB } from '../modules/monitoring/jobs.js';
import { markOverdue } from '../modules/monitoring/service.js';
import { pruneStates } from '../modules/oauth/repository.js';
import {
  EXPORT_EXPIRE_SECONDS,
  EXPORT_JOB,
  EXPORT_RETRY_LIMIT,
  pruneExports,
  runExport,
} from '../modules/operationLog/exportJob.js';
import { QUERY_OPEN_CRON, QUERY_OPEN_JOB, queryOpenAttempts } from '../modules/payments/attempts.js';
import {
  CLOSE_EXPIRED_JOB,
  closeExpiredOrders,
  EXPIRE_HOLDS_JOB,
  expireHolds,
  PAYMENT_JOBS_CRON,
} from '../modules/payments/closing.js';
import {
  DELIVERY_RECONCILE_CRON,
  DELIVERY_RECONCILE_JOB,
  pruneDeliveryDays,
  reconcileDeliveryDays,
} from '../modules/reports/deliveryDays.js';
import { billTurns } from '../modules/rtb/billing.js';
import { fetchCreatives } from '../modules/rtb/creatives.js';
import { decideAll } from '../modules/rtb/decide.js';
import { RTB_BILL_JOB, RTB_CREATIVES_JOB, RTB_DECIDE_JOB, RTB_JOBS_CRON } from '../modules/rtb/jobs.js';
import { CONTRACT_SYNC_CRON, CONTRACT_SYNC_JOB, runContractSync } from '../modules/sales/contractJobs.js';
import {
  advanceOrders,
  expireOrderHolds,
  HOLD_EXPIRY_JOB,
  ORDERS_ADVANCE_JOB,
  SALES_ORDER_JOBS_CRON,
} from '../modules/sales/orderJobs.js';
import {
  completeSettlements,
  SETTLEMENTS_COMPLETE_CRON,
  SETTLEMENTS_COMPLETE_JOB,
} from '../modules/sales/settlementJobs.js';
import {
  runScreenshotCleanup,
  runTimedScreenshots,
  SCREENSHOT_CLEANUP_CRON,
  SCREENSHOT_CLEANUP_JOB,
  TIMED_SCREENSHOT_CRON,
  TIMED_SCREENSHOT_JOB,
} from '../modules/screenshots/jobs.js';
import {
  failUnansweredUpgrades,
  UPGRADE_UNANSWERED_CRON,
  UPGRADE_UNANSWERED_JOB,
} from '../modules/upgrades/service.js';
import { pruneCodes } from '../modules/verification/repository.js';
import { evaluateWarnings, WARNINGS_EVALUATE_CRON, WARNINGS_EVALUATE_JOB } from '../modules/warnings/evaluate.js';
import { pruneIdempotentCalls } from '../protocol/idempotency.js';
import { pruneReplayKeys } from '../protocol/replayGuard.js';
import { defineJob, type JobDefinition } from './define.js';

const none = z.object({}).strict();

/**
 * Every background job of the server, in one place. A job is one definition (./define.ts);
 * the queue (./queue.ts) creates its queue on start and, on instances with JOBS=on, works it
 * and sends it on its schedule (once across all instances). Nothing periodic runs on a bare
 * timer in a request-serving module.
 */
export const JOBS: readonly JobDefinition[] = [
  defineJob({
    id: EXPORT_JOB,
    payload: z.object({ exportId: z.string().min(1).max(64) }),
    expireInSeconds: EXPORT_EXPIRE_SECONDS,
    retryLimit: EXPORT_RETRY_LIMIT,
    handler: ({ exportId }, ctx) => runExport(ctx.services, exportId, ctx.log, ctx.retryCount >= ctx.retryLimit),
  }),
  defineJob({
    id: 'prune-replay-keys',
    payload: none,
    schedule: '* * * * *',
    handler: async (_, ctx) => {
      const deleted = await pruneReplayKeys(ctx.services.db, ctx.services.clock());
      ctx.log.debug({ deleted }, 'replay keys pruned');
    },
  }),
  defineJob({
    // Stored answers of mutations whose replay window has passed (docs/protocol.md "Retries").
    id: 'prune-idempotent-calls',
    payload: none,
    schedule: '* * * * *',
    handler: async (_, ctx) => {
      const deleted = await pruneIdempotentCalls(ctx.services.db, ctx.services.clock());
      ctx.log.debug({ deleted }, 'stored answers pruned');
    },
  }),
  defineJob({
    id: 'prune-throttle',
    payload: none,
    schedule: '*/10 * * * *',
    handler: async (_, ctx) => {
      const deleted = await pruneThrottle(ctx.services.db, ctx.services.clock());
      ctx.log.debug({ deleted }, 'throttle events pruned');
    },
  }),
  defineJob({
    id: 'prune-verification',
    payload: none,
    schedule: '7 * * * *',
    handler: async (_, ctx) => {
      const deleted = await pruneCodes(ctx.services.db, new Date(ctx.services.clock()));
      ctx.log.debug(deleted, 'verification codes and outbox pruned');
    },
  }),
  defineJob({
    id: 'prune-oauth-states',
    payload: none,
    schedule: '17 * * * *',
    handler: async (_, ctx) => {
      const deleted = await pruneStates(ctx.services.db, new Date(ctx.services.clock()));
      ctx.log.debug({ deleted }, 'scan-login states pruned');
    },
  }),
  defineJob({
    id: 'prune-sessions',
    payload: none,
    schedule: '27 3 * * *',
    handler: async (_, ctx) => {
      const deleted = await pruneSessions(ctx.services.db, new Date(ctx.services.clock()));
      ctx.log.debug({ deleted }, 'old sessions pruned');
    },
  }),
  defineJob({
    // Devices online that missed MISSED_HEARTBEATS_OFFLINE heartbeats are written offline.
    id: 'device-offline',
    payload: none,
    schedule: '* * * * *',
    expireInSeconds: 120,
    handler: async (_, ctx) => {
      const marked = await markMissedOffline(ctx.services.db, new Date(ctx.services.clock()));
      if (marked > 0) ctx.log.info({ marked }, 'devices marked offline after missed heartbeats');
    },
  }),
  defineJob({
    id: 'prune-exports',
    payload: none,
    schedule: '37 * * * *',
    handler: (_, ctx) => pruneExports(ctx.services, ctx.log),
  }),
  defineJob({
    id: TIMED_SCREENSHOT_JOB,
    payload: none,
    schedule: TIMED_SCREENSHOT_CRON,
    handler: async (_, ctx) => void (await runTimedScreenshots(ctx.services, ctx.log)),
  }),
  defineJob({
    id: SCREENSHOT_CLEANUP_JOB,
    payload: none,
    schedule: SCREENSHOT_CLEANUP_CRON,
    handler: async (_, ctx) => void (await runScreenshotCleanup(ctx.services, ctx.log)),
  }),
  defineJob({
    id: PROBE_JOB,
    payload: z.object({ materialId: z.string().min(1).max(64) }),
    expireInSeconds: PROBE_EXPIRE_SECONDS,
    handler: async ({ materialId }, ctx) => void (await probeMaterial(ctx.services, materialId, ctx.log)),
  }),
  defineJob({
    id: UPLOAD_PRUNE_JOB,
    payload: none,
    schedule: UPLOAD_PRUNE_CRON,
    handler: async (_, ctx) => {
      const pruned = await pruneUploads(ctx.services, ctx.log);
      if (pruned > 0) ctx.log.info({ pruned }, 'expired material uploads pruned');
    },
  }),
  defineJob({
    // Proof of play (branch player): the day partitions of `plays`, a week ahead (an upload
    // creates an older day's on demand).
    id: 'plays-partitions',
    payload: none,
    schedule: '17 * * * *',
    handler: async (_, ctx) => {
      const created = await ensurePartitions(ctx.services.db, partitionDays(ctx.services.clock(), 1, 7));
      if (created > 0) ctx.log.info({ created }, 'plays partitions ensured');
    },
  }),
  defineJob({
    // Proof of play: the day partitions older than PLAYS_RETENTION_DAYS, once rolled up
    // (the rollups are kept), and the manifest download times as old.
    id: PLAYS_RETENTION_JOB,
    payload: none,
    schedule: PLAYS_RETENTION_CRON,
    expireInSeconds: 600,
    handler: async (_, ctx) => {
      const days = ctx.services.config.playsRetentionDays;
      const now = ctx.services.clock();
      const { dropped, pending } = await dropExpiredPlays(ctx.services.db, now, days);
      const manifests = await pruneManifestDownloads(ctx.services.db, now, days);
      if (dropped.length > 0 || pending.length > 0 || manifests > 0) {
        ctx.log.info({ dropped, pending, manifests, retentionDays: days }, 'plays retention applied');
      }
    },
  }),
  defineJob({
    // Proof of play (issue 13): new plays fold into the hourly and daily rollups the reports read.
    id: ROLLUP_JOB,
    payload: none,
    schedule: ROLLUP_CRON,
    expireInSeconds: 300,
    handler: async (_, ctx) => {
      const { recomputed } = await runPlayRollups(ctx.services.db);
      if (recomputed > 0) ctx.log.debug({ recomputed }, 'plays rolled up');
    },
  }),
  defineJob({
    // Time zones (issue 31): an enterprise whose zone changed has its rollups rebuilt in the new
    // zone's days (one enterprise after another, each in one transaction).
    id: REZONE_JOB,
    payload: none,
    schedule: REZONE_CRON,
    expireInSeconds: 1800,
    handler: async (_, ctx) => {
      for (
        let rebuilt = await rezoneRollups(ctx.services.db);
        rebuilt;
        rebuilt = await rezoneRollups(ctx.services.db)
      ) {
        ctx.log.info(rebuilt, 'play rollups rebuilt in the enterprise time zone');
      }
    },
  }),
  defineJob({
    // IoT cards (issue 27): usage samples older than any start still accepted (their ids count once).
    id: PRUNE_SAMPLES_JOB,
    payload: none,
    schedule: PRUNE_SAMPLES_CRON,
    handler: async (_, ctx) => {
      const deleted = await pruneSamples(ctx.services.db, ctx.services.clock());
      if (deleted > 0) ctx.log.info({ deleted }, 'usage samples pruned');
    },
  }),
  defineJob({
    // The market (issue 27, spec section 9): the day's auto-renewals, at 00:10 UTC+8.
    id: RENEWAL_JOB,
    payload: none,
    schedule: RENEWAL_CRON,
    expireInSeconds: 1800,
    handler: async (_, ctx) => {
      const run = await runRenewals(ctx.services.db, new Date(ctx.services.clock()), { concurrency: 4 });
      ctx.log.info(run, 'market renewals');
    },
  }),
  defineJob({
    // The market (issue 27): items past expiry expire (packs give their bytes back, cards lapse).
    id: EXPIRE_ITEMS_JOB,
    payload: none,
    schedule: EXPIRE_ITEMS_CRON,
    expireInSeconds: 600,
    handler: async (_, ctx) => {
      const expired = await expireItems(ctx.services.db, new Date(ctx.services.clock()));
      if (expired > 0) ctx.log.info({ expired }, 'market items expired');
    },
  }),
  defineJob({
    // Money (issue 26): unpaid payment orders whose time ran out are closed (a provider
    // payment made after it still lands in the wallet: payments/settle.ts).
    id: CLOSE_EXPIRED_JOB,
    payload: none,
    schedule: PAYMENT_JOBS_CRON,
    expireInSeconds: 120,
    handler: async (_, ctx) => {
      const closed = await closeExpiredOrders(ctx.services.db, new Date(ctx.services.clock()));
      if (closed > 0) ctx.log.info({ closed }, 'expired payment orders closed');
    },
  }),
  defineJob({
    // Selling airtime (issue 28): e-signature contracts sent to the provider, polled, failed ones retried with backoff.
    id: CONTRACT_SYNC_JOB,
    payload: none,
    schedule: CONTRACT_SYNC_CRON,
    expireInSeconds: 600,
    handler: async (_, ctx) => {
      const counts = await runContractSync(ctx.services, new Date(ctx.services.clock()));
      if (counts.sent + counts.synchronized + counts.failed > 0) ctx.log.info(counts, 'sales contracts synced');
    },
  }),
  defineJob({
    // Selling airtime (issue 28): unpaid orders past their hold are cancelled, their rotations and coupon use released.
    id: HOLD_EXPIRY_JOB,
    payload: none,
    schedule: SALES_ORDER_JOBS_CRON,
    expireInSeconds: 120,
    handler: async (_, ctx) => {
      const expired = await expireOrderHolds(ctx.services.db, new Date(ctx.services.clock()));
      if (expired > 0) ctx.log.info({ expired }, 'sales order holds expired');
    },
  }),
  defineJob({
    // Selling airtime (issue 28): paid orders with approved ads start on their first day; ended ones get their settlement.
    id: ORDERS_ADVANCE_JOB,
    payload: none,
    schedule: SALES_ORDER_JOBS_CRON,
    expireInSeconds: 300,
    handler: async (_, ctx) => {
      const run = await advanceOrders(ctx.services.db, new Date(ctx.services.clock()));
      if (run.started > 0 || run.settled > 0) ctx.log.info(run, 'sales orders advanced');
    },
  }),
  defineJob({
    // Selling airtime (issue 28): paid settlements whose make-good plays are over complete; their orders are settled.
    id: SETTLEMENTS_COMPLETE_JOB,
    payload: none,
    schedule: SETTLEMENTS_COMPLETE_CRON,
    expireInSeconds: 600,
    handler: async (_, ctx) => {
      const completed = await completeSettlements(ctx.services.db, new Date(ctx.services.clock()));
      if (completed > 0) ctx.log.info({ completed }, 'sales settlements completed');
    },
  }),
  defineJob({
    // Programmatic airtime (issue 29): the RTB slots' turns of the next minutes on online screens are auctioned.
    id: RTB_DECIDE_JOB,
    payload: none,
    schedule: RTB_JOBS_CRON,
    expireInSeconds: 120,
    handler: async (_, ctx) => {
      const run = await decideAll(ctx.services.db, new Date(ctx.services.clock()));
      if (run.turns > 0) ctx.log.info(run, 'rtb turns decided');
    },
  }),
  defineJob({
    // Programmatic airtime (issue 29): won turns proven by plays are billed, unproven ones lapse, campaigns past their period end.
    id: RTB_BILL_JOB,
    payload: none,
    schedule: RTB_JOBS_CRON,
    expireInSeconds: 300,
    handler: async (_, ctx) => {
      const run = await billTurns(ctx.services.db, new Date(ctx.services.clock()));
      if (run.billed + run.unproven + run.ended + run.pruned > 0) ctx.log.info(run, 'rtb turns billed');
    },
  }),
  defineJob({
    // The reconciliation of proof of play per screen (issue 30): yesterday's expected and reported
    // plays per screen into delivery_days, which the under-delivering warning reads.
    id: DELIVERY_RECONCILE_JOB,
    payload: none,
    schedule: DELIVERY_RECONCILE_CRON,
    expireInSeconds: 1800,
    handler: async (_, ctx) => {
      const now = new Date(ctx.services.clock());
      const written = await reconcileDeliveryDays(ctx.services.db, now);
      const pruned = await pruneDeliveryDays(ctx.services.db, now);
      ctx.log.info({ written, pruned }, 'proof of play reconciled per screen');
    },
  }),
  defineJob({
    // One-key alarms (issue 30): events whose contacts' notifications a stopped server never sent.
    id: ALARM_NOTIFY_JOB,
    payload: none,
    schedule: ALARM_NOTIFY_CRON,
    expireInSeconds: 300,
    handler: async (_, ctx) => {
      const swept = await sweepAlarmNotifications(ctx.services, ctx.log);
      if (swept > 0) ctx.log.warn({ swept }, 'alarm notifications sent late by the sweep');
    },
  }),
  defineJob({
    // Third-party monitoring (issue 30): open monitoring tasks past the end of their plan's last day become overdue.
    id: MONITOR_OVERDUE_JOB,
    payload: none,
    schedule: MONITOR_OVERDUE_CRON,
    expireInSeconds: 120,
    handler: async (_, ctx) => {
      const marked = await markOverdue(ctx.services.db, new Date(ctx.services.clock()));
      if (marked > 0) ctx.log.info({ marked }, 'monitoring tasks overdue');
    },
  }),
  defineJob({
    // Programmatic airtime (issue 29): creatives DSPs bid with for the first time are fetched and sent to review.
    id: RTB_CREATIVES_JOB,
    payload: none,
    schedule: RTB_JOBS_CRON,
    expireInSeconds: 600,
    handler: async (_, ctx) => {
      const run = await fetchCreatives(ctx.services, new Date(ctx.services.clock()));
      if (run.fetched + run.failed > 0) ctx.log.info(run, 'rtb creatives fetched');
    },
  }),
  defineJob({
    // Money (issue 26): the ledger's holds whose timeout passed are voided (the frozen amount is available again).
    id: EXPIRE_HOLDS_JOB,
    payload: none,
    schedule: PAYMENT_JOBS_CRON,
    expireInSeconds: 120,
    handler: async (_, ctx) => {
      const expired = await expireHolds(ctx.services.db, new Date(ctx.services.clock()));
      if (expired > 0) ctx.log.info({ expired }, 'ledger holds expired');
    },
  }),
  defineJob({
    // Money (issue 26): provider payments (WeChat Pay, Alipay) started more than a minute ago
    // and not settled are asked about: paid ones are settled (a lost notification), expired
    // ones, or those of orders closed or paid another way, are closed at the provider.
    id: QUERY_OPEN_JOB,
    payload: none,
    schedule: QUERY_OPEN_CRON,
    expireInSeconds: 300,
    handler: async (_, ctx) => {
      const done = await queryOpenAttempts(ctx.services, ctx.log, new Date(ctx.services.clock()));
      if (done.asked > 0) ctx.log.info(done, 'open provider payments asked');
    },
  }),
  defineJob({
    // The warning centre (issue 30): every rule evaluated set-based, warnings opened and resolved, the chosen accounts notified.
    id: WARNINGS_EVALUATE_JOB,
    payload: none,
    schedule: WARNINGS_EVALUATE_CRON,
    expireInSeconds: 300,
    handler: async (_, ctx) => {
      const run = await evaluateWarnings(ctx.services, new Date(ctx.services.clock()), ctx.log);
      ctx.log.debug(run, 'warnings evaluated');
    },
  }),
  defineJob({
    // Firmware and APK upgrades (issue 31): rollout devices whose upgrade command expired
    // unanswered fail ('did not answer in time'), counting towards the threshold like a failed ack.
    id: UPGRADE_UNANSWERED_JOB,
    payload: none,
    schedule: UPGRADE_UNANSWERED_CRON,
    expireInSeconds: 300,
    handler: async (_, ctx) => {
      const run = await failUnansweredUpgrades(ctx.services.db, ctx.services.files, new Date(ctx.services.clock()));
      if (run.commandIds.length > 0) await ctx.services.devices.dispatch(run.commandIds);
      if (run.failed > 0) ctx.log.info({ failed: run.failed }, 'upgrade devices failed unanswered');
    },
  }),
];
