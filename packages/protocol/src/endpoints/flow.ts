import { z } from 'zod';
import { ErrorCode } from '../errors.js';
import { Perm } from '../permissions.js';
import { iccidSchema, listPageSize } from '../validation.js';
import { endpoint } from './common.js';
import { exportFollowUps, exportStatusSchema } from './operationLog.js';

/**
 * IoT data cards and their data (issue 27; /operate/flow and /report/flowConsumption). An
 * enterprise registers the SIM cards of its 4G players (added one by one or imported from
 * Excel; ICCID 19 or 20 letters or digits), binds each to a device, and buys a data package
 * for it in the market (which activates it). Players report the data they use over the device
 * protocol (`POST /dapi/v1/usage`, counted once per sample id); the server rolls it up per card,
 * device and day. Served by the server's flow module.
 */

const id = z.string().min(1).max(64);
const pageSize = listPageSize();
const day = z.iso.date();

/** Spec section 3: the card's operator. */
export const CARD_OPERATORS = ['chinaMobile', 'chinaUnicom', 'chinaTelecom', 'other'] as const;
export type CardOperator = (typeof CARD_OPERATORS)[number];

/** Spec section 4: an IoT card's states. */
export const CARD_STATES = [
  'toActivate',
  'activated',
  'suspended',
  'cancelled',
  'stock',
  'testable',
  'lapsed',
] as const;
export type CardState = (typeof CARD_STATES)[number];

/** What a person does to a card (buying a package, which activates it, is the market's). */
export const CARD_ACTIONS = ['test', 'prepare', 'suspend', 'resume', 'cancel'] as const;
export type CardAction = (typeof CARD_ACTIONS)[number];

/**
 * The card's state machine (section 4). A new card is in `stock`. `test` gives it a test
 * allowance (`testable`); `prepare` marks it ready to activate (`toActivate`); paying a
 * package in the market activates it (`activated`, from stock, testable, toActivate or
 * lapsed); `suspend` stops it for a while (`suspended`) and `resume` brings it back; at its
 * package's expiry it lapses (`lapsed`, by the job); `cancel` ends it for good (`cancelled`,
 * unbound from its device). The table is the server's only rule and the console's buttons.
 */
export const CARD_TRANSITIONS: Record<CardAction, { from: readonly CardState[]; to: CardState }> = {
  test: { from: ['stock'], to: 'testable' },
  prepare: { from: ['stock', 'testable'], to: 'toActivate' },
  suspend: { from: ['activated'], to: 'suspended' },
  resume: { from: ['suspended'], to: 'activated' },
  cancel: { from: ['stock', 'testable', 'toActivate', 'activated', 'suspended', 'lapsed'], to: 'cancelled' },
};
/** The states from which a paid package activates the card (the market's effect). */
export const CARD_ACTIVATABLE: readonly CardState[] = ['stock', 'testable', 'toActivate', 'lapsed', 'activated'];

/** Spec section 5: the traffic search range, 0 to 99999 MB. */
export const TRAFFIC_MAX_MB = 99_999;
/** A card 'near its package's end' (a station letter) when this share of the month's data is used, percent. */
export const CARD_NEAR_END_PERCENT = 90;
export const CARD_IMPORT_MAX_ROWS = 2000;
export const CARD_IMPORT_MAX_BYTES = 5 * 1024 * 1024;
export const CARD_IMPORT_COLUMNS = ['iccid', 'operator', 'remark'] as const;
/** Rows of the consumption report counted exactly; beyond it the total says 'more than'. */
export const FLOW_REPORT_TOTAL_CAP = 10_000;
/** The longest range the consumption report takes, days. */
export const FLOW_REPORT_MAX_DAYS = 366;

const trafficMb = z.number().int().min(0, 'validation.trafficRange').max(TRAFFIC_MAX_MB, 'validation.trafficRange');

export const iotCardSchema = z.object({
  id: z.string(),
  iccid: z.string(),
  operator: z.enum(CARD_OPERATORS),
  state: z.enum(CARD_STATES),
  /** The package bought in the market (null: none yet). */
  packageName: z.string().nullable(),
  /** Data per month of the package, MB. */
  packageMb: z.number().nullable(),
  /** Used this month (UTC+8 calendar month), MB with 2 decimals, and what is left of the package (null without one). */
  usedMb: z.number(),
  leftMb: z.number().nullable(),
  deviceId: z.string().nullable(),
  deviceName: z.string().nullable(),
  activatedAt: z.string().nullable(),
  expiresAt: z.string().nullable(),
  autoRenew: z.boolean(),
  remark: z.string(),
  createdAt: z.string(),
});
export type IotCard = z.infer<typeof iotCardSchema>;

export const cardImportErrorSchema = z.object({
  row: z.number(),
  column: z.enum(CARD_IMPORT_COLUMNS).nullable(),
  message: z.string(),
});

export const cardFilterSchema = z
  .object({
    state: z.enum(CARD_STATES).optional(),
    operator: z.enum(CARD_OPERATORS).optional(),
    /** ICCID or device name contains. */
    keyword: z.string().trim().max(64).optional(),
    /** Traffic left this month, MB (spec section 5: 0 to 99999). */
    leftMin: trafficMb.optional(),
    leftMax: trafficMb.optional(),
    deviceId: id.optional(),
    /** Only cards with (true) or without (false) a device. */
    bound: z.boolean().optional(),
  })
  .strict();

export const usageFilterSchema = z
  .object({
    /** Inclusive days (UTC+8), at most FLOW_REPORT_MAX_DAYS apart. */
    from: day,
    to: day,
    cardId: id.optional(),
    deviceId: id.optional(),
    /** ICCID or device name contains. */
    keyword: z.string().trim().max(64).optional(),
  })
  .strict();

export const usageRowSchema = z.object({
  day: z.string(),
  cardId: z.string().nullable(),
  iccid: z.string().nullable(),
  deviceId: z.string(),
  deviceName: z.string(),
  /** Bytes used that day. */
  bytes: z.number(),
});

const flowUsageExport = exportFollowUps({
  name: 'flow.usageExport',
  path: '/api/flow/usage/export',
  permission: Perm.sourceConsumption,
  object: 'usageExport',
});

export const flowEndpoints = {
  flowCardList: endpoint({
    name: 'flow.cardList',
    path: '/api/flow/card/list.shtm',
    auth: 'session',
    permission: Perm.operateFlow,
    scope: { object: 'iotCard', kind: 'list', audience: 'tenant' },
    request: cardFilterSchema.extend({ page: z.number().int().min(1).default(1), size: pageSize }).strict(),
    response: z.object({ total: z.number(), data: z.array(iotCardSchema) }),
  }),
  flowCardInfo: endpoint({
    name: 'flow.cardInfo',
    path: '/api/flow/card/info.shtm',
    auth: 'session',
    permission: Perm.operateFlow,
    scope: { object: 'iotCard', kind: 'detail', audience: 'tenant' },
    errors: [ErrorCode.NOT_FOUND],
    request: z.object({ id }).strict(),
    response: iotCardSchema,
  }),
  flowCardAdd: endpoint({
    name: 'flow.cardAdd',
    path: '/api/flow/card/add.shtm',
    auth: 'session',
    permission: Perm.operateFlow,
    mutation: true,
    notForMonitor: true,
    errors: [ErrorCode.CONFLICT],
    /** Registers a card in stock (CONFLICT: the ICCID is registered already). */
    request: z
      .object({
        iccid: z.string().trim().pipe(iccidSchema),
        operator: z.enum(CARD_OPERATORS),
        remark: z.string().trim().max(100).default(''),
      })
      .strict(),
    response: iotCardSchema,
  }),
  flowCardUpdate: endpoint({
    name: 'flow.cardUpdate',
    path: '/api/flow/card/update.shtm',
    auth: 'session',
    permission: Perm.operateFlow,
    mutation: true,
    notForMonitor: true,
    errors: [ErrorCode.NOT_FOUND],
    request: z.object({ id, operator: z.enum(CARD_OPERATORS), remark: z.string().trim().max(100) }).strict(),
    response: iotCardSchema,
  }),
  flowCardImportTemplate: endpoint({
    name: 'flow.cardImportTemplate',
    path: '/api/flow/card/importTemplate.shtm',
    auth: 'session',
    permission: Perm.operateFlow,
    unscoped: 'a blank template with an example row, in the caller language',
    download: true,
    notForMonitor: true,
    request: z.object({}).strict(),
    response: z.unknown(),
  }),
  flowCardImport: endpoint({
    name: 'flow.cardImport',
    path: '/api/flow/card/import.shtm',
    auth: 'session',
    permission: Perm.operateFlow,
    mutation: true,
    notForMonitor: true,
    /**
     * Imports cards from the template's sheet (base64 of the .xlsx). Every row is checked (the
     * ICCID rule, the operator, duplicates within the sheet and against registered cards); any
     * error: the answer lists them all and nothing is written.
     */
    request: z
      .object({
        fileName: z.string().trim().min(1).max(200),
        /** The .xlsx, base64. */
        file: z
          .string()
          .min(1)
          .max(Math.ceil(CARD_IMPORT_MAX_BYTES / 3) * 4)
          .regex(/^[A-Za-z0-9+/]+={0,2}$/),
      })
      .strict(),
    response: z.object({ imported: z.number(), errors: z.array(cardImportErrorSchema) }),
  }),
  flowCardBind: endpoint({
    name: 'flow.cardBind',
    path: '/api/flow/card/bind.shtm',
    auth: 'session',
    permission: Perm.operateFlow,
    mutation: true,
    notForMonitor: true,
    errors: [ErrorCode.NOT_FOUND, ErrorCode.CONFLICT, ErrorCode.CARD_STATE],
    /** Binds the card to a device the caller may manage (null: unbinds). A device holds one card (CONFLICT). */
    request: z.object({ id, deviceId: id.nullable() }).strict(),
    response: iotCardSchema,
  }),
  flowCardTransition: endpoint({
    name: 'flow.cardTransition',
    path: '/api/flow/card/transition.shtm',
    auth: 'session',
    permission: Perm.operateFlow,
    mutation: true,
    notForMonitor: true,
    errors: [ErrorCode.NOT_FOUND, ErrorCode.CARD_STATE],
    /** Applies an action of CARD_TRANSITIONS to cards (CARD_STATE, nothing changed, when any cannot take it). */
    request: z.object({ ids: z.array(id).min(1).max(500), action: z.enum(CARD_ACTIONS) }).strict(),
    response: z.object({ updated: z.number() }),
  }),
  flowUsageReport: endpoint({
    name: 'flow.usageReport',
    path: '/api/flow/usage/report.shtm',
    auth: 'session',
    permission: Perm.sourceConsumption,
    scope: { object: 'iotCard', kind: 'list', audience: 'tenant' },
    errors: [ErrorCode.INVALID_PARAMS],
    /** Data used per card, device and day (newest day first, then heaviest use first), the daily totals for the chart, and the range's total. */
    request: usageFilterSchema.extend({ page: z.number().int().min(1).default(1), size: pageSize }).strict(),
    response: z.object({
      /** Rows counted, capped at FLOW_REPORT_TOTAL_CAP (`capped`: there are more). */
      total: z.number(),
      capped: z.boolean(),
      data: z.array(usageRowSchema),
      /** Every day of the range, with its bytes (0 on a day without use). */
      series: z.array(z.object({ day: z.string(), bytes: z.number() })),
      totalBytes: z.number(),
    }),
  }),
  flowUsageExportStart: endpoint({
    name: 'flow.usageExportStart',
    path: '/api/flow/usage/exportStart.shtm',
    auth: 'session',
    permission: Perm.sourceConsumption,
    mutation: true,
    notForMonitor: true,
    request: usageFilterSchema,
    response: exportStatusSchema,
  }),
  flowUsageExportStatus: flowUsageExport.status,
  flowUsageExportDownload: flowUsageExport.download,
};
