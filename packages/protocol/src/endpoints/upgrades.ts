import { z } from 'zod';
import { ErrorCode } from '../errors.js';
import { Perm } from '../permissions.js';
import { uploadSignatureSchema } from '../upload.js';
import { listPageSize } from '../validation.js';
import { endpoint } from './common.js';
import { deviceTargetsSchema } from './deviceGroups.js';

/**
 * Firmware and APK upgrades (issue 31, /device/remote "Upgrades" tab, modules/upgrades):
 * packages uploaded through signed storage (the server computes size and SHA-256 on verify);
 * staged rollouts to chosen devices (a canary share, then the rest), each device's progress
 * from its acks of the `upgrade` command, an automatic halt past the failure threshold, and
 * rollback to the previous package or an earlier one the operator picks. Packages and rollouts
 * are the enterprise's (audience tenant); a rollout's devices are chosen (ids, groups, tags) and
 * listed within the caller's device data scope.
 */

export const UPGRADE_KINDS = ['apk', 'firmware'] as const;
export type UpgradeKind = (typeof UPGRADE_KINDS)[number];
export const UPGRADE_PACKAGE_STATES = ['uploading', 'ready'] as const;
export type UpgradePackageState = (typeof UPGRADE_PACKAGE_STATES)[number];
export const UPGRADE_ROLLOUT_STATES = ['canary', 'waiting', 'rolling', 'done', 'halted', 'rolledBack'] as const;
export type UpgradeRolloutState = (typeof UPGRADE_ROLLOUT_STATES)[number];
export const UPGRADE_DEVICE_STATES = ['queued', 'sent', 'downloading', 'installing', 'done', 'failed'] as const;
export type UpgradeDeviceState = (typeof UPGRADE_DEVICE_STATES)[number];
/**
 * The devices of a rollout a rollback sends a package to: those it upgraded (`done`), those
 * that failed, or both (every device that finished).
 */
export const UPGRADE_ROLLBACK_DEVICES = ['upgraded', 'failed', 'all'] as const;
export type UpgradeRollbackDevices = (typeof UPGRADE_ROLLBACK_DEVICES)[number];
/** The stages a device reports in its acks' `data.stage` (docs/device-protocol.md 3.8). */
export const UPGRADE_ACK_STAGES = ['downloading', 'installing', 'done'] as const;
/** Largest package accepted (2 GiB). */
export const UPGRADE_MAX_BYTES = 2 * 1024 * 1024 * 1024;
/** How long an upgrade command waits for its device (a day). */
export const UPGRADE_COMMAND_TTL_SEC = 86_400;

const id = z.string().min(1).max(64);
const percent = z.number().int().min(0).max(100);

export const upgradePackageSchema = z.object({
  id: z.string(),
  kind: z.enum(UPGRADE_KINDS),
  version: z.string(),
  deviceType: z.string(),
  fileName: z.string(),
  size: z.number(),
  sha256: z.string(),
  notes: z.string(),
  state: z.enum(UPGRADE_PACKAGE_STATES),
  createdAt: z.string(),
});
export type UpgradePackageRow = z.infer<typeof upgradePackageSchema>;

const counts = z.object({
  total: z.number(),
  queued: z.number(),
  sent: z.number(),
  downloading: z.number(),
  installing: z.number(),
  done: z.number(),
  failed: z.number(),
});
export type UpgradeCounts = z.infer<typeof counts>;

export const upgradeRolloutSchema = z.object({
  id: z.string(),
  packageId: z.string(),
  packageVersion: z.string(),
  kind: z.enum(UPGRADE_KINDS),
  rollbackOf: z.string().nullable(),
  canaryPercent: z.number(),
  failureThreshold: z.number(),
  autoContinue: z.boolean(),
  state: z.enum(UPGRADE_ROLLOUT_STATES),
  stage: z.number(),
  haltReason: z.string().nullable(),
  counts,
  createdAt: z.string(),
});
export type UpgradeRolloutRow = z.infer<typeof upgradeRolloutSchema>;

export const upgradeRolloutDeviceSchema = z.object({
  deviceId: z.string(),
  deviceName: z.string(),
  stage: z.number(),
  state: z.enum(UPGRADE_DEVICE_STATES),
  previousVersion: z.string().nullable(),
  reason: z.string().nullable(),
  updatedAt: z.string(),
});
export type UpgradeRolloutDeviceRow = z.infer<typeof upgradeRolloutDeviceSchema>;

const byId = z.object({ id }).strict();

export const upgradeEndpoints = {
  upgradePackageApply: endpoint({
    name: 'upgrade.packageApply',
    path: '/api/device/upgrade/package/apply.shtm',
    auth: 'session',
    permission: Perm.deviceRemote,
    mutation: true,
    notForMonitor: true,
    errors: [ErrorCode.FILE_TOO_LARGE],
    /** Stores the package (uploading) and signs the direct upload of its file; verify follows. */
    request: z
      .object({
        kind: z.enum(UPGRADE_KINDS),
        version: z.string().trim().min(1, 'validation.required').max(64),
        deviceType: z.string().trim().max(128).default(''),
        notes: z.string().trim().max(1000).default(''),
        fileName: z.string().trim().min(1).max(255),
        size: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER),
      })
      .strict(),
    response: uploadSignatureSchema.extend({ packageId: z.string() }),
  }),
  upgradePackageVerify: endpoint({
    name: 'upgrade.packageVerify',
    path: '/api/device/upgrade/package/verify.shtm',
    auth: 'session',
    permission: Perm.deviceRemote,
    mutation: true,
    notForMonitor: true,
    errors: [ErrorCode.NOT_FOUND, ErrorCode.UPGRADE_FILE_MISSING],
    /** After the upload: the server reads the file, computes its size and SHA-256, and marks it ready. */
    request: byId,
    response: upgradePackageSchema,
  }),
  upgradePackageList: endpoint({
    name: 'upgrade.packageList',
    path: '/api/device/upgrade/package/list.shtm',
    auth: 'session',
    permission: Perm.deviceRemote,
    notForMonitor: true,
    scope: { object: 'upgradePackage', kind: 'list', audience: 'tenant' },
    errors: [ErrorCode.NOT_FOUND],
    request: z
      .object({
        kind: z.enum(UPGRADE_KINDS).optional(),
        state: z.enum(UPGRADE_PACKAGE_STATES).optional(),
        /**
         * Only the packages a rollout of this package can roll back to: of its kind and device
         * type, uploaded before it (itself excluded). NOT_FOUND when it is not the enterprise's.
         */
        olderThan: id.optional(),
        page: z.number().int().min(1).default(1),
        size: listPageSize(),
      })
      .strict(),
    response: z.object({ total: z.number(), data: z.array(upgradePackageSchema) }),
  }),
  upgradePackageDelete: endpoint({
    name: 'upgrade.packageDelete',
    path: '/api/device/upgrade/package/delete.shtm',
    auth: 'session',
    permission: Perm.deviceRemote,
    mutation: true,
    notForMonitor: true,
    errors: [ErrorCode.NOT_FOUND, ErrorCode.UPGRADE_PACKAGE_IN_USE],
    request: byId,
    response: z.null(),
  }),
  upgradeRolloutCreate: endpoint({
    name: 'upgrade.rolloutCreate',
    path: '/api/device/upgrade/rollout/create.shtm',
    auth: 'session',
    permission: Perm.deviceRemote,
    mutation: true,
    notForMonitor: true,
    errors: [ErrorCode.NOT_FOUND, ErrorCode.UPGRADE_PACKAGE_NOT_READY],
    /**
     * The package to the devices named (ids, groups, tags, within the caller's data scope):
     * groups and tags expand at creation to the caller's visible devices in them, de-duplicated,
     * and the list is frozen in the rollout (NOT_FOUND when they hold none). The canary share
     * (at least one device) is sent at once; the rest after continue, or when the canary
     * finishes with autoContinue.
     */
    request: z.intersection(
      deviceTargetsSchema,
      z
        .object({
          packageId: id,
          canaryPercent: percent.min(1).default(10),
          failureThreshold: percent.default(20),
          autoContinue: z.boolean().default(false),
        })
        .strict(),
    ),
    response: z.object({ id: z.string() }),
  }),
  upgradeRolloutList: endpoint({
    name: 'upgrade.rolloutList',
    path: '/api/device/upgrade/rollout/list.shtm',
    auth: 'session',
    permission: Perm.deviceRemote,
    notForMonitor: true,
    scope: { object: 'upgradeRollout', kind: 'list', audience: 'tenant' },
    request: z
      .object({
        state: z.enum(UPGRADE_ROLLOUT_STATES).optional(),
        page: z.number().int().min(1).default(1),
        size: listPageSize(),
      })
      .strict(),
    response: z.object({ total: z.number(), data: z.array(upgradeRolloutSchema) }),
  }),
  upgradeRolloutInfo: endpoint({
    name: 'upgrade.rolloutInfo',
    path: '/api/device/upgrade/rollout/info.shtm',
    auth: 'session',
    permission: Perm.deviceRemote,
    notForMonitor: true,
    scope: { object: 'upgradeRollout', kind: 'detail', audience: 'tenant' },
    errors: [ErrorCode.NOT_FOUND],
    /** The rollout with its devices within the caller's data scope. */
    request: byId,
    response: z.object({ rollout: upgradeRolloutSchema, devices: z.array(upgradeRolloutDeviceSchema) }),
  }),
  upgradeRolloutHalt: endpoint({
    name: 'upgrade.rolloutHalt',
    path: '/api/device/upgrade/rollout/halt.shtm',
    auth: 'session',
    permission: Perm.deviceRemote,
    mutation: true,
    notForMonitor: true,
    errors: [ErrorCode.NOT_FOUND, ErrorCode.UPGRADE_ROLLOUT_STATE],
    request: byId,
    response: upgradeRolloutSchema,
  }),
  upgradeRolloutResume: endpoint({
    name: 'upgrade.rolloutResume',
    path: '/api/device/upgrade/rollout/resume.shtm',
    auth: 'session',
    permission: Perm.deviceRemote,
    mutation: true,
    notForMonitor: true,
    errors: [ErrorCode.NOT_FOUND, ErrorCode.UPGRADE_ROLLOUT_STATE],
    request: byId,
    response: upgradeRolloutSchema,
  }),
  upgradeRolloutContinue: endpoint({
    name: 'upgrade.rolloutContinue',
    path: '/api/device/upgrade/rollout/continue.shtm',
    auth: 'session',
    permission: Perm.deviceRemote,
    mutation: true,
    notForMonitor: true,
    errors: [ErrorCode.NOT_FOUND, ErrorCode.UPGRADE_ROLLOUT_STATE],
    /** Sends the package to the rest of the devices (after the canary). */
    request: byId,
    response: upgradeRolloutSchema,
  }),
  upgradeRolloutRollback: endpoint({
    name: 'upgrade.rolloutRollback',
    path: '/api/device/upgrade/rollout/rollback.shtm',
    auth: 'session',
    permission: Perm.deviceRemote,
    mutation: true,
    notForMonitor: true,
    errors: [
      ErrorCode.NOT_FOUND,
      ErrorCode.UPGRADE_ROLLOUT_STATE,
      ErrorCode.UPGRADE_NO_PREVIOUS,
      ErrorCode.UPGRADE_PACKAGE_NOT_READY,
      ErrorCode.UPGRADE_ROLLBACK_SAME_PACKAGE,
      ErrorCode.UPGRADE_ROLLBACK_PACKAGE_MISMATCH,
    ],
    /**
     * Sends a package to the rollout's finished devices (`devices`: those it upgraded, the
     * default; those that failed; or both), as new rollouts (no canary): the package named
     * (the enterprise's, ready, of the rollout's kind and device type, not its own), or per
     * device the ready package of the version it ran before.
     */
    request: z
      .object({ id, packageId: id.optional(), devices: z.enum(UPGRADE_ROLLBACK_DEVICES).default('upgraded') })
      .strict(),
    response: z.object({ rolloutIds: z.array(z.string()) }),
  }),
};
