import { z } from 'zod';
import { AD_ROLES } from '../adSchedule.js';
import { shareQuotesAnswerSchema, shareQuotesRequestSchema } from '../endpoints/shares.js';
import { ErrorCode } from '../errors.js';

/**
 * The HTTP calls a player makes (docs/device-protocol.md): `POST` with a JSON body, answered
 * HTTP 200 with the console's envelope `{ code, message, payload }` (code 0 success; the
 * codes of errors.ts otherwise, message in the `accept-language` locale). No signature and
 * no session: pairing is protected by the poll token, later calls by the device's
 * credentials (HTTP Basic, username = device id; the screenshot upload).
 */

export const DEVICE_API_PREFIX = '/dapi/v1';

/** Pairing codes: 6 characters of an alphabet without look-alikes (no 0/O, 1/I/L). */
export const PAIRING_CODE_ALPHABET = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';
export const PAIRING_CODE_LENGTH = 6;
/** A pairing code as typed: either case (the pattern says so), read upper case. */
export const pairingCodeSchema = z
  .string()
  .trim()
  .regex(
    new RegExp(
      `^[${PAIRING_CODE_ALPHABET}${PAIRING_CODE_ALPHABET.replace(/\d/g, '').toLowerCase()}]{${PAIRING_CODE_LENGTH}}$`,
    ),
  )
  .toUpperCase();
/** How long a pairing code can be entered in the console. */
export const PAIRING_TTL_MS = 15 * 60_000;
/** The longest a poll waits for the binding before answering `pending`. */
export const MAX_POLL_WAIT_MS = 25_000;
/** The heartbeat interval a new device starts with (strategies may change it later). */
export const DEFAULT_HEARTBEAT_SEC = 30;
/** A device that sent nothing for this many heartbeat intervals counts as offline. */
export const MISSED_HEARTBEATS_OFFLINE = 3;

/** The device's own number (serial, MAC without colons...): letters, digits, `-` and `_`. */
export const deviceNumberSchema = z
  .string()
  .trim()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9_-]+$/);

/** What the player sends to start pairing: whatever it knows about itself. */
export const pairingRequestSchema = z
  .object({
    /** The device's own number; an operator may add the device by it instead of the code. */
    number: deviceNumberSchema.optional(),
    player: z
      .object({ version: z.string().max(64), model: z.string().max(128).optional() })
      .strict()
      .optional(),
  })
  .strict();

export const pairingAnswerSchema = z.object({
  pairingId: z.string(),
  /** Shown on screen (and in the QR) for the operator to enter. */
  code: z.string(),
  /** The secret with which the player polls; keep it, never show it. */
  pollToken: z.string(),
  /** Content of the QR the player shows: the console's add-device link with the code. */
  qr: z.string(),
  expiresAt: z.number(),
  /** Suggested pause between polls. */
  pollIntervalMs: z.number(),
});

export const pairingPollRequestSchema = z
  .object({
    pairingId: z.string().min(1).max(64),
    pollToken: z.string().min(1).max(128),
    /** Hold the answer up to this long while the pairing is still pending (long poll). */
    waitMs: z.number().int().min(0).max(MAX_POLL_WAIT_MS).default(0),
  })
  .strict();

export const pairingPollAnswerSchema = z.object({
  /** `pending`: not added yet; `bound`: added, collect the credentials now. */
  status: z.enum(['pending', 'bound']),
  expiresAt: z.number(),
});

export const credentialsRequestSchema = z
  .object({ pairingId: z.string().min(1).max(64), pollToken: z.string().min(1).max(128) })
  .strict();

/** The device's identity and how to reach the broker. Given once: store it. */
export const deviceCredentialsSchema = z.object({
  deviceId: z.string(),
  /** MQTT username (the device id) and password. */
  username: z.string(),
  password: z.string(),
  /** The MQTT client id to use (the device id). */
  clientId: z.string(),
  /** Broker URLs the device may use, best first: `ws(s)://host/mqtt`, `mqtt://host:port`. */
  brokerUrls: z.array(z.string()),
  /** The device's topic prefix, `mq/v1/d/<deviceId>`. */
  topicPrefix: z.string(),
  heartbeatSec: z.number().int().positive(),
  /** Operator-chosen name. */
  name: z.string(),
});
export type DeviceCredentials = z.infer<typeof deviceCredentialsSchema>;

/**
 * Whether the device's credentials still open the broker (HTTP Basic, username = device id):
 * a player refused by the broker asks why. DEVICE_REMOVED: deleted in the console or the
 * credentials were replaced (pair again); DEVICE_DISABLED: disabled (`invalid`), wait.
 */
export const deviceStatusRequestSchema = z.object({}).strict();
export const deviceStatusAnswerSchema = z.object({
  status: z.literal('active'),
  /** The device's name in the console. */
  name: z.string(),
});

/**
 * The screenshot upload (docs/device-protocol.md 2.5): `POST /dapi/v1/screenshots/<commandId>`
 * with the image as the raw body (`content-type: image/png` or `image/jpeg`), authenticated
 * with the device's credentials (HTTP Basic: username = device id, password). Only for an open
 * `screenshot` command of the same device; the answer's `screenshotId` goes into the ack.
 */
export const SCREENSHOT_UPLOAD_PATH = `${DEVICE_API_PREFIX}/screenshots/:commandId`;
export const screenshotUploadPath = (commandId: string) =>
  `${DEVICE_API_PREFIX}/screenshots/${encodeURIComponent(commandId)}`;
/** Image types a screenshot may be (judged from the content, not the header alone). */
export const SCREENSHOT_CONTENT_TYPES = ['image/png', 'image/jpeg'] as const;
/** Largest screenshot upload (scale the image down above it). */
export const MAX_SCREENSHOT_BYTES = 5 * 1024 * 1024;

export const screenshotUploadAnswerSchema = z.object({
  /** Put into the ack's data: `{ "screenshotId": "..." }`. */
  screenshotId: z.string(),
  size: z.number(),
  width: z.number(),
  height: z.number(),
});

/** The player's HTTP calls, as the console catalogue describes its own. */
export const deviceHttpCalls = {
  pair: {
    path: `${DEVICE_API_PREFIX}/pairing`,
    request: pairingRequestSchema,
    response: pairingAnswerSchema,
    errors: [ErrorCode.INVALID_PARAMS, ErrorCode.RATE_LIMITED],
  },
  poll: {
    path: `${DEVICE_API_PREFIX}/pairing/poll`,
    request: pairingPollRequestSchema,
    response: pairingPollAnswerSchema,
    errors: [ErrorCode.INVALID_PARAMS, ErrorCode.PAIRING_CODE_INVALID, ErrorCode.CREDENTIALS_TAKEN],
  },
  credentials: {
    path: `${DEVICE_API_PREFIX}/pairing/credentials`,
    request: credentialsRequestSchema,
    response: deviceCredentialsSchema,
    errors: [
      ErrorCode.INVALID_PARAMS,
      ErrorCode.PAIRING_CODE_INVALID,
      ErrorCode.PAIRING_PENDING,
      ErrorCode.CREDENTIALS_TAKEN,
    ],
  },
  status: {
    path: `${DEVICE_API_PREFIX}/device/status`,
    request: deviceStatusRequestSchema,
    response: deviceStatusAnswerSchema,
    errors: [ErrorCode.INVALID_PARAMS, ErrorCode.DEVICE_REMOVED, ErrorCode.DEVICE_DISABLED],
  },
  weather: {
    /**
     * `POST`, HTTP Basic (docs/device-protocol.md 2.7.6): the readings of the cities of the
     * layout's weather components, in the `accept-language` language, from the server's
     * configured provider (cached 10 minutes a city); null for a city it knows no reading of,
     * and every one null without a provider: the component then says so, never invents one.
     */
    path: `${DEVICE_API_PREFIX}/weather`,
    request: z.object({ cities: z.array(z.string().trim().min(1).max(100)).min(1).max(20) }).strict(),
    response: z.object({
      provider: z.string().nullable(),
      readings: z.record(
        z.string(),
        z
          .object({
            city: z.string(),
            temperature: z.number(),
            condition: z.string(),
            high: z.number().nullable().optional(),
            low: z.number().nullable().optional(),
            humidity: z.number().nullable().optional(),
            observedAt: z.string().optional(),
          })
          .nullable(),
      ),
    }),
    errors: [ErrorCode.INVALID_PARAMS],
  },
  shares: {
    /**
     * `POST`, HTTP Basic (docs/device-protocol.md 2.7.7): the quotes of the symbols of the
     * layout's share-price components from the server's configured provider (cached 60 s a
     * symbol), each with its time and `stale` when older than 15 minutes; null for a symbol the
     * provider has no quote of, and every one null without a provider: the component then
     * shows nothing, never an invented price.
     */
    path: `${DEVICE_API_PREFIX}/shares`,
    request: shareQuotesRequestSchema,
    response: shareQuotesAnswerSchema,
    errors: [ErrorCode.INVALID_PARAMS],
  },
  time: {
    /** `GET`, no credentials: the server's clock, for the tiles of a wall to share one. */
    path: `${DEVICE_API_PREFIX}/time`,
    request: z.object({}).strict(),
    response: z.object({ now: z.number() }),
    errors: [],
  },
  screenshotUpload: {
    path: SCREENSHOT_UPLOAD_PATH,
    /** The body is the image itself, not JSON. */
    request: z.instanceof(Uint8Array),
    response: screenshotUploadAnswerSchema,
    errors: [
      ErrorCode.DEVICE_AUTH_FAILED,
      ErrorCode.NOT_FOUND,
      ErrorCode.CONFLICT,
      ErrorCode.FILE_TOO_LARGE,
      ErrorCode.FILE_FORMAT_ERROR,
    ],
  },
} as const;
export type DeviceHttpCall = keyof typeof deviceHttpCalls;

// ---------------------------------------------------------------------------------------------
// Content (docs/device-protocol.md 2.7): the manifest a player plays from, and proof of play (2.8).

/** `GET /dapi/v1/manifest` (HTTP Basic, like the screenshot upload): what the device plays now. */
export const MANIFEST_PATH = `${DEVICE_API_PREFIX}/manifest`;

/** The download states of a material on a device (spec section 4). */
export const DOWNLOAD_STATES = ['not_downloaded', 'downloading', 'failed', 'successful'] as const;
export type DownloadState = (typeof DOWNLOAD_STATES)[number];

/** One file to download: verify `sha256` and `size` before using it. */
export const manifestFileSchema = z.object({
  /** The material the file is the content of. */
  materialId: z.string(),
  /** Where to download it (relative to the server's origin or absolute); Range is supported. */
  url: z.string(),
  /** Lowercase hex SHA-256 of the content. */
  sha256: z.string(),
  size: z.number().int().nonnegative(),
  /** The material's type: image, video, audio, document, archive, web, stream. */
  type: z.string(),
  width: z.number().nullable().optional(),
  height: z.number().nullable().optional(),
  /** Seconds, for video and audio. */
  duration: z.number().nullable().optional(),
});
export type ManifestFile = z.infer<typeof manifestFileSchema>;

/**
 * When an item plays: all fields optional (none: always). Weekdays and `HH:mm` times are the
 * wall clock of the manifest's `timeZone` (the device's own clock when absent), except an RTB item's `from`/`until` (role `rtb`, 2.7.2), which are instants of the server's
 * clock (GET /dapi/v1/time): a turn starts at the same moment on every screen.
 */
export const manifestScheduleSchema = z.object({
  /** Instants (ms) between which the item plays. */
  from: z.number().nullable().optional(),
  until: z.number().nullable().optional(),
  /** ISO weekdays, Monday 1 to Sunday 7. */
  weekdays: z.array(z.number().int().min(1).max(7)).optional(),
  /** `HH:mm` of the day (start inclusive, end exclusive, `24:00` the end of the day). */
  start: z.string().optional(),
  end: z.string().optional(),
  /** Time periods of the day (`HH:mm`, start inclusive, end exclusive): the item plays in any of them. */
  periods: z.array(z.object({ start: z.string(), end: z.string() })).optional(),
});
export type ManifestSchedule = z.infer<typeof manifestScheduleSchema>;

/** One thing to play: a layout (with its document) from one source (the device's layout, an ad...). */
export const manifestItemSchema = z.object({
  /** Unique in the manifest, e.g. `layout:<id>`. */
  id: z.string(),
  /** The source that put it there (`layout`, later `ad`). */
  source: z.string(),
  name: z.string(),
  layoutId: z.string().nullable(),
  adId: z.string().nullable(),
  /** The layout document (@marquee/layout's schema, `v: 1`), or null for a plain playlist. */
  document: z.unknown(),
  /** Every material the item shows, in playing order for a playlist. */
  materialIds: z.array(z.string()),
  /** How long an image (or a page) stays, in seconds. */
  durationSec: z.number().positive(),
  schedule: manifestScheduleSchema,
  /**
   * An ad's place in the playlist (adSchedule.ts): `opening` plays once when the player starts,
   * `emergency` pre-empts everything, `loop` plays in turn, `fallback` only when nothing else
   * does. Absent: not an ad (the device's own layout).
   */
  role: z.enum([...AD_ROLES, 'rtb']).optional(),
  /**
   * An RTB slot's item (issue 29, docs/device-protocol.md 2.7.2), role `rtb`: a decided turn
   * (`auctionId`: the winner plays from `schedule.from` to `schedule.until`, pre-empting the
   * loop) or the slot's fallback (`cadence`: it plays in the slot's turns that have no
   * decided item; rtbTurnAt computes them). With `region`, the slot is one component of a
   * layout: the item fills that component's box while that layout is on screen (the loop goes
   * on; pickRtbRegionItem), and its plays carry the layout and the component.
   */
  rtb: z
    .object({
      slotId: z.string(),
      auctionId: z.string().optional(),
      region: z.object({ layoutId: z.string(), componentId: z.string() }).optional(),
      cadence: z
        .object({
          everySec: z.number().int().positive(),
          offsetSec: z.number().int().nonnegative(),
          durationSec: z.number().int().positive(),
        })
        .optional(),
    })
    .optional(),
  /** Plays a day at most (a per-day ad); null or absent: no cap. */
  maxPerDay: z.number().int().positive().nullable().optional(),
});
export type ManifestItem = z.infer<typeof manifestItemSchema>;

/**
 * The video wall (split screen) the device is a tile of (docs/device-protocol.md 2.7.3): the
 * wall's content is drawn at the wall's size (cols x rows tiles) and this tile shows the part
 * at its row and column; tiles play by the shared clock (`GET /dapi/v1/time`), not local timers.
 */
export const manifestWallSchema = z.object({
  id: z.string(),
  rows: z.number().int().positive(),
  cols: z.number().int().positive(),
  /** This tile's 0-based position, from the top left. */
  row: z.number().int().nonnegative(),
  col: z.number().int().nonnegative(),
  /** true: the content is stretched over the whole wall; false: fitted, aspect kept, centred. */
  scaling: z.boolean(),
  /** Degrees clockwise the content is turned on the wall (0, 90, 180, 270; other than 0 only with scaling). */
  rotation: z.number(),
  /**
   * The instant (ms, server clock) the wall's timeline counts from: every tile plays position
   * `(clock - anchor) mod loop length` of the same items.
   */
  anchor: z.number(),
});
export type ManifestWall = z.infer<typeof manifestWallSchema>;

/** The manifest: `version` changes whenever anything in it does (a hash of the content). */
export const deviceManifestSchema = z.object({
  version: z.string(),
  generatedAt: z.number(),
  items: z.array(manifestItemSchema),
  files: z.array(manifestFileSchema),
  /** Present when the device is a tile of a video wall. */
  wall: manifestWallSchema.optional(),
  /**
   * The device's IANA time zone (issue 31, docs/device-protocol.md 2.7.1): the weekdays and
   * `HH:mm` times of every schedule, and the power, volume and brightness strategies' times,
   * are wall-clock times of this zone (device/schedule.ts reads them). Absent from older
   * servers: the device's own clock.
   */
  timeZone: z.string().optional(),
  /**
   * The device's service licence (issue 27, docs/device-protocol.md 2.7): `trial` or
   * `licensed` until `expiresAt` (ms; null: no expiry); `expired`: the manifest carries no
   * items, and the player shows its fallback screen with the reason until points are bought.
   * Absent from older servers: treat as licensed.
   */
  licence: z.object({ state: z.enum(['trial', 'licensed', 'expired']), expiresAt: z.number().nullable() }).optional(),
  /**
   * The watermark drawn over everything the screen plays (docs/device-protocol.md 2.7.5); absent:
   * none. `materialId` (kind image) is among `files`.
   */
  watermark: z
    .object({
      kind: z.enum(['text', 'image']),
      text: z.string(),
      materialId: z.string().nullable(),
      position: z.enum(['topLeft', 'topRight', 'bottomLeft', 'bottomRight', 'center']),
      opacity: z.number(),
      sizePct: z.number(),
    })
    .optional(),
});
export type DeviceManifest = z.infer<typeof deviceManifestSchema>;

/** `POST /dapi/v1/plays` (HTTP Basic): proof of play, idempotent by event id. */
export const PLAYS_PATH = `${DEVICE_API_PREFIX}/plays`;
/** Most events in one upload (the body may be up to 1 MB). */
export const MAX_PLAYS_PER_BATCH = 1000;
export const MAX_PLAYS_BODY_BYTES = 1024 * 1024;
const optionalRef = z.string().min(1).max(64).nullable().default(null);

/** One playback of a material, written to the player's journal the moment it ends. */
export const playEventSchema = z
  .object({
    /** A UUID the player makes: the same event uploaded twice is counted once. */
    id: z.uuid(),
    materialId: optionalRef,
    layoutId: optionalRef,
    componentId: optionalRef,
    adId: optionalRef,
    /** When it started (ms since the epoch, the device's clock). */
    start: z.number().int().nonnegative(),
    durationMs: z
      .number()
      .int()
      .min(0)
      .max(24 * 3600_000),
    outcome: z.enum(['completed', 'interrupted']),
  })
  .strict();
export type PlayEvent = z.input<typeof playEventSchema>;

export const playsUploadSchema = z
  .object({ events: z.array(playEventSchema).min(1).max(MAX_PLAYS_PER_BATCH) })
  .strict();
/**
 * `accepted`: stored now; `duplicate`: stored before (a replay); `rejected`: never storable
 * (an id another device used, or a start too far in the past or future). The player deletes
 * all three from its journal and keeps the others for the next upload.
 */
export const playsAnswerSchema = z.object({
  accepted: z.array(z.string()),
  duplicate: z.array(z.string()),
  rejected: z.array(z.string()),
});
export type PlaysAnswer = z.infer<typeof playsAnswerSchema>;
/** How far back an event may start (older ones are rejected): the longest play-log retention and more. */
export const PLAYS_MAX_AGE_DAYS = 60;

/**
 * `POST /dapi/v1/usage` (HTTP Basic; issue 27, docs/device-protocol.md 2.9): the mobile data a
 * player used, as samples journaled like plays and counted once by (UTC day of `start`, `id`).
 * The server adds each to the day of the IoT card bound to the device (or named by `iccid`).
 */
export const USAGE_PATH = `${DEVICE_API_PREFIX}/usage`;
export const MAX_USAGE_PER_BATCH = 1000;
/** One sample can carry at most 100 GB (a day of a very busy 4G link is far below). */
export const USAGE_SAMPLE_MAX_BYTES = 100 * 1024 ** 3;

export const usageSampleSchema = z
  .object({
    /** A UUID the player makes: the same sample uploaded twice is counted once. */
    id: z.uuid(),
    /** Start of the interval the sample covers (ms since the epoch, the device's clock). */
    start: z.number().int().nonnegative(),
    /** Length of the interval, ms (0 to a day). */
    durationMs: z
      .number()
      .int()
      .min(0)
      .max(24 * 3600_000),
    /** Bytes received and sent over the mobile link in the interval. */
    rxBytes: z.number().int().min(0).max(USAGE_SAMPLE_MAX_BYTES),
    txBytes: z.number().int().min(0).max(USAGE_SAMPLE_MAX_BYTES),
    /** The SIM's ICCID when the player can read it (null: the card bound to the device in the console). */
    iccid: z
      .string()
      .regex(/^[A-Za-z0-9]{19,20}$/)
      .nullable()
      .default(null),
  })
  .strict();
export type UsageSample = z.input<typeof usageSampleSchema>;

export const usageUploadSchema = z
  .object({ samples: z.array(usageSampleSchema).min(1).max(MAX_USAGE_PER_BATCH) })
  .strict();
/** Same meaning as the plays answer: delete exactly these ids from the journal. */
export const usageAnswerSchema = playsAnswerSchema;
