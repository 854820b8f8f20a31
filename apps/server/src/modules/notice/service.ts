import { ErrorCode, hasPermission, Perm } from '@marquee/protocol';
import type { Executor } from '../../db/client.js';
import { AppError } from '../../protocol/appError.js';
import type { CallContext } from '../../protocol/handlers.js';
import { messages } from '../../protocol/messages.js';
import { registerLetterRule } from '../stationLetter/rules.js';
import type { NoticePage } from './cache.js';
import { toNotice } from './presenter.js';
import {
  decideApplication,
  findApplicationForUpdate,
  grantMonitorAccess,
  insertMonitorApplication,
  insertNotice,
  listNotices,
  pendingApplications,
} from './repository.js';
import { sanitizeHtml } from './sanitize.js';

/**
 * Station letter (issue 8): a monitor application waits for a decision. Computed from the
 * applications when the letters are read, for those who may decide (the notice permission).
 */
registerLetterRule<{ applicant: string }>({
  kind: 'notice.monitorPending',
  render: ({ applicant }, language) =>
    ({
      'zh-CN': `${applicant} 申请监播您的屏幕，请在“通知”中同意或拒绝`,
      'en-US': `${applicant} asks to monitor your screens: agree or refuse in Notices`,
      ja: `${applicant} から画面の監視申請が届いています。「お知らせ」で承認または拒否してください`,
    })[language],
  async compute(db, reader) {
    if (!hasPermission(reader.permissions, Perm.notice)) return [];
    const rows = await pendingApplications(db, reader.entId, 5);
    return rows.map((r) => ({ applicant: r.applicant }));
  },
});

/** The caller's enterprise's notices and the platform-wide ones, newest first. */
export async function noticeList(
  input: { page: number; size: number; pushPlatform: number },
  ctx: CallContext,
): Promise<NoticePage> {
  const entId = ctx.user.entId;
  const cache = ctx.services.notices;
  const key = cache.key(entId, input.pushPlatform, input.page, input.size);
  const now = ctx.now.getTime();
  const hit = cache.get(key, now);
  if (hit) return hit;
  const { total, rows } = await listNotices(ctx.db, entId, input);
  // Frozen: shared by every caller of the enterprise, and checked and serialized only once.
  const page = Object.freeze({
    total,
    data: Object.freeze(rows.map((row) => Object.freeze(toNotice(row)))),
  }) as NoticePage;
  cache.set(key, page, now);
  return page;
}

/**
 * Agrees to (status 1) or refuses (0) the pending monitor application behind a system
 * notice of the caller's enterprise. Agreeing grants the monitor account access.
 */
export async function monitorApply(input: { noticeId: string; status: 0 | 1 }, ctx: CallContext): Promise<null> {
  const user = ctx.user;
  const application = await findApplicationForUpdate(ctx.db, user.entId, input.noticeId);
  if (!application) throw new AppError(ErrorCode.NOT_FOUND);
  const status = input.status === 1 ? 'agreed' : 'refused';
  if (
    application.status !== 'pending' ||
    !(await decideApplication(ctx.db, user.entId, application.id, {
      status,
      decidedBy: user.accountId,
      decidedAt: ctx.now,
    }))
  ) {
    throw new AppError(ErrorCode.CONFLICT, messages.reviewDecided);
  }
  if (status === 'agreed') {
    await grantMonitorAccess(ctx.db, {
      entId: user.entId,
      monitorAccountId: application.applicantAccountId,
      applicationId: application.id,
      grantedBy: user.accountId,
      at: ctx.now,
    });
  }
  await ctx.audit({
    module: 'notice',
    action: status === 'agreed' ? 'monitorApply.agree' : 'monitorApply.refuse',
    targetType: 'monitor_application',
    targetId: application.id,
    // Named by the notice that carried it, as the reader saw it.
    targetName: application.noticeTitle,
    detail: { noticeId: input.noticeId, monitorAccountId: application.applicantAccountId },
  });
  ctx.afterCommit(() => ctx.services.notices.invalidateEnterprise(user.entId));
  return null;
}

export interface NewNotice {
  /** Null for a platform-wide notice. */
  entId: string | null;
  type?: string;
  title: string;
  /** HTML; sanitised here, so stored content is always safe to render. */
  content: string;
  pushPlatform?: number;
  createdBy?: string | null;
  createdAt?: Date;
}

/**
 * Creates a notice (seed, tests, and later the notice management pages). A caller inside a
 * call must also drop cached pages after commit: `services.notices.invalidateEnterprise`
 * for an enterprise notice, `services.notices.clear` for a platform-wide one.
 */
export async function createNotice(db: Executor, notice: NewNotice): Promise<{ id: string }> {
  return insertNotice(db, {
    entId: notice.entId,
    type: notice.type ?? 'general',
    title: notice.title,
    content: await sanitizeHtml(notice.content),
    pushPlatform: notice.pushPlatform ?? 1,
    createdBy: notice.createdBy ?? null,
    createdAt: notice.createdAt,
  });
}

/** A monitor account asks to monitor an enterprise: a system notice with a pending application. */
export async function createMonitorApplication(
  db: Executor,
  input: { entId: string; applicantAccountId: string; title: string; content: string; createdAt?: Date },
): Promise<{ noticeId: string; applicationId: string }> {
  const notice = await createNotice(db, {
    entId: input.entId,
    type: 'system',
    title: input.title,
    content: input.content,
    createdBy: input.applicantAccountId,
    createdAt: input.createdAt,
  });
  const application = await insertMonitorApplication(db, {
    entId: input.entId,
    noticeId: notice.id,
    applicantAccountId: input.applicantAccountId,
    createdAt: input.createdAt,
  });
  return { noticeId: notice.id, applicationId: application.id };
}
