import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import {
  applyPercent,
  type Contract,
  canMove,
  ErrorCode,
  hoursOfMask,
  SYNC_TRANSITIONS,
  type SyncState,
} from '@marquee/protocol';
import { aliasedTable, and, asc, count, desc, eq, inArray, lte, or, type SQL, sql } from 'drizzle-orm';
import type { Principal } from '../../auth/principal.js';
import type { EsignConfig } from '../../config.js';
import type { Executor } from '../../db/client.js';
import {
  accounts,
  adSlots,
  enterprises,
  type SalesContractRow,
  salesContracts,
  salesOrderLines,
  salesOrders,
  salesPriceContracts,
} from '../../db/schema/index.js';
import { AppError, type LocalizedText } from '../../protocol/appError.js';
import type { AppServices } from '../../services.js';
import { enterpriseKey } from '../../storage/storage.js';
import { enterpriseZone } from '../timeZones/service.js';
import { type ContractDocument, type ContractSection, renderContractPdf } from './contractPdf.js';
import { EsignError, type EsignProvider, esignProvider } from './esign.js';
import { advertiserOwnedWhere } from './orderScope.js';

/**
 * Contracts of the airtime market (issue 28): the document of an order (paid or later) or of
 * a price contract, drawn up by the sales staff as a bilingual PDF kept in the file storage
 * (e/<ent>/contracts/<id>.pdf) with its SHA-256, then signed inside the product (the
 * advertiser confirms the hash it was shown; a signature page is appended as a second file)
 * or through the e-signature provider (esign.ts), whose sync moves by SYNC_TRANSITIONS:
 * unsynchronized -> synchronizing (sent; polled while the signer has not signed) ->
 * synchronized (signed there: the contract is signed with the provider's PDF) | failed (an
 * error or a rejection; retried with backoff up to ESIGN_MAX_ATTEMPTS, then by hand).
 * The provider is never called inside a database transaction: a row is claimed in one, the
 * provider called, the outcome recorded in another. A signed row is immutable (trigger, 0047).
 */

export const ContractText = {
  notFound: {
    'zh-CN': '合同不存在或无权查看',
    'en-US': 'The contract does not exist or is not visible to you',
    ja: '契約書が存在しないか、閲覧権限がありません',
  },
  subjectNotFound: {
    'zh-CN': '订单或价格合同不存在或无权查看',
    'en-US': 'The order or price contract does not exist or is not visible to you',
    ja: '注文または価格契約が存在しないか、閲覧権限がありません',
  },
  orderState: {
    'zh-CN': '只有已支付、待上传素材、投放中或已结算的订单可以拟定合同',
    'en-US': 'Only a paid, awaiting-materials, running or settled order can have a contract',
    ja: '契約書を作成できるのは、支払済み・素材待ち・配信中・精算済みの注文だけです',
  },
  exists: {
    'zh-CN': '该订单或价格合同已有合同',
    'en-US': 'This order or price contract already has a contract',
    ja: 'この注文または価格契約にはすでに契約書があります',
  },
  hashChanged: {
    'zh-CN': '合同文件已变化，请重新查看后再签署',
    'en-US': 'The contract document changed: view it again before signing',
    ja: '契約書のファイルが変わりました。もう一度確認してから署名してください',
  },
  signed: {
    'zh-CN': '合同已签署，不能再次签署或更改',
    'en-US': 'The contract is signed and can no longer be signed or changed',
    ja: '契約書は署名済みのため、再署名や変更はできません',
  },
  esignChannel: {
    'zh-CN': '该合同通过电子签章服务签署，不能在系统内签署',
    'en-US': 'This contract is signed through the e-signature provider, not in the product',
    ja: 'この契約書は電子署名サービスで署名するため、システム内では署名できません',
  },
  notEsign: {
    'zh-CN': '该合同不通过电子签章服务签署，无需同步',
    'en-US': 'This contract is not signed through the e-signature provider: nothing to sync',
    ja: 'この契約書は電子署名サービスを使わないため、同期の必要はありません',
  },
  syncing: {
    'zh-CN': '合同正在与电子签章服务同步或已同步',
    'en-US': 'The contract is being synchronized with the e-signature provider, or already is',
    ja: '契約書は電子署名サービスと同期中か、同期済みです',
  },
  fileMissing: {
    'zh-CN': '合同文件不存在',
    'en-US': 'The contract document is missing from the file storage',
    ja: '契約書のファイルが見つかりません',
  },
} satisfies Record<string, LocalizedText>;

type ScopeUser = Pick<Principal, 'entId' | 'accountId' | 'deptId' | 'deptPath' | 'dataScope'>;

/** The contracts the caller sees: those of the advertisers it sees (orderScope). */
export function contractWhere(user: ScopeUser): SQL {
  return advertiserOwnedWhere(user, salesContracts.advertiserId, salesContracts.entId);
}

/** The order states that may have a contract. */
export const CONTRACT_ORDER_STATES = ['paid', 'toUpload', 'inProgress', 'settled'] as const;

const nameOf = (real: string | null | undefined, login: string | null | undefined) => real || login || '';
const advertiserAccount = aliasedTable(accounts, 'contract_advertiser');
const creatorAccount = aliasedTable(accounts, 'contract_creator');
const signerAccount = aliasedTable(accounts, 'contract_signer');

function contractQuery(db: Executor) {
  return db
    .select({
      c: salesContracts,
      advertiserReal: advertiserAccount.realName,
      advertiserLogin: advertiserAccount.loginName,
      creatorReal: creatorAccount.realName,
      creatorLogin: creatorAccount.loginName,
      signerReal: signerAccount.realName,
      signerLogin: signerAccount.loginName,
      orderNo: salesOrders.no,
      priceContractNo: salesPriceContracts.number,
    })
    .from(salesContracts)
    .innerJoin(advertiserAccount, eq(advertiserAccount.id, salesContracts.advertiserId))
    .leftJoin(creatorAccount, eq(creatorAccount.id, salesContracts.createdBy))
    .leftJoin(signerAccount, eq(signerAccount.id, salesContracts.signedBy))
    .leftJoin(salesOrders, and(eq(salesContracts.kind, 'order'), eq(salesOrders.id, salesContracts.subjectId)))
    .leftJoin(
      salesPriceContracts,
      and(eq(salesContracts.kind, 'priceContract'), eq(salesPriceContracts.id, salesContracts.subjectId)),
    );
}

interface ContractJoined {
  c: SalesContractRow;
  advertiserReal: string;
  advertiserLogin: string;
  creatorReal: string | null;
  creatorLogin: string | null;
  signerReal: string | null;
  signerLogin: string | null;
  orderNo: string | null;
  priceContractNo: string | null;
}

function present(row: ContractJoined): Contract {
  const c = row.c;
  return {
    id: c.id,
    no: c.no,
    kind: c.kind,
    subjectId: c.subjectId,
    subjectNo: (c.kind === 'order' ? row.orderNo : row.priceContractNo) ?? '',
    advertiserId: c.advertiserId,
    advertiserName: nameOf(row.advertiserReal, row.advertiserLogin),
    title: c.title,
    state: c.state,
    channel: c.channel,
    syncState: c.syncState,
    syncAttempts: c.syncAttempts,
    syncError: c.syncError,
    sha256: c.sha256,
    bytes: c.bytes,
    signedBy: c.signedBy ? nameOf(row.signerReal, row.signerLogin) : c.signedByName,
    signedAt: c.signedAt?.toISOString() ?? null,
    createdBy: nameOf(row.creatorReal, row.creatorLogin),
    createdAt: c.createdAt.toISOString(),
    // The endpoint's permission (operateSignContract) and the visibility are checked by then.
    canSign: c.state === 'signing' && c.channel === 'internal',
  };
}

export interface ContractFilter {
  page: number;
  size: number;
  state?: Contract['state'];
  kind?: Contract['kind'];
  syncState?: SyncState;
  keyword?: string;
}

export async function listContracts(
  db: Executor,
  user: ScopeUser,
  f: ContractFilter,
): Promise<{ total: number; data: Contract[] }> {
  const conds: SQL[] = [contractWhere(user)];
  if (f.state) conds.push(eq(salesContracts.state, f.state));
  if (f.kind) conds.push(eq(salesContracts.kind, f.kind));
  if (f.syncState) conds.push(eq(salesContracts.syncState, f.syncState));
  if (f.keyword) {
    const like = `%${f.keyword.replace(/[\\%_]/g, (m) => `\\${m}`)}%`;
    conds.push(
      or(
        sql`${salesContracts.no} ilike ${like}`,
        sql`${salesContracts.title} ilike ${like}`,
        sql`${salesOrders.no} ilike ${like}`,
        sql`${salesPriceContracts.number} ilike ${like}`,
        sql`${advertiserAccount.realName} ilike ${like}`,
        sql`${advertiserAccount.loginName} ilike ${like}`,
      ) as SQL,
    );
  }
  const where = and(...conds);
  const [{ total }] = await db
    .select({ total: count() })
    .from(salesContracts)
    .innerJoin(advertiserAccount, eq(advertiserAccount.id, salesContracts.advertiserId))
    .leftJoin(salesOrders, and(eq(salesContracts.kind, 'order'), eq(salesOrders.id, salesContracts.subjectId)))
    .leftJoin(
      salesPriceContracts,
      and(eq(salesContracts.kind, 'priceContract'), eq(salesPriceContracts.id, salesContracts.subjectId)),
    )
    .where(where);
  const rows = await contractQuery(db)
    .where(where)
    .orderBy(desc(salesContracts.createdAt), desc(salesContracts.id))
    .limit(f.size)
    .offset((f.page - 1) * f.size);
  return { total: Number(total), data: rows.map(present) };
}

/** The contract as the caller sees it; NOT_FOUND when it does not exist or is not visible. */
export async function contractView(db: Executor, user: ScopeUser, id: string): Promise<Contract> {
  const [row] = await contractQuery(db).where(and(eq(salesContracts.id, id), contractWhere(user)));
  if (!row) throw new AppError(ErrorCode.NOT_FOUND, ContractText.notFound);
  return present(row);
}

/** The row visible to the caller (optionally locked); NOT_FOUND otherwise. */
export async function requireContract(
  db: Executor,
  user: ScopeUser,
  id: string,
  opts?: { lock?: boolean },
): Promise<SalesContractRow> {
  const q = db
    .select()
    .from(salesContracts)
    .where(and(eq(salesContracts.id, id), contractWhere(user)));
  const [row] = opts?.lock ? await q.for('update') : await q;
  if (!row) throw new AppError(ErrorCode.NOT_FOUND, ContractText.notFound);
  return row;
}

// ---- the document ----

/** Fen as yuan with two decimals and the currency sign. */
export function yuan(fen: number): string {
  const sign = fen < 0 ? '-' : '';
  const abs = Math.abs(fen);
  const whole = Math.floor(abs / 100)
    .toString()
    .replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${sign}¥${whole}.${String(abs % 100).padStart(2, '0')}`;
}

/** An integer percentage as the spec's discount (85 -> 0.85; 100 -> none). */
const discountText = (pct: number | null) => (pct == null || pct === 100 ? '—' : (pct / 100).toFixed(2));

/** Hours of a mask as ranges: "08:00–12:00, 18:00–22:00". */
export function hoursText(mask: number): string {
  const hours = hoursOfMask(mask);
  if (hours.length === 24) return '00:00–24:00';
  const ranges: string[] = [];
  let start = -1;
  for (let h = 0; h <= 24; h++) {
    const on = hours.includes(h);
    if (on && start < 0) start = h;
    if (!on && start >= 0) {
      ranges.push(`${String(start).padStart(2, '0')}:00–${String(h).padStart(2, '0')}:00`);
      start = -1;
    }
  }
  return ranges.join(', ');
}

const dayCount = (from: string, to: string) =>
  Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000) + 1;

export interface ContractSubject {
  kind: Contract['kind'];
  subjectId: string;
  subjectNo: string;
  advertiserId: string;
  title: string;
  /** The advertiser's phone (the e-signature provider's signer). */
  phone: string | null;
  /** Builds the document once the contract's number is known. */
  document(no: string, createdAt: Date): ContractDocument;
}

async function partyNames(
  db: Executor,
  entId: string,
  advertiserId: string,
): Promise<{ operator: string; advertiser: string; advertiserLogin: string; phone: string | null }> {
  const [ent] = await db.select({ name: enterprises.name }).from(enterprises).where(eq(enterprises.id, entId));
  const [adv] = await db
    .select({ real: accounts.realName, login: accounts.loginName, phone: accounts.phone })
    .from(accounts)
    .where(eq(accounts.id, advertiserId));
  return {
    operator: ent?.name ?? '',
    advertiser: nameOf(adv?.real, adv?.login),
    advertiserLogin: adv?.login ?? '',
    phone: adv?.phone ?? null,
  };
}

const PARTIES_HEADING = { zh: '一、合同双方', en: '1. Parties' };

function partiesSection(p: { operator: string; advertiser: string; advertiserLogin: string }): ContractSection {
  return {
    kind: 'fields',
    heading: PARTIES_HEADING,
    fields: [
      { label: { zh: '甲方（媒体运营方）', en: 'Party A (media operator)' }, value: p.operator },
      { label: { zh: '乙方（广告主）', en: 'Party B (advertiser)' }, value: `${p.advertiser} (${p.advertiserLogin})` },
    ],
  };
}

const SIGNING_TERMS: Extract<ContractSection, { kind: 'text' }> = {
  kind: 'text',
  heading: { zh: '四、其他约定', en: '4. Other terms' },
  paragraphs: [
    {
      zh: '本合同金额以人民币计。投放按上述广告位、屏幕、日期与时段执行，实际投放不足的部分按平台结算规则补播或退款。',
      en: 'Amounts are in Chinese yuan (CNY). Airtime runs on the slots, screens, days and hours above; what is under-delivered is made good or refunded by the platform settlement rules.',
    },
    {
      zh: '本合同经乙方确认文件摘要（SHA-256）后签署生效，签署后不可更改。',
      en: 'This contract takes effect once Party B confirms the document digest (SHA-256) and signs it; once signed it cannot change.',
    },
  ],
};

/**
 * The subject of a contract the caller may draw up (visible to it): an order in a state that
 * may have one (SALES_ORDER_STATE otherwise) or a price contract not deleted; NOT_FOUND when
 * it does not exist or is not visible.
 */
export async function loadSubject(
  db: Executor,
  user: ScopeUser,
  kind: Contract['kind'],
  subjectId: string,
): Promise<ContractSubject> {
  if (kind === 'order') {
    const [order] = await db
      .select()
      .from(salesOrders)
      .where(
        and(eq(salesOrders.id, subjectId), advertiserOwnedWhere(user, salesOrders.advertiserId, salesOrders.entId)),
      );
    if (!order) throw new AppError(ErrorCode.NOT_FOUND, ContractText.subjectNotFound);
    if (!(CONTRACT_ORDER_STATES as readonly string[]).includes(order.state))
      throw new AppError(ErrorCode.SALES_ORDER_STATE, ContractText.orderState);
    const lines = await db
      .select()
      .from(salesOrderLines)
      .where(eq(salesOrderLines.orderId, order.id))
      .orderBy(asc(salesOrderLines.position));
    const parties = await partyNames(db, order.entId, order.advertiserId);
    const days = dayCount(order.startDate, order.endDate);
    const hours = hoursText(order.hoursMask);
    const zone = await enterpriseZone(db, order.entId);
    const lineAmount = (list: number) => {
      const afterContract = applyPercent(list, order.contractDiscountPct);
      return order.couponDiscountPct == null ? afterContract : applyPercent(afterContract, order.couponDiscountPct);
    };
    const title = `广告投放合同 ${order.no}`;
    return {
      kind,
      subjectId: order.id,
      subjectNo: order.no,
      advertiserId: order.advertiserId,
      title,
      phone: parties.phone,
      document: (no, createdAt) => ({
        no,
        createdAt,
        zone,
        title: { zh: '广告位投放合同', en: 'Airtime Purchase Contract' },
        sections: [
          partiesSection(parties),
          {
            kind: 'fields',
            heading: { zh: '二、订单信息', en: '2. The order' },
            fields: [
              { label: { zh: '订单编号', en: 'Order No.' }, value: order.no },
              ...(order.goodsName ? [{ label: { zh: '商品', en: 'Goods' }, value: order.goodsName }] : []),
              {
                label: { zh: '投放日期', en: 'Days' },
                value: `${order.startDate} — ${order.endDate}（${days} 天 / ${days} days, ${zone}）`,
              },
              {
                label: { zh: '投放时段', en: 'Hours' },
                value: `${hours}（各设备当地时间 / each device's local time）`,
              },
            ],
          },
          {
            kind: 'table',
            heading: { zh: '三、投放明细与金额', en: '3. Sub-orders and amounts' },
            columns: [
              { label: { zh: '广告位', en: 'Slot' }, width: 16 },
              { label: { zh: '屏幕数', en: 'Screens' }, width: 7, align: 'right' },
              { label: { zh: '天数', en: 'Days' }, width: 6, align: 'right' },
              { label: { zh: '时段数', en: 'Hours' }, width: 6, align: 'right' },
              { label: { zh: '轮次/千次曝光', en: 'Rotations / k impr.' }, width: 10, align: 'right' },
              { label: { zh: '单价', en: 'Unit price' }, width: 10, align: 'right' },
              { label: { zh: '刊例价', en: 'List amount' }, width: 12, align: 'right' },
              { label: { zh: '折扣', en: 'Discounts' }, width: 10, align: 'right' },
              { label: { zh: '金额', en: 'Amount' }, width: 12, align: 'right' },
            ],
            rows: lines.map((l) => [
              `${l.slotName} (${l.salesMethod.toUpperCase()}, ${l.durationSec}s)`,
              String(l.screens),
              String(days),
              String(hoursOfMask(order.hoursMask).length),
              l.salesMethod === 'cpm' ? `${l.impressionsK ?? 0}k` : String(l.rotations),
              yuan(l.unitPrice),
              yuan(l.listAmount),
              [discountText(order.contractDiscountPct), discountText(order.couponDiscountPct)]
                .filter((d) => d !== '—')
                .join(' × ') || '—',
              yuan(lineAmount(l.listAmount)),
            ]),
            footer: [
              { label: { zh: '刊例总价', en: 'List total' }, value: yuan(order.listAmount) },
              {
                label: { zh: '价格合同折扣', en: 'Price contract discount' },
                value: discountText(order.contractDiscountPct),
              },
              { label: { zh: '优惠券折扣', en: 'Coupon discount' }, value: discountText(order.couponDiscountPct) },
              { label: { zh: '合同金额', en: 'Contract amount' }, value: yuan(order.amount) },
            ],
          },
          SIGNING_TERMS,
        ],
      }),
    };
  }
  const [pc] = await db
    .select()
    .from(salesPriceContracts)
    .where(
      and(
        eq(salesPriceContracts.id, subjectId),
        sql`${salesPriceContracts.deletedAt} is null`,
        advertiserOwnedWhere(user, salesPriceContracts.advertiserId, salesPriceContracts.entId),
      ),
    );
  if (!pc) throw new AppError(ErrorCode.NOT_FOUND, ContractText.subjectNotFound);
  const zone = await enterpriseZone(db, pc.entId);
  const parties = await partyNames(db, pc.entId, pc.advertiserId);
  const slotIds = pc.slotPrices.map((s) => s.slotId);
  const slots = slotIds.length
    ? await db
        .select({
          id: adSlots.id,
          number: adSlots.number,
          name: adSlots.name,
          method: adSlots.salesMethod,
          cpt: adSlots.cptPrice,
          cpm: adSlots.cpmPrice,
        })
        .from(adSlots)
        .where(inArray(adSlots.id, slotIds))
    : [];
  const slotById = new Map(slots.map((s) => [s.id, s]));
  return {
    kind,
    subjectId: pc.id,
    subjectNo: pc.number,
    advertiserId: pc.advertiserId,
    title: `价格合同 ${pc.name}`,
    phone: parties.phone,
    document: (no, createdAt) => ({
      no,
      zone,
      createdAt,
      title: { zh: '广告位价格合同', en: 'Airtime Price Agreement' },
      sections: [
        partiesSection(parties),
        {
          kind: 'fields',
          heading: { zh: '二、合同条款', en: '2. Terms' },
          fields: [
            { label: { zh: '价格合同编号', en: 'Price contract No.' }, value: pc.number },
            { label: { zh: '名称', en: 'Name' }, value: pc.name },
            { label: { zh: '折扣', en: 'Discount' }, value: discountText(pc.discountPct) },
            { label: { zh: '有效期', en: 'Validity' }, value: `${pc.validFrom} — ${pc.validTo} (${zone})` },
          ],
        },
        {
          kind: 'table',
          heading: { zh: '三、广告位协议价', en: '3. Slot prices' },
          columns: [
            { label: { zh: '广告位编号', en: 'Slot No.' }, width: 10 },
            { label: { zh: '广告位', en: 'Slot' }, width: 20 },
            { label: { zh: '售卖方式', en: 'Method' }, width: 8 },
            { label: { zh: '刊例价', en: 'List price' }, width: 10, align: 'right' },
            { label: { zh: '协议价', en: 'Agreed price' }, width: 10, align: 'right' },
          ],
          rows: pc.slotPrices.map((p) => {
            const s = slotById.get(p.slotId);
            const list = s ? (s.method === 'cpm' ? s.cpm : s.cpt) : null;
            return [
              s?.number ?? '',
              s?.name ?? p.slotId,
              s?.method.toUpperCase() ?? '',
              list == null ? '—' : yuan(list),
              yuan(p.unitPrice),
            ];
          }),
        },
        {
          ...SIGNING_TERMS,
          paragraphs: [
            {
              zh: '有效期内，乙方购买上述广告位按协议价计价，其余按刊例价并适用上述折扣。',
              en: 'Within the validity, Party B buys the slots above at the agreed prices, and others at the list price with the discount above.',
            },
            ...SIGNING_TERMS.paragraphs.slice(1),
          ],
        },
      ],
    }),
  };
}

export const sha256Hex = (data: Buffer) => createHash('sha256').update(data).digest('hex');

/** The storage key of a contract's document (signed: `<id>.signed.pdf`). */
export const contractFileKey = (entId: string, id: string, signed = false) =>
  enterpriseKey(entId, 'contracts', signed ? `${id}.signed.pdf` : `${id}.pdf`);

export async function putPdf(services: AppServices, key: string, pdf: Buffer): Promise<void> {
  await services.files.storage.put(key, Readable.from([pdf]), { contentType: 'application/pdf' });
}

export async function readPdf(services: AppServices, key: string): Promise<Buffer> {
  const got = await services.files.storage.get(key);
  if (!got) throw new AppError(ErrorCode.NOT_FOUND, ContractText.fileMissing);
  const chunks: Buffer[] = [];
  for await (const chunk of got.body) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
  return Buffer.concat(chunks);
}

/** Renders a subject's document; answers the PDF, its hash and how long it took. */
export async function renderSubject(
  subject: ContractSubject,
  no: string,
  createdAt: Date,
): Promise<{ pdf: Buffer; sha256: string; ms: number }> {
  const started = performance.now();
  const pdf = await renderContractPdf(subject.document(no, createdAt));
  return { pdf, sha256: sha256Hex(pdf), ms: performance.now() - started };
}

// ---- the e-signature sync ----

/** Wait after the n-th failed try before the next: 1, 2, 4, 8... minutes, at most an hour. */
export function syncBackoffMs(attempts: number): number {
  return Math.min(60, 2 ** Math.max(0, attempts - 1)) * 60_000;
}

/**
 * A contract being synchronized is polled again once this long passed since its last touch
 * (also the lease of a claim: a claim whose instance died is taken over after it).
 */
export const SYNC_POLL_MS = 60_000;

type Claimed = SalesContractRow;

/**
 * Claims a contract for one sync step (one transaction): an unsynchronized one, a failed one
 * (when `force`, or when its backoff passed and it has tries left), or a synchronizing one
 * whose last touch is older than SYNC_POLL_MS (polled; its lease lapsed). Answers the row, or
 * null when another instance has it or it is not due.
 */
async function claim(
  root: Executor,
  id: string,
  now: Date,
  maxAttempts: number,
  force: boolean,
): Promise<Claimed | null> {
  return root.transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(salesContracts)
      .where(and(eq(salesContracts.id, id), eq(salesContracts.channel, 'esign'), eq(salesContracts.state, 'signing')))
      .for('update', { skipLocked: true });
    if (!row?.syncState) return null;
    const from = row.syncState;
    const since = now.getTime() - row.updatedAt.getTime();
    const due =
      from === 'unsynchronized' ||
      (from === 'failed' && (force || (row.syncAttempts < maxAttempts && since >= syncBackoffMs(row.syncAttempts)))) ||
      (from === 'synchronizing' && since >= SYNC_POLL_MS);
    if (!due) return null;
    if (from !== 'synchronizing' && !canMove(SYNC_TRANSITIONS, from, 'synchronizing')) return null;
    const [claimed] = await tx
      .update(salesContracts)
      .set({ syncState: 'synchronizing', updatedAt: now, ...(force ? { syncAttempts: 0 } : {}) })
      .where(eq(salesContracts.id, id))
      .returning();
    return claimed ?? null;
  });
}

export type SyncOutcome = 'sent' | 'pending' | 'synchronized' | 'failed' | 'skipped';

/**
 * One sync step of an e-signature contract: claim, call the provider (send when it has no
 * ref yet, else ask its status), record. A provider error or a rejection fails it (attempts
 * counted; a rejected document is sent anew on the next try); signed, it becomes
 * synchronized and the contract signed with the provider's PDF.
 */
export async function syncContract(
  services: AppServices,
  id: string,
  now: Date,
  opts: { force?: boolean; provider?: EsignProvider | null } = {},
): Promise<SyncOutcome> {
  const config: EsignConfig = services.config.esign;
  const provider = opts.provider === undefined ? esignProvider(config) : opts.provider;
  if (!provider) return 'skipped';
  const row = await claim(services.db, id, now, config.maxAttempts, opts.force ?? false);
  if (!row) return 'skipped';
  let outcome:
    | { kind: 'sent'; ref: string }
    | { kind: 'pending' }
    | { kind: 'signed'; pdf: Buffer; signedAt: Date; signerName: string | null }
    | { kind: 'failed'; error: string; rejected: boolean };
  try {
    if (!row.providerRef) {
      const pdf = await readPdf(services, row.fileKey);
      const [adv] = await services.db
        .select({ real: accounts.realName, login: accounts.loginName, phone: accounts.phone })
        .from(accounts)
        .where(eq(accounts.id, row.advertiserId));
      const signer = { name: nameOf(adv?.real, adv?.login), ...(adv?.phone ? { phone: adv.phone } : {}) };
      const { ref } = await provider.send({ id: row.id, no: row.no, title: row.title, pdf, signer });
      outcome = { kind: 'sent', ref };
    } else {
      const status = await provider.status(row.providerRef);
      if (status.state === 'pending') outcome = { kind: 'pending' };
      else if (status.state === 'rejected')
        outcome = { kind: 'failed', error: 'rejected by the signer', rejected: true };
      else if (!status.signedPdf) outcome = { kind: 'failed', error: 'signed without the signed PDF', rejected: false };
      else
        outcome = {
          kind: 'signed',
          pdf: status.signedPdf,
          signedAt: status.signedAt ?? now,
          signerName: status.signerName ?? null,
        };
    }
  } catch (error) {
    const message = error instanceof EsignError ? error.message : `${(error as Error)?.message ?? String(error)}`;
    outcome = { kind: 'failed', error: message.slice(0, 500), rejected: false };
  }
  if (outcome.kind === 'signed') {
    const signedKey = contractFileKey(row.entId, row.id, true);
    await putPdf(services, signedKey, outcome.pdf);
    const signed = outcome;
    const moved = await services.db
      .update(salesContracts)
      .set({
        state: 'signed',
        syncState: 'synchronized',
        syncError: null,
        signedFileKey: signedKey,
        signedSha256: sha256Hex(signed.pdf),
        signedByName: signed.signerName,
        signedAt: signed.signedAt,
        updatedAt: now,
      })
      .where(
        and(
          eq(salesContracts.id, row.id),
          eq(salesContracts.state, 'signing'),
          eq(salesContracts.syncState, 'synchronizing'),
        ),
      )
      .returning({ id: salesContracts.id });
    return moved.length ? 'synchronized' : 'skipped';
  }
  const patch =
    outcome.kind === 'sent'
      ? { providerRef: outcome.ref, syncError: null }
      : outcome.kind === 'pending'
        ? {}
        : {
            syncState: 'failed' as const,
            syncError: outcome.error,
            syncAttempts: sql`${salesContracts.syncAttempts} + 1`,
            ...(outcome.rejected ? { providerRef: null } : {}),
          };
  await services.db
    .update(salesContracts)
    .set({ ...patch, updatedAt: now })
    .where(and(eq(salesContracts.id, row.id), eq(salesContracts.syncState, 'synchronizing')));
  return outcome.kind === 'sent' ? 'sent' : outcome.kind === 'pending' ? 'pending' : 'failed';
}

/** The e-signature contracts due for a sync step at `now` (the job's batch). */
export async function dueContracts(root: Executor, now: Date, maxAttempts: number, batch = 200): Promise<string[]> {
  const rows = await root
    .select({ id: salesContracts.id })
    .from(salesContracts)
    .where(
      and(
        eq(salesContracts.channel, 'esign'),
        eq(salesContracts.state, 'signing'),
        or(
          eq(salesContracts.syncState, 'unsynchronized'),
          and(
            eq(salesContracts.syncState, 'synchronizing'),
            lte(salesContracts.updatedAt, new Date(now.getTime() - SYNC_POLL_MS)),
          ),
          and(eq(salesContracts.syncState, 'failed'), sql`${salesContracts.syncAttempts} < ${maxAttempts}`),
        ),
      ),
    )
    .orderBy(asc(salesContracts.updatedAt))
    .limit(batch);
  return rows.map((r) => r.id);
}
