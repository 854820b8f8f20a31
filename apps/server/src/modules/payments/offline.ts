import { randomUUID } from 'node:crypto';
import {
  ErrorCode,
  type OfflinePayment,
  PAY_ORDER_TTL_MINUTES,
  type paymentEndpoints,
  type UploadSignature,
  type VOUCHER_TYPES,
} from '@marquee/protocol';
import { and, eq, inArray, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import { offlinePayments, payOrders, payVouchers } from '../../db/schema/index.js';
import { AppError } from '../../protocol/appError.js';
import type { CallContext } from '../../protocol/handlers.js';
import { enterpriseKey } from '../../storage/storage.js';
import { walletView, walletWhere } from '../ledger/walletScope.js';
import { presentOffline } from './presenter.js';
import {
  findOfflineView,
  freeVouchers,
  latestOfflineView,
  listOfflineViews,
  lockOrder,
  type OfflineView,
  orderWalletColumn,
  vouchersOf,
} from './repository.js';
import { markPaid } from './settle.js';
import { PaymentText } from './texts.js';

/**
 * Offline payment (issue 26, /payUnderline): the payer records the bank transfer that pays an
 * order with its vouchers (images or PDFs uploaded straight to storage), the order waits for
 * review, and the platform operator confirms it (the order is paid: a recharge credits the
 * wallet from the offline clearing account, exactly once) or rejects it (nothing is credited,
 * the order is unpaid again).
 */

type Req<K extends keyof typeof paymentEndpoints> = z.infer<(typeof paymentEndpoints)[K]['request']>;

const VOUCHER_EXT: Record<(typeof VOUCHER_TYPES)[number], string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'application/pdf': 'pdf',
};

const auditOffline = (
  ctx: CallContext,
  action: string,
  target: { id: string; no: string },
  detail?: Record<string, unknown>,
) =>
  ctx.audit({ module: 'payments', action, targetType: 'payOrder', targetId: target.id, targetName: target.no, detail });

async function visibleWhere(ctx: CallContext): Promise<{ where: SQL; platform: boolean }> {
  const view = await walletView(ctx.db, ctx.user);
  return { where: walletWhere(view, orderWalletColumn), platform: view.platform };
}

/** The offline transfers as answers, with fresh signed URLs of their vouchers. */
async function present(ctx: CallContext, views: readonly OfflineView[]): Promise<OfflinePayment[]> {
  const vouchers = await vouchersOf(
    ctx.db,
    views.map((v) => v.offline.id),
  );
  return Promise.all(
    views.map(async (v) =>
      presentOffline(
        v,
        await Promise.all(
          (vouchers.get(v.offline.id) ?? []).map(async (f) => ({
            url: await ctx.services.files.directUrl(f.fileKey),
            contentType: f.contentType,
            name: f.fileName,
          })),
        ),
      ),
    ),
  );
}

/** The latest offline transfer of an order (payment.info), presented; the caller checked the order's visibility. */
export async function presentOfflineViews(
  ctx: CallContext,
  _which: 'latest',
  orderId: string,
): Promise<OfflinePayment[]> {
  const latest = await latestOfflineView(ctx.db, orderId);
  return latest ? present(ctx, [latest]) : [];
}

/** Signs the direct upload of one voucher of an unpaid order's bank transfer. */
export async function applyVoucher(
  input: Req<'paymentVoucherApply'>,
  ctx: CallContext,
): Promise<UploadSignature & { voucherId: string }> {
  const { where } = await visibleWhere(ctx);
  const order = await lockOrder(ctx.db, input.orderId, where);
  if (!order) throw new AppError(ErrorCode.NOT_FOUND, PaymentText.orderNotFound);
  if (order.state !== 'unpaid') throw new AppError(ErrorCode.PAYMENT_NOT_PAYABLE, PaymentText.notPayable);
  const voucherId = randomUUID();
  const key = enterpriseKey(order.entId, 'vouchers', order.id, `${voucherId}.${VOUCHER_EXT[input.contentType]}`);
  await ctx.db.insert(payVouchers).values({
    id: voucherId,
    orderId: order.id,
    fileKey: key,
    fileName: input.fileName,
    contentType: input.contentType,
    size: input.size,
    createdBy: ctx.user.accountId,
    createdAt: ctx.now,
  });
  const signature = ctx.services.files.createUpload({
    entId: order.entId,
    key,
    minBytes: input.size,
    maxBytes: input.size,
    contentTypes: [input.contentType],
  });
  await auditOffline(ctx, 'voucherApply', order, { voucherId, fileName: input.fileName, size: input.size });
  return { ...signature, voucherId };
}

/** Records the bank transfer that pays an unpaid order, with its uploaded vouchers: the order waits for review. */
export async function submitOffline(input: Req<'paymentOfflineSubmit'>, ctx: CallContext): Promise<OfflinePayment> {
  const { where } = await visibleWhere(ctx);
  const order = await lockOrder(ctx.db, input.orderId, where);
  if (!order) throw new AppError(ErrorCode.NOT_FOUND, PaymentText.orderNotFound);
  if (order.state !== 'unpaid') throw new AppError(ErrorCode.PAYMENT_NOT_PAYABLE, PaymentText.notPayable);
  const ids = [...new Set(input.voucherIds)];
  const vouchers = await freeVouchers(ctx.db, order.id, ids);
  if (vouchers.length !== ids.length) throw new AppError(ErrorCode.UPLOAD_INCOMPLETE, PaymentText.voucherMissing);
  for (const v of vouchers) {
    if (!(await ctx.services.files.storage.exists(v.fileKey))) {
      throw new AppError(ErrorCode.UPLOAD_INCOMPLETE, PaymentText.voucherMissing);
    }
  }
  await ctx.db
    .update(payOrders)
    .set({ state: 'review', updatedAt: ctx.now })
    .where(and(eq(payOrders.id, order.id), eq(payOrders.state, 'unpaid')));
  const [row] = await ctx.db
    .insert(offlinePayments)
    .values({
      orderId: order.id,
      entId: order.entId,
      payerName: input.payerName,
      bankName: input.bankName,
      bankAccount: input.bankAccount,
      transferNo: input.transferNo,
      transferredAt: new Date(input.transferredAt),
      remark: input.remark,
      state: 'submitted',
      submittedBy: ctx.user.accountId,
      createdAt: ctx.now,
    })
    .returning({ id: offlinePayments.id });
  await ctx.db.update(payVouchers).set({ offlineId: row.id }).where(inArray(payVouchers.id, ids));
  await auditOffline(ctx, 'offlineSubmit', order, {
    offlineId: row.id,
    amount: order.amount,
    transferNo: input.transferNo,
    vouchers: ids.length,
  });
  return presentOne(ctx, row.id, where);
}

async function presentOne(ctx: CallContext, id: string, where: SQL): Promise<OfflinePayment> {
  const view = await findOfflineView(ctx.db, id, where);
  if (!view) throw new AppError(ErrorCode.NOT_FOUND, PaymentText.offlineNotFound);
  const [answer] = await present(ctx, [view]);
  return answer;
}

/** Offline transfers: the platform operator's every enterprise's, others those of the wallets they see. */
export async function listOffline(input: Req<'paymentOfflineList'>, ctx: CallContext) {
  const { where } = await visibleWhere(ctx);
  const { total, rows } = await listOfflineViews(ctx.db, where, input, input);
  return { total, data: await present(ctx, rows) };
}

/** The submitted transfer, locked, for the platform operator's review (NOT_FOUND to anyone else). */
async function claimForReview(ctx: CallContext, id: string) {
  const { where, platform } = await visibleWhere(ctx);
  if (!platform) throw new AppError(ErrorCode.NOT_FOUND, PaymentText.offlineNotFound);
  const [row] = await ctx.db.select().from(offlinePayments).where(eq(offlinePayments.id, id)).for('update');
  if (!row) throw new AppError(ErrorCode.NOT_FOUND, PaymentText.offlineNotFound);
  if (row.state !== 'submitted') throw new AppError(ErrorCode.CONFLICT, PaymentText.offlineReviewed);
  const [order] = await ctx.db.select().from(payOrders).where(eq(payOrders.id, row.orderId)).for('update');
  return { row, order, where };
}

/** The platform operator confirms the money arrived: the order is paid, exactly once. */
export async function confirmOffline(input: Req<'paymentOfflineConfirm'>, ctx: CallContext): Promise<OfflinePayment> {
  const { row, order, where } = await claimForReview(ctx, input.id);
  await ctx.db
    .update(offlinePayments)
    .set({ state: 'confirmed', reviewedBy: ctx.user.accountId, reviewedAt: ctx.now })
    .where(and(eq(offlinePayments.id, row.id), eq(offlinePayments.state, 'submitted')));
  const paid = await markPaid(ctx.db, order.id, {
    method: 'offline',
    arrivalKey: row.id,
    now: ctx.now,
    actorId: ctx.user.accountId,
  });
  await auditOffline(ctx, 'offlineConfirm', order, { offlineId: row.id, amount: order.amount, status: paid.status });
  return presentOne(ctx, row.id, where);
}

/** An order with an expiry that comes back unpaid gets the usual time to be paid again. */
function payAgainBy(expiresAt: Date | null, now: Date): Date | null {
  if (!expiresAt) return null;
  const again = new Date(now.getTime() + PAY_ORDER_TTL_MINUTES * 60_000);
  return expiresAt > again ? expiresAt : again;
}

/** The platform operator refuses the transfer: nothing is credited, the order is unpaid again. */
export async function rejectOffline(input: Req<'paymentOfflineReject'>, ctx: CallContext): Promise<OfflinePayment> {
  const { row, order, where } = await claimForReview(ctx, input.id);
  await ctx.db
    .update(offlinePayments)
    .set({ state: 'rejected', reason: input.reason, reviewedBy: ctx.user.accountId, reviewedAt: ctx.now })
    .where(eq(offlinePayments.id, row.id));
  await ctx.db
    .update(payOrders)
    .set({ state: 'unpaid', expiresAt: payAgainBy(order.expiresAt, ctx.now), updatedAt: ctx.now })
    .where(and(eq(payOrders.id, order.id), eq(payOrders.state, 'review')));
  await auditOffline(ctx, 'offlineReject', order, { offlineId: row.id, reason: input.reason });
  return presentOne(ctx, row.id, where);
}
