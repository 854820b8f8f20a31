import { ErrorCode, type ExportStatus, fenToYuan, formatTime, isLocale, type Locale } from '@marquee/protocol';
import { and, asc, eq, gt, or, sql } from 'drizzle-orm';
import {
  accounts,
  devices,
  salesOrderLines,
  salesOrders,
  salesSettlementLines,
  salesSettlements,
} from '../../db/schema/index.js';
import { AppError } from '../../protocol/appError.js';
import type { CallContext } from '../../protocol/handlers.js';
import { transfersOf } from '../ledger/ledger.js';
import { registerExportSource } from '../operationLog/exportJob.js';
import { beginExport, exportDownload, exportFileName, exportStatus } from '../operationLog/service.js';
import { requireOrder } from './orderScope.js';
import { methodOf, orderLinesOf, SettlementText } from './settlement.js';

/**
 * An order's settlement as an Excel workbook (salesSettlementExportStart; the operation log's
 * export mechanism, kind 'salesSettlement') that a finance person reconciles to the ledger to
 * the fen: a summary sheet (order, advertiser, method, frozen, billed, credited, released, the
 * ledger transfers of the order with their ids and amounts, and the check billed + released =
 * frozen), then the screen-day sheet. Amounts in yuan with 2 decimals and in fen; headers in
 * the caller's language.
 */

export const SETTLEMENT_EXPORT_KIND = 'salesSettlement';

interface SettlementExportSpec {
  orderId: string;
  language: string;
}

const localeOf = (language: string): Locale => (isLocale(language) ? language : 'zh-CN');

const T = {
  summary: { 'zh-CN': '结算汇总', 'en-US': 'Settlement summary', ja: '精算の概要' },
  lines: { 'zh-CN': '屏幕日明细', 'en-US': 'Screen-days', ja: 'デバイス日別明細' },
  summaryHeaders: {
    'zh-CN': ['项目', '值', '金额（元）', '金额（分）'],
    'en-US': ['Item', 'Value', 'Amount (yuan)', 'Amount (fen)'],
    ja: ['項目', '値', '金額（元）', '金額（分）'],
  },
  lineHeaders: {
    'zh-CN': [
      '子订单',
      '广告位',
      '设备',
      '日期',
      '应播次数',
      '实播次数',
      '曝光量',
      '曝光来源',
      '未达标',
      '补偿方式',
      '金额（元）',
      '抵扣（元）',
      '金额（分）',
      '抵扣（分）',
    ],
    'en-US': [
      'Sub-order',
      'Ad slot',
      'Device',
      'Day',
      'Expected plays',
      'Delivered plays',
      'Impressions',
      'Impressions from',
      'Under-delivered',
      'Make-good',
      'Amount (yuan)',
      'Credit (yuan)',
      'Amount (fen)',
      'Credit (fen)',
    ],
    ja: [
      'サブ注文',
      '広告枠',
      'デバイス',
      '日付',
      '予定再生回数',
      '実再生回数',
      'インプレッション',
      'インプレッションの根拠',
      '未達',
      '補填方法',
      '金額（元）',
      '控除（元）',
      '金額（分）',
      '控除（分）',
    ],
  },
  items: {
    'zh-CN': {
      order: '订单号',
      advertiser: '广告主',
      method: '售卖方式',
      state: '结算状态',
      frozen: '冻结金额',
      billed: '结算金额（已扣款）',
      credited: '抵扣金额',
      released: '退还金额（解冻）',
      transfer: '账务流水',
      check: '核对：结算 + 退还 = 冻结',
      ok: '一致',
      mismatch: '不一致',
      makeGoodUntil: '补播截止',
    },
    'en-US': {
      order: 'Order number',
      advertiser: 'Advertiser',
      method: 'Sales method',
      state: 'Settlement state',
      frozen: 'Frozen',
      billed: 'Billed (posted)',
      credited: 'Credited',
      released: 'Released',
      transfer: 'Ledger transfer',
      check: 'Check: billed + released = frozen',
      ok: 'Matches',
      mismatch: 'Does not match',
      makeGoodUntil: 'Make-goods until',
    },
    ja: {
      order: '注文番号',
      advertiser: '広告主',
      method: '販売方式',
      state: '精算の状態',
      frozen: '凍結額',
      billed: '請求額（計上済み）',
      credited: '控除額',
      released: '返金額（凍結解除）',
      transfer: '台帳の振替',
      check: '照合：請求額 + 返金額 = 凍結額',
      ok: '一致',
      mismatch: '不一致',
      makeGoodUntil: '補填配信の終了日',
    },
  },
  source: {
    'zh-CN': { audience: '客流数据', multiplier: '倍数估算' },
    'en-US': { audience: 'Audience', multiplier: 'Multiplier' },
    ja: { audience: '視聴者データ', multiplier: '倍率による推定' },
  },
  remedy: {
    'zh-CN': { credit: '金额抵扣', extraPlays: '补播' },
    'en-US': { credit: 'Credit', extraPlays: 'Extra plays' },
    ja: { credit: '金額控除', extraPlays: '追加配信' },
  },
  yes: { 'zh-CN': '是', 'en-US': 'Yes', ja: 'はい' },
  no: { 'zh-CN': '否', 'en-US': 'No', ja: 'いいえ' },
  states: {
    'zh-CN': { toBePaid: '待结算', paid: '已结算', completed: '已完成' },
    'en-US': { toBePaid: 'To be paid', paid: 'Paid', completed: 'Completed' },
    ja: { toBePaid: '精算待ち', paid: '精算済み', completed: '完了' },
  },
} as const;

interface ExportLineRow {
  l: typeof salesSettlementLines.$inferSelect;
  position: number;
  slotName: string;
  deviceName: string | null;
}

const nameOf = (real: string | null | undefined, login: string | null | undefined) => real || login || '';

registerExportSource(SETTLEMENT_EXPORT_KIND, {
  sheetName: (language) => T.summary[localeOf(language)],
  columns: (language) =>
    T.summaryHeaders[localeOf(language)].map((header, i) => ({ header, width: [34, 40, 16, 16][i] })),
  async *batches(services, filters) {
    const spec = filters as unknown as SettlementExportSpec;
    const L = localeOf(spec.language);
    const w = T.items[L];
    const db = services.db;
    const [row] = await db
      .select({ order: salesOrders, s: salesSettlements, real: accounts.realName, login: accounts.loginName })
      .from(salesOrders)
      .innerJoin(salesSettlements, eq(salesSettlements.orderId, salesOrders.id))
      .leftJoin(accounts, eq(accounts.id, salesOrders.advertiserId))
      .where(eq(salesOrders.id, spec.orderId));
    if (!row) return;
    const { order, s } = row;
    const method = methodOf(await orderLinesOf(db, order.id));
    const transfers = await transfersOf(db, { type: 'salesOrder', id: order.id });
    const frozen = order.amount;
    const posted = transfers.filter((t) => t.id === `sales:${order.id}:post`).reduce((a, t) => a + t.amount, 0);
    const confirmed = s.state !== 'toBePaid';
    const billed = confirmed ? posted : s.billedAmount;
    const released = frozen - billed;
    const money = (label: string, fen: number) => [label, '', fenToYuan(fen), fen];
    const out: unknown[][] = [
      [w.order, order.no, '', ''],
      [w.advertiser, nameOf(row.real, row.login), '', ''],
      [w.method, method.toUpperCase(), '', ''],
      [w.state, T.states[L][s.state], '', ''],
      money(w.frozen, frozen),
      money(w.billed, billed),
      money(w.credited, s.creditAmount),
      money(w.released, released),
      ...transfers.map((t) => [
        `${w.transfer} ${t.code}`,
        `${t.id} · ${formatTime(t.createdAt)}`,
        fenToYuan(t.amount),
        t.amount,
      ]),
      [w.check, billed + released === frozen ? w.ok : w.mismatch, fenToYuan(billed + released), billed + released],
    ];
    if (s.makeGoodUntil) out.push([w.makeGoodUntil, s.makeGoodUntil, '', '']);
    yield out;
  },
  moreSheets: () => [
    {
      sheetName: (language) => T.lines[localeOf(language)],
      columns: (language) =>
        T.lineHeaders[localeOf(language)].map((header, i) => ({
          header,
          width: [22, 20, 24, 12, 12, 12, 12, 14, 10, 12, 14, 14, 14, 14][i],
        })),
      async *batches(services, filters, limit) {
        const spec = filters as unknown as SettlementExportSpec;
        const L = localeOf(spec.language);
        const db = services.db;
        const [head] = await db
          .select({ id: salesSettlements.id, no: salesOrders.no })
          .from(salesSettlements)
          .innerJoin(salesOrders, eq(salesOrders.id, salesSettlements.orderId))
          .where(eq(salesSettlements.orderId, spec.orderId));
        if (!head) return;
        let after: { day: string; lineId: string; deviceId: string } | null = null;
        for (;;) {
          const rows: ExportLineRow[] = await db
            .select({
              l: salesSettlementLines,
              position: salesOrderLines.position,
              slotName: salesOrderLines.slotName,
              deviceName: devices.name,
            })
            .from(salesSettlementLines)
            .innerJoin(salesOrderLines, eq(salesOrderLines.id, salesSettlementLines.lineId))
            .leftJoin(devices, eq(devices.id, salesSettlementLines.deviceId))
            .where(
              and(
                eq(salesSettlementLines.settlementId, head.id),
                after
                  ? or(
                      gt(salesSettlementLines.day, after.day),
                      and(eq(salesSettlementLines.day, after.day), gt(salesSettlementLines.lineId, after.lineId)),
                      and(
                        eq(salesSettlementLines.day, after.day),
                        eq(salesSettlementLines.lineId, after.lineId),
                        gt(salesSettlementLines.deviceId, after.deviceId),
                      ),
                    )
                  : undefined,
              ),
            )
            .orderBy(
              asc(salesSettlementLines.day),
              asc(salesSettlementLines.lineId),
              asc(salesSettlementLines.deviceId),
            )
            .limit(limit);
          if (rows.length === 0) return;
          yield rows.map(({ l, position, slotName, deviceName }) => [
            `${head.no}-${position}`,
            slotName,
            deviceName ?? l.deviceId,
            l.day,
            l.expectedPlays,
            l.deliveredPlays,
            l.impressions,
            T.source[L][l.fromAudience ? 'audience' : 'multiplier'],
            l.underDelivered ? T.yes[L] : T.no[L],
            l.remedy ? T.remedy[L][l.remedy] : '',
            fenToYuan(l.amount),
            fenToYuan(l.credit),
            l.amount,
            l.credit,
          ]);
          if (rows.length < limit) return;
          const last: ExportLineRow['l'] = rows[rows.length - 1].l;
          after = { day: last.day, lineId: last.lineId, deviceId: last.deviceId };
        }
      },
    },
  ],
});

/** Starts the export of an order's settlement the caller sees (salesSettlementExportStart). */
export async function startSettlementExport(input: { orderId: string }, ctx: CallContext): Promise<ExportStatus> {
  const order = await requireOrder(ctx, input.orderId);
  const [s] = await ctx.db
    .select({ id: salesSettlements.id })
    .from(salesSettlements)
    .where(eq(salesSettlements.orderId, order.id));
  if (!s) throw new AppError(ErrorCode.NOT_FOUND, SettlementText.noSettlement);
  const spec: SettlementExportSpec = { orderId: order.id, language: ctx.language };
  return beginExport(ctx, {
    kind: SETTLEMENT_EXPORT_KIND,
    filters: spec as unknown as Record<string, unknown> & { language: string },
    fileName: exportFileName(`sales-settlement-${order.no}`, ctx.now),
    count: async () => {
      const [row] = await ctx.db
        .select({ n: sql<number>`count(*)::int` })
        .from(salesSettlementLines)
        .where(eq(salesSettlementLines.settlementId, s.id));
      return Number(row?.n ?? 0) + 12;
    },
    module: 'sales',
    detail: { order: order.no },
  });
}

export const settlementExportStatus = (input: { exportId: string }, ctx: CallContext) =>
  exportStatus(input, ctx, SETTLEMENT_EXPORT_KIND);
export const settlementExportDownload = (input: { exportId: string }, ctx: CallContext) =>
  exportDownload(input, ctx, SETTLEMENT_EXPORT_KIND);
