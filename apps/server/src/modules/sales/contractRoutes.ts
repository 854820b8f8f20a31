import { randomUUID } from 'node:crypto';
import { ErrorCode, endpoints } from '@marquee/protocol';
import { and, eq } from 'drizzle-orm';
import { isUniqueViolation } from '../../db/errors.js';
import { accounts, salesContracts } from '../../db/schema/index.js';
import { AppError } from '../../protocol/appError.js';
import { type CallContext, defineHandler, type FileAnswer, type Handler } from '../../protocol/handlers.js';
import { enterpriseZone } from '../timeZones/service.js';
import { appendSignaturePage } from './contractPdf.js';
import {
  ContractText,
  contractFileKey,
  contractView,
  listContracts,
  loadSubject,
  putPdf,
  readPdf,
  renderSubject,
  requireContract,
  sha256Hex,
  syncContract,
} from './contracts.js';
import { esignProvider } from './esign.js';
import { nextDocNo } from './numbers.js';

/**
 * The contract endpoints of the sales module (issue 28; contracts.ts): the list, one
 * contract, drawing one up (the PDF is rendered before the transaction), signing it inside
 * the product, retrying its e-signature sync (the provider is called before the
 * transaction that logs the retry, never inside one), and its PDF.
 */

const esignUnavailable = () =>
  new AppError(ErrorCode.ESIGN_UNAVAILABLE, {
    'zh-CN': '未配置电子签章服务（ESIGN_URL）',
    'en-US': 'No e-signature provider is configured (ESIGN_URL)',
    ja: '電子署名サービスが設定されていません（ESIGN_URL）',
  });

interface Drawn {
  id: string;
  no: string;
  title: string;
  advertiserId: string;
  pdf: Buffer;
  sha256: string;
}

async function drawUp(
  input: { kind: 'order' | 'priceContract'; subjectId: string; channel: 'internal' | 'esign' },
  ctx: CallContext,
): Promise<Drawn> {
  if (input.channel === 'esign' && !ctx.services.config.esign.url) throw esignUnavailable();
  const subject = await loadSubject(ctx.db, ctx.user, input.kind, input.subjectId);
  const [existing] = await ctx.db
    .select({ id: salesContracts.id })
    .from(salesContracts)
    .where(and(eq(salesContracts.kind, input.kind), eq(salesContracts.subjectId, input.subjectId)));
  if (existing) throw new AppError(ErrorCode.CONFLICT, ContractText.exists);
  const no = await nextDocNo(ctx.db, 'C', ctx.now);
  const { pdf, sha256, ms } = await renderSubject(subject, no, ctx.now);
  ctx.log.debug({ no, bytes: pdf.length, ms: Math.round(ms) }, 'contract rendered');
  return { id: randomUUID(), no, title: subject.title, advertiserId: subject.advertiserId, pdf, sha256 };
}

async function createContract(
  input: { kind: 'order' | 'priceContract'; subjectId: string; channel: 'internal' | 'esign' },
  ctx: CallContext,
  drawn: Drawn,
) {
  // The subject may have moved since prepare: checked again in the transaction.
  await loadSubject(ctx.db, ctx.user, input.kind, input.subjectId);
  const fileKey = contractFileKey(ctx.user.entId, drawn.id);
  try {
    await ctx.db.insert(salesContracts).values({
      id: drawn.id,
      entId: ctx.user.entId,
      no: drawn.no,
      kind: input.kind,
      subjectId: input.subjectId,
      advertiserId: drawn.advertiserId,
      title: drawn.title,
      fileKey,
      sha256: drawn.sha256,
      bytes: drawn.pdf.length,
      state: 'signing',
      channel: input.channel,
      syncState: input.channel === 'esign' ? 'unsynchronized' : null,
      createdBy: ctx.user.accountId,
      createdAt: ctx.now,
      updatedAt: ctx.now,
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError(ErrorCode.CONFLICT, ContractText.exists);
    throw error;
  }
  await putPdf(ctx.services, fileKey, drawn.pdf);
  await ctx.audit({
    module: 'sales',
    action: 'contractCreate',
    targetType: 'salesContract',
    targetId: drawn.id,
    targetName: drawn.no,
    detail: {
      kind: input.kind,
      subjectId: input.subjectId,
      channel: input.channel,
      sha256: drawn.sha256,
      bytes: drawn.pdf.length,
    },
  });
  return contractView(ctx.db, ctx.user, drawn.id);
}

type SignRow = Awaited<ReturnType<typeof requireContract>>;

function checkSignable(row: SignRow, sha256: string): void {
  if (row.channel !== 'internal') throw new AppError(ErrorCode.CONTRACT_STATE, ContractText.esignChannel);
  if (row.state !== 'signing') throw new AppError(ErrorCode.CONTRACT_STATE, ContractText.signed);
  if (row.sha256 !== sha256) throw new AppError(ErrorCode.CONTRACT_STATE, ContractText.hashChanged);
}

interface Signed {
  pdf: Buffer;
  sha256: string;
  signedAt: Date;
}

async function prepareSign(input: { id: string; sha256: string }, ctx: CallContext): Promise<Signed> {
  const row = await requireContract(ctx.db, ctx.user, input.id);
  checkSignable(row, input.sha256);
  const original = await readPdf(ctx.services, row.fileKey);
  // The stored file must still be the one whose hash the signer confirmed.
  if (sha256Hex(original) !== row.sha256) throw new AppError(ErrorCode.CONTRACT_STATE, ContractText.hashChanged);
  const [adv] = await ctx.db
    .select({ real: accounts.realName, login: accounts.loginName })
    .from(accounts)
    .where(eq(accounts.id, row.advertiserId));
  const pdf = await appendSignaturePage(original, {
    no: row.no,
    signerName: ctx.user.realName || ctx.user.loginName,
    signerLogin: ctx.user.loginName,
    advertiserName: adv?.real || adv?.login || '',
    signedAt: ctx.now,
    zone: await enterpriseZone(ctx.db, row.entId),
    sha256: row.sha256,
    bytes: row.bytes,
  });
  return { pdf, sha256: sha256Hex(pdf), signedAt: ctx.now };
}

async function signContract(input: { id: string; sha256: string }, ctx: CallContext, signed: Signed) {
  const row = await requireContract(ctx.db, ctx.user, input.id, { lock: true });
  checkSignable(row, input.sha256);
  const signedKey = contractFileKey(row.entId, row.id, true);
  await putPdf(ctx.services, signedKey, signed.pdf);
  const moved = await ctx.db
    .update(salesContracts)
    .set({
      state: 'signed',
      signedFileKey: signedKey,
      signedSha256: signed.sha256,
      signedBy: ctx.user.accountId,
      signedAt: signed.signedAt,
      updatedAt: ctx.now,
    })
    .where(
      and(eq(salesContracts.id, row.id), eq(salesContracts.state, 'signing'), eq(salesContracts.sha256, input.sha256)),
    )
    .returning({ id: salesContracts.id });
  if (moved.length === 0) throw new AppError(ErrorCode.CONTRACT_STATE, ContractText.signed);
  await ctx.audit({
    module: 'sales',
    action: 'contractSign',
    targetType: 'salesContract',
    targetId: row.id,
    targetName: row.no,
    detail: { sha256: row.sha256, signedSha256: signed.sha256, onBehalf: ctx.user.accountId !== row.advertiserId },
  });
  return contractView(ctx.db, ctx.user, row.id);
}

async function prepareSync(input: { id: string }, ctx: CallContext): Promise<{ outcome: string; from: string | null }> {
  const row = await requireContract(ctx.db, ctx.user, input.id);
  if (row.channel !== 'esign') throw new AppError(ErrorCode.CONTRACT_STATE, ContractText.notEsign);
  if (row.state !== 'signing' || (row.syncState !== 'failed' && row.syncState !== 'unsynchronized'))
    throw new AppError(ErrorCode.CONTRACT_STATE, ContractText.syncing);
  const provider = esignProvider(ctx.services.config.esign);
  if (!provider) throw esignUnavailable();
  // Outside any transaction: claim, call the provider, record (contracts.ts).
  const outcome = await syncContract(ctx.services, row.id, ctx.now, { force: true, provider });
  return { outcome, from: row.syncState };
}

async function logSync(input: { id: string }, ctx: CallContext, done: { outcome: string; from: string | null }) {
  const row = await requireContract(ctx.db, ctx.user, input.id);
  await ctx.audit({
    module: 'sales',
    action: 'contractSync',
    targetType: 'salesContract',
    targetId: row.id,
    targetName: row.no,
    detail: { from: done.from, outcome: done.outcome, syncState: row.syncState, syncError: row.syncError },
  });
  return contractView(ctx.db, ctx.user, row.id);
}

async function download(input: { id: string }, ctx: CallContext): Promise<FileAnswer> {
  const row = await requireContract(ctx.db, ctx.user, input.id);
  const key = row.state === 'signed' && row.signedFileKey ? row.signedFileKey : row.fileKey;
  const got = await ctx.services.files.storage.get(key);
  if (!got) throw new AppError(ErrorCode.NOT_FOUND, ContractText.fileMissing);
  return {
    fileName: row.state === 'signed' ? `${row.no}-signed.pdf` : `${row.no}.pdf`,
    contentType: 'application/pdf',
    data: got.body,
  };
}

/** The contract endpoints of the sales module (issue 28). */
export const contractHandlers: Handler[] = [
  defineHandler(endpoints.salesContractList, { handle: (input, ctx) => listContracts(ctx.db, ctx.user, input) }),
  defineHandler(endpoints.salesContractInfo, { handle: (input, ctx) => contractView(ctx.db, ctx.user, input.id) }),
  defineHandler(endpoints.salesContractCreate, { prepare: drawUp, handle: createContract }),
  defineHandler(endpoints.salesContractSign, { prepare: prepareSign, handle: signContract }),
  defineHandler(endpoints.salesContractSync, { prepare: prepareSync, handle: logSync }),
  defineHandler(endpoints.salesContractDownload, { handle: download }),
] as Handler[];
