import {
  type CancelReason,
  type ExportStatus,
  fenToYuan,
  formatTime,
  hoursOfMask,
  isLocale,
  type Locale,
  type SalesOrderState,
} from '@marquee/protocol';
import { and, desc, lt, or, sql } from 'drizzle-orm';
import { type ScopeSubject, scopeSubjectOf } from '../../auth/scope.js';
import { salesOrders } from '../../db/schema/index.js';
import type { CallContext } from '../../protocol/handlers.js';
import { registerExportSource } from '../operationLog/exportJob.js';
import { beginExport, exportDownload, exportFileName, exportStatus } from '../operationLog/service.js';
import { frozenOf, type OrderFilter, type OrderViewRow, orderFilterWhere, selectOrders } from './orderQueries.js';

/**
 * The order list as an Excel workbook (salesOrderExportStart; the operation log's export
 * mechanism, kind 'salesOrders'): the orders of the list's filter the caller saw when it
 * started (its scope is stored with the filter, and orders placed afterwards are left out),
 * newest first, read in keyset batches; headers and states in the caller's language.
 */

export const ORDER_EXPORT_KIND = 'salesOrders';

export interface OrderExportSpec {
  user: ScopeSubject;
  filter: OrderFilter;
  /** Orders created after the start are not exported (a stable snapshot). */
  until: string;
  language: string;
}

const localeOf = (language: string): Locale => (isLocale(language) ? language : 'zh-CN');

const SHEET: Record<Locale, string> = { 'zh-CN': '广告位订单', 'en-US': 'Airtime orders', ja: '広告枠の注文' };
const HEADERS: Record<Locale, string[]> = {
  'zh-CN': [
    '订单号',
    '广告主',
    '商品',
    '状态',
    '开始日期',
    '结束日期',
    '时段',
    '子订单数',
    '屏幕数',
    '原价（元）',
    '订单金额（元）',
    '已支付（元）',
    '冻结中（元）',
    '已退还（元）',
    '优惠券',
    '取消原因',
    '下单人',
    '下单时间',
    '支付时间',
  ],
  'en-US': [
    'Order number',
    'Advertiser',
    'Goods',
    'State',
    'First day',
    'Last day',
    'Hours',
    'Sub-orders',
    'Screens',
    'List price (yuan)',
    'Amount (yuan)',
    'Paid (yuan)',
    'Frozen (yuan)',
    'Refunded (yuan)',
    'Coupon',
    'Cancel reason',
    'Placed by',
    'Placed at',
    'Paid at',
  ],
  ja: [
    '注文番号',
    '広告主',
    '商品',
    '状態',
    '開始日',
    '終了日',
    '時間帯',
    'サブ注文数',
    'デバイス数',
    '定価（元）',
    '注文金額（元）',
    '支払済み（元）',
    '凍結中（元）',
    '返金済み（元）',
    'クーポン',
    'キャンセル理由',
    '注文者',
    '注文日時',
    '支払日時',
  ],
};
const WIDTHS = [20, 20, 24, 12, 12, 12, 24, 10, 10, 14, 14, 14, 14, 14, 20, 14, 16, 20, 20];

const STATES: Record<Locale, Record<SalesOrderState, string>> = {
  'zh-CN': {
    unpaid: '待支付',
    paid: '已支付',
    cancelled: '已取消',
    settled: '已结算',
    toUpload: '待上传素材',
    inProgress: '投放中',
  },
  'en-US': {
    unpaid: 'Unpaid',
    paid: 'Paid',
    cancelled: 'Cancelled',
    settled: 'Settled',
    toUpload: 'To upload',
    inProgress: 'In progress',
  },
  ja: {
    unpaid: '未払い',
    paid: '支払済み',
    cancelled: 'キャンセル済み',
    settled: '精算済み',
    toUpload: '素材待ち',
    inProgress: '配信中',
  },
};
const REASONS: Record<Locale, Record<CancelReason, string>> = {
  'zh-CN': { buyer: '广告主取消', operator: '运营方取消', holdExpired: '保留超时', notStarted: '未能开始，全额退款' },
  'en-US': {
    buyer: 'By the advertiser',
    operator: 'By the operator',
    holdExpired: 'Hold expired',
    notStarted: 'Never started: refunded in full',
  },
  ja: {
    buyer: '広告主によるキャンセル',
    operator: '運営者によるキャンセル',
    holdExpired: '確保期限切れ',
    notStarted: '開始されず全額返金',
  },
};

/** Hours as ranges people read ('08:00-10:00, 20:00-24:00'; all day: the word for it). */
function hoursText(mask: number, locale: Locale): string {
  const hours = hoursOfMask(mask);
  if (hours.length === 24) return { 'zh-CN': '全天', 'en-US': 'All day', ja: '終日' }[locale];
  const parts: string[] = [];
  let i = 0;
  while (i < hours.length) {
    let j = i;
    while (j + 1 < hours.length && hours[j + 1] === hours[j] + 1) j++;
    parts.push(`${String(hours[i]).padStart(2, '0')}:00-${String(hours[j] + 1).padStart(2, '0')}:00`);
    i = j + 1;
  }
  return parts.join(', ');
}

const nameOf = (real: string | null | undefined, login: string | null | undefined) => real || login || '';

registerExportSource(ORDER_EXPORT_KIND, {
  sheetName: (language) => SHEET[localeOf(language)],
  columns(language) {
    return HEADERS[localeOf(language)].map((header, i) => ({ header, width: WIDTHS[i] }));
  },
  async *batches(services, filters, limit) {
    const spec = filters as unknown as OrderExportSpec;
    const locale = localeOf(spec.language);
    const until = new Date(spec.until);
    const where = and(
      orderFilterWhere(spec.user, spec.filter),
      sql`${salesOrders.createdAt} <= ${until.toISOString()}::timestamptz`,
    );
    let after: { createdAt: Date; id: string } | null = null;
    for (;;) {
      const rows: OrderViewRow[] = await selectOrders(services.db)
        .where(
          and(
            where,
            after
              ? or(
                  lt(salesOrders.createdAt, after.createdAt),
                  and(
                    sql`${salesOrders.createdAt} = ${after.createdAt.toISOString()}::timestamptz`,
                    lt(salesOrders.id, after.id),
                  ),
                )
              : undefined,
          ),
        )
        .orderBy(desc(salesOrders.createdAt), desc(salesOrders.id))
        .limit(limit);
      if (rows.length === 0) return;
      yield rows.map((r) => {
        const o = r.order;
        return [
          o.no,
          nameOf(r.advertiserReal, r.advertiserLogin),
          o.goodsName ?? '',
          STATES[locale][o.state] ?? o.state,
          o.startDate,
          o.endDate,
          hoursText(o.hoursMask, locale),
          Number(r.subOrders),
          Number(r.screens),
          fenToYuan(o.listAmount),
          fenToYuan(o.amount),
          fenToYuan(o.paidAmount),
          fenToYuan(frozenOf(o)),
          fenToYuan(o.refundedAmount),
          r.couponName ?? '',
          o.cancelReason ? REASONS[locale][o.cancelReason] : '',
          nameOf(r.creatorReal, r.creatorLogin),
          formatTime(o.createdAt),
          o.paidAt ? formatTime(o.paidAt) : '',
        ];
      });
      if (rows.length < limit) return;
      const last: OrderViewRow['order'] = rows[rows.length - 1].order;
      after = { createdAt: last.createdAt, id: last.id };
    }
  },
});

/** Starts the export of the caller's orders of the filter (salesOrderExportStart). */
export async function startOrderExport(filter: OrderFilter, ctx: CallContext): Promise<ExportStatus> {
  const spec: OrderExportSpec = {
    user: scopeSubjectOf(ctx.user),
    filter,
    until: ctx.now.toISOString(),
    language: ctx.language,
  };
  return beginExport(ctx, {
    kind: ORDER_EXPORT_KIND,
    filters: spec as unknown as Record<string, unknown> & { language: string },
    fileName: exportFileName('sales-orders', ctx.now),
    count: async () => {
      const [row] = await ctx.db
        .select({ n: sql<number>`count(*)::int` })
        .from(salesOrders)
        .where(orderFilterWhere(spec.user, filter));
      return Math.min(Number(row?.n ?? 0), 1_000_000);
    },
    module: 'sales',
    detail: { filter },
  });
}

export const orderExportStatus = (input: { exportId: string }, ctx: CallContext) =>
  exportStatus(input, ctx, ORDER_EXPORT_KIND);
export const orderExportDownload = (input: { exportId: string }, ctx: CallContext) =>
  exportDownload(input, ctx, ORDER_EXPORT_KIND);
