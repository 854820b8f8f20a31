import { z } from 'zod';
import { applyStrategyParamsSchema } from '../strategyRules.js';
import { DOWNLOAD_STATES } from './http.js';

/**
 * The MQTT payloads of the device protocol, version 1: UTF-8 JSON, one object per message,
 * each carrying `v: 1`. Receivers ignore fields they do not know (forward compatibility);
 * a message failing its schema is dropped and logged, never answered.
 */

const v = z.literal(1);
/** Milliseconds since the epoch (the sender's clock). */
const ts = z.number().int().nonnegative();
const percent = z.number().int().min(0).max(100);

/** Player software the device runs, reported on connect and with each heartbeat. */
export const playerInfoSchema = z.object({
  /** Player application version (APK version on Android). */
  version: z.string().max(64),
  /** Firmware / OS version, when known. */
  firmware: z.string().max(64).optional(),
  /** Hardware model, when known. */
  model: z.string().max(128).optional(),
});

/**
 * `mq/v1/d/<id>/state`, retained, QoS 1. Published with `online: true` right after every
 * connect; the same topic carries the last will `online: false` that the broker publishes
 * when the connection is lost without a clean disconnect. A clean shutdown publishes
 * `online: false` itself before disconnecting.
 */
export const deviceStateSchema = z.object({
  v,
  online: z.boolean(),
  ts,
  /** Why the device went offline (last will: 'lost'; a clean shutdown: 'shutdown'). */
  reason: z.enum(['lost', 'shutdown', 'reboot']).optional(),
  player: playerInfoSchema.optional(),
});
export type DeviceState = z.infer<typeof deviceStateSchema>;

/** Spec section 9: the audience age bands. */
export const AGE_BANDS = ['1-19', '20-25', '26-35', '36-45', '46-55', '56+'] as const;
export type AgeBand = (typeof AGE_BANDS)[number];
export const AUDIENCE_GENDERS = ['male', 'female', 'unknown'] as const;
export type AudienceGender = (typeof AUDIENCE_GENDERS)[number];

/**
 * Optional audience figures of a heartbeat: the people the device's camera (or other
 * sensor) counted since its previous heartbeat, per age band and gender. Only a device that
 * measures an audience sends it; the server adds the counts to the hour it receives them in.
 */
export const audienceReportSchema = z
  .array(
    z.object({
      band: z.enum(AGE_BANDS),
      gender: z.enum(AUDIENCE_GENDERS).default('unknown'),
      count: z.number().int().min(0).max(100_000),
    }),
  )
  .max(AGE_BANDS.length * AUDIENCE_GENDERS.length);
export type AudienceReport = z.infer<typeof audienceReportSchema>;

/** Most materials one heartbeat reports the download state of (a manifest has fewer files). */
export const MAX_DOWNLOAD_REPORTS = 1000;
/** The longest failure reason a download report keeps. */
export const MAX_DOWNLOAD_ERROR = 200;
/**
 * The player sends a heartbeat early (at most this often) when a download state changed, so
 * the console follows a download without waiting for the next interval; progress within a
 * file alone never triggers one.
 */
export const DOWNLOAD_REPORT_DEBOUNCE_MS = 2000;

/** One material's download on the device (spec section 4 'Download'; docs/device-protocol.md 2.7.1). */
export const downloadReportSchema = z.object({
  materialId: z.string().min(1).max(64),
  state: z.enum(DOWNLOAD_STATES),
  /** Bytes downloaded and verified so far (the size once successful). */
  bytes: z.number().int().nonnegative(),
  /** The file's size (the manifest's `size`). */
  size: z.number().int().nonnegative(),
  /** Why the last attempt failed (state `failed`), short and in English. */
  error: z
    .string()
    .transform((e) => e.slice(0, MAX_DOWNLOAD_ERROR))
    .optional(),
  /** When the state last changed (device clock, ms). */
  at: ts,
});
export type DownloadReport = z.infer<typeof downloadReportSchema>;

/** `mq/v1/d/<id>/hb`, QoS 0, every `heartbeatSec` (default 30 s): what the device reports. */
export const heartbeatSchema = z.object({
  v,
  ts,
  /** Counter since the player started (gaps show lost heartbeats). */
  seq: z.number().int().nonnegative(),
  /** The `ts` of this connection's online state and will: tells the heartbeats of one connection from the next. */
  session: ts,
  player: playerInfoSchema,
  storage: z.object({ usedBytes: z.number().nonnegative(), freeBytes: z.number().nonnegative() }),
  net: z.object({
    ip: z.string().max(64),
    mac: z.string().max(32),
  }),
  screen: z.object({
    width: z.number().int().positive(),
    height: z.number().int().positive(),
    /** Whether the display is on. */
    on: z.boolean(),
  }),
  volume: percent,
  brightness: percent,
  /** Seconds since the player started. */
  uptimeSec: z.number().int().nonnegative().optional(),
  /** People counted since the previous heartbeat, when the device measures its audience. */
  audience: audienceReportSchema.optional(),
  /**
   * What the player plays (docs/device-protocol.md 2.7): the manifest in use and, for ads, the
   * ads of that manifest, all of whose files are downloaded and verified (the player switches
   * to a manifest only then): the server records the ads' download (`downloaded_at`).
   * `downloads`: the download state of each material of the manifest being fetched
   * (`pendingVersion`), else of the one in use (2.7.1); the server keeps the latest per material.
   */
  content: z
    .object({
      manifestVersion: z.string().max(64).nullable().optional(),
      pendingVersion: z.string().max(64).nullable().optional(),
      // A malformed list costs only itself (read as absent), not the rest of the report.
      downloads: z.array(downloadReportSchema).max(MAX_DOWNLOAD_REPORTS).optional().catch(undefined),
      readyAds: z.array(z.string().min(1).max(64)).max(500).optional(),
    })
    .optional()
    // A malformed report never costs the heartbeat: it is read as absent.
    .catch(undefined),
});
export type Heartbeat = z.infer<typeof heartbeatSchema>;

/** The kinds of command the server sends (issue 9), with their parameters. */
export const COMMAND_KINDS = [
  'volume',
  'brightness',
  'reboot',
  'screen',
  'screenshot',
  'syncContent',
  'clearCache',
  'watermark',
  'upgrade',
  'applyStrategy',
] as const;
export type CommandKind = (typeof COMMAND_KINDS)[number];

/** Each kind's parameters (strict: an unknown field is an error). */
export const commandParamsSchemas = {
  volume: z.object({ level: percent }).strict(),
  brightness: z.object({ level: percent }).strict(),
  reboot: z.object({}).strict(),
  /** Turn the display on or off. */
  screen: z.object({ on: z.boolean() }).strict(),
  /** Take a screenshot now: upload it (http.ts screenshotUpload), then ack with `{ screenshotId }`. */
  screenshot: z.object({}).strict(),
  /** Fetch the current manifest and download what is missing. */
  syncContent: z.object({}).strict(),
  clearCache: z.object({}).strict(),
  /**
   * Retired (issue 31): the watermark is the manifest's `watermark` (docs/device-protocol.md
   * 2.7.5), kept per device and group on the server. Kept here so commands sent before read
   * back; it is no longer sent (commandBodySchema leaves it out).
   */
  watermark: z
    .object({ enabled: z.boolean(), text: z.string().max(64).default(''), opacity: percent.default(30) })
    .strict(),
  /**
   * Download the package at `url` (signed, short-lived, for this device), check its size and
   * SHA-256, install it; report each step as an ack with `data.stage` (docs/device-protocol.md
   * 3.8): 'downloading', 'installing', then 'done' with `data.version`; or result error FAILED
   * with the reason (a checksum mismatch, another device type).
   */
  upgrade: z
    .object({
      /** What it replaces: the player application (apk) or the firmware. */
      target: z.enum(['apk', 'firmware']),
      version: z.string().min(1).max(64),
      /** The package: an absolute URL, or a path of the server the device talks to (signed, short-lived). */
      url: z.union([z.url(), z.string().regex(/^\/[^/]/)]).pipe(z.string().max(2048)),
      sha256: z
        .string()
        .regex(/^[0-9a-f]{64}$/)
        .optional(),
      /** The file's size in bytes. */
      size: z.number().int().nonnegative().optional(),
      /** The device model it is for; a device of another model refuses it (FAILED). */
      deviceType: z.string().max(128).optional(),
    })
    .strict(),
  /** A strategy of one type with its typed rules (strategyRules.ts), replacing the device's of that type. */
  applyStrategy: applyStrategyParamsSchema,
} satisfies Record<CommandKind, z.ZodType>;
export type CommandParams<K extends CommandKind = CommandKind> = z.input<(typeof commandParamsSchemas)[K]>;

/** A kind and its parameters, checked together. */
export const commandBodySchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('volume'), params: commandParamsSchemas.volume }),
  z.object({ kind: z.literal('brightness'), params: commandParamsSchemas.brightness }),
  z.object({ kind: z.literal('reboot'), params: commandParamsSchemas.reboot.default({}) }),
  z.object({ kind: z.literal('screen'), params: commandParamsSchemas.screen }),
  z.object({ kind: z.literal('screenshot'), params: commandParamsSchemas.screenshot.default({}) }),
  z.object({ kind: z.literal('syncContent'), params: commandParamsSchemas.syncContent.default({}) }),
  z.object({ kind: z.literal('clearCache'), params: commandParamsSchemas.clearCache.default({}) }),
  z.object({ kind: z.literal('upgrade'), params: commandParamsSchemas.upgrade }),
  z.object({ kind: z.literal('applyStrategy'), params: commandParamsSchemas.applyStrategy }),
]);
export type CommandBody = z.infer<typeof commandBodySchema>;

/**
 * `mq/v1/d/<id>/cmd`, QoS 1. `id` is the command's identity: the same command may arrive
 * more than once (QoS 1 redelivery, the server's resend after a reconnect), and the device
 * executes it once, answering a repeat with its first ack again. A command past
 * `expiresAt` (device clock) is not executed; it is acknowledged with error EXPIRED.
 */
export const commandSchema = z.intersection(
  z.object({
    v,
    id: z.string().min(1).max(64),
    /** When the server issued it. */
    ts,
    expiresAt: ts,
  }),
  commandBodySchema,
);
export type Command = z.infer<typeof commandSchema>;

/** Error codes a device reports in an ack. */
export const ACK_ERROR_CODES = [
  /** The command's expiresAt had passed when it arrived. */
  'EXPIRED',
  /** The player does not implement this kind. */
  'UNSUPPORTED',
  /** The parameters were invalid for this device. */
  'INVALID_PARAMS',
  /** The command ran and failed (message says why). */
  'FAILED',
  /** The player is busy with a conflicting command (e.g. an upgrade). */
  'BUSY',
] as const;
export type AckErrorCode = (typeof ACK_ERROR_CODES)[number];

/**
 * `mq/v1/d/<id>/ack`, QoS 1: the device's answer to a command. `result: 'ok'` with optional
 * `data` (a screenshot's image, the applied level); `result: 'error'` with `error`.
 */
export const commandAckSchema = z.object({
  v,
  id: z.string().min(1).max(64),
  ts,
  result: z.enum(['ok', 'error']),
  error: z.object({ code: z.enum(ACK_ERROR_CODES), message: z.string().max(500).default('') }).optional(),
  /** Kind-specific result (screenshot: `{ screenshotId }`, the upload's answer; volume: `{ volume }`). */
  data: z.record(z.string(), z.unknown()).optional(),
});
export type CommandAck = z.infer<typeof commandAckSchema>;

/** Largest MQTT payload the server accepts from a device (images travel over HTTP, not in acks). */
export const MAX_DEVICE_PAYLOAD_BYTES = 2 * 1024 * 1024;
