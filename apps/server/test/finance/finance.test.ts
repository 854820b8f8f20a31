import {
  ENDPOINT_LIST,
  ErrorCode,
  type ExportStatus,
  endpoints,
  type Movement,
  type PlatformAccount,
  type Wallet,
} from '@marquee/protocol';
import { and, eq, sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HANDLERS } from '../../src/app.js';
import type { Executor } from '../../src/db/client.js';
import { advertisers, invoices, ledgerAccounts, operationLogs, payOrders } from '../../src/db/schema/index.js';
import {
  ensureAdvertiserWallet,
  ensureEnterpriseWallet,
  ensurePlatformAccount,
} from '../../src/modules/ledger/accounts.js';
import { statementMonth, transfer } from '../../src/modules/ledger/ledger.js';
import { defineHandler } from '../../src/protocol/handlers.js';
import {
  type ApiClient,
  BACKENDS,
  createEnterprise,
  createTestApp,
  createUser,
  DAY,
  type TestApp,
  type TestEnterprise,
  uniqueName,
} from '../helpers/index.js';

/**
 * The finance centre (issue 26): who sees which wallet, a wallet's movements with their
 * running balance, causes and filters, monthly statements that add up, the low-balance
 * threshold and its station letter, the movement export and invoices.
 */

// Endpoints another module has not registered yet answer nothing here (the app refuses to
// start with a catalogue entry that has no handler).
const pending = ENDPOINT_LIST.filter((def) => !HANDLERS.some((h) => h.def === def)).map((def) =>
  defineHandler(def, {
    handle: async () => {
      throw new Error(`${def.name} is not registered yet`);
    },
  }),
);

async function readSheet(buffer: Buffer): Promise<string[][]> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(buffer as unknown as ArrayBuffer);
  const rows: string[][] = [];
  workbook.worksheets[0].eachRow((row) => {
    rows.push(Array.from((row.values as unknown[]).slice(1), (v) => (v === null || v === undefined ? '' : String(v))));
  });
  return rows;
}

describe.each(BACKENDS)('finance centre on %s', (backend) => {
  let t: TestApp;
  let provider: TestEnterprise;
  let operator: ApiClient;
  let seq = 0;

  beforeAll(async () => {
    t = await createTestApp(backend, { extraEndpoints: pending });
    provider = await createEnterprise(t.db, { kind: 'provider', name: uniqueName('Platform') });
    operator = await t.loginAs(await createUser(t.db, provider));
  });
  afterAll(() => t?.close());

  const payload = <T>(res: { envelope: { code: number; payload: T; message?: string } }): T => {
    if (res.envelope.code !== 0) throw new Error(`code ${res.envelope.code}: ${JSON.stringify(res.envelope)}`);
    return res.envelope.payload;
  };
  const codeOf = (res: { envelope: { code: number } }) => res.envelope.code;

  const move = (
    from: string,
    to: string,
    amount: number,
    at: Date,
    extra: { code?: string; cause?: { type: string; id: string }; note?: string } = {},
  ) =>
    t.db.transaction((tx: Executor) =>
      transfer(tx, {
        id: `fin-${backend}-${++seq}`,
        debitAccountId: from,
        creditAccountId: to,
        amount,
        code: extra.code ?? (from.startsWith('platform:') ? 'recharge' : 'payment'),
        cause: extra.cause ?? { type: 'test', id: `t${seq}` },
        note: extra.note ?? '',
        now: at,
      }),
    );
  const platform = (key: PlatformAccount) => ensurePlatformAccount(t.db, key);

  /** An enterprise with its administrator, a finance clerk (no admin), and an advertiser. */
  async function company() {
    const { ent, admin, client } = await t.tenant();
    const clerk = await createUser(t.db, ent);
    const advUser = await createUser(t.db, ent);
    await t.db.insert(advertisers).values({ accountId: advUser.id, entId: ent.id });
    const wallet = await ensureEnterpriseWallet(t.db, ent.id);
    const advWallet = await ensureAdvertiserWallet(t.db, ent.id, advUser.id);
    return {
      ent,
      admin,
      client,
      clerk: await t.loginAs(clerk),
      advertiser: await t.loginAs(advUser),
      advUser,
      wallet,
      advWallet,
    };
  }

  async function payOrder(walletId: string, entId: string, createdBy: string, amount: number, state = 'paid') {
    const [row] = await t.db
      .insert(payOrders)
      .values({
        no: `P${Date.now()}${++seq}`,
        purpose: 'recharge',
        title: 'Recharge',
        amount,
        state: state as 'paid',
        walletId,
        entId,
        createdBy,
        paidAt: state === 'paid' ? new Date(t.clock.now()) : null,
      })
      .returning();
    return row;
  }

  it('shows each caller the wallets it may see, its own first', async () => {
    const a = await company();
    const b = await company();
    const ids = (list: Wallet[]) => list.map((w) => w.id);

    const mine = payload(await a.client.call(endpoints.financeWallets, {}));
    expect(ids(mine.data)).toEqual([a.wallet, a.advWallet]);
    expect(mine.data[0]).toMatchObject({ kind: 'enterprise', name: a.ent.name, entName: a.ent.name, balance: 0 });
    expect(mine.data[1]).toMatchObject({ kind: 'advertiser', entId: a.ent.id, platformAccount: null });

    // A finance user who is not the administrator: the enterprise's wallet only.
    expect(ids(payload(await a.clerk.call(endpoints.financeWallets, {})).data)).toEqual([a.wallet]);
    // The advertiser: its own.
    expect(ids(payload(await a.advertiser.call(endpoints.financeWallets, {})).data)).toEqual([a.advWallet]);
    expect(codeOf(await a.advertiser.call(endpoints.financeSummary, { walletId: a.wallet }))).toBe(ErrorCode.NOT_FOUND);

    // Another enterprise sees none of them.
    expect(ids(payload(await b.client.call(endpoints.financeWallets, {})).data)).not.toContain(a.wallet);
    for (const def of [endpoints.financeSummary, endpoints.financeMovements, endpoints.financeStatement]) {
      expect(codeOf(await b.client.call(def, { walletId: a.wallet }))).toBe(ErrorCode.NOT_FOUND);
      expect(codeOf(await b.client.call(def, { walletId: a.advWallet }))).toBe(ErrorCode.NOT_FOUND);
    }
    expect(codeOf(await b.client.call(endpoints.financeSetLowBalance, { walletId: a.wallet, threshold: 1 }))).toBe(
      ErrorCode.NOT_FOUND,
    );
    expect(codeOf(await b.client.call(endpoints.financeMovementExportStart, { walletId: a.wallet }))).toBe(
      ErrorCode.NOT_FOUND,
    );

    // The platform operator: every wallet and the platform's accounts, its revenue first.
    await platform('clearingOffline');
    const all = payload(await operator.call(endpoints.financeWallets, { size: 100 }));
    expect(all.data[0]).toMatchObject({ id: 'platform:revenue', kind: 'platform', platformAccount: 'revenue' });
    const found = payload(await operator.call(endpoints.financeWallets, { keyword: a.ent.name, size: 100 }));
    expect(ids(found.data)).toEqual([a.wallet]);
    const platformOnes = payload(await operator.call(endpoints.financeWallets, { kind: 'platform', size: 100 }));
    expect(platformOnes.data.every((w) => w.kind === 'platform')).toBe(true);
    expect(ids(platformOnes.data)).toContain('platform:clearingOffline');
    expect(payload(await operator.call(endpoints.financeSummary, { walletId: b.advWallet })).wallet.id).toBe(
      b.advWallet,
    );
  });

  it('lists movements newest first with the running balance, their causes and the filters', async () => {
    const a = await company();
    const clearing = await platform('clearingOffline');
    const revenue = await platform('revenue');
    const base = t.clock.now() - 10 * DAY;
    const order = await payOrder(a.wallet, a.ent.id, a.admin.id, 50_000);
    await move(clearing, a.wallet, 50_000, new Date(base), {
      cause: { type: 'payOrder', id: order.id },
      note: order.no,
    });
    await move(a.wallet, revenue, 12_345, new Date(base + DAY));
    await move(a.wallet, a.advWallet, 5_000, new Date(base + 2 * DAY));
    await move(clearing, a.wallet, 100, new Date(base + 3 * DAY));

    const page = payload(await a.client.call(endpoints.financeMovements, {}));
    expect(page).toMatchObject({ total: 4, capped: false });
    expect(page.data.map((m) => [m.amount, m.balance])).toEqual([
      [100, 32_755],
      [-5_000, 32_655],
      [-12_345, 37_655],
      [50_000, 50_000],
    ]);
    const recharge = page.data[3] as Movement;
    expect(recharge).toMatchObject({
      code: 'recharge',
      counterparty: 'clearingOffline',
      note: order.no,
      cause: { type: 'payOrder', id: order.id, label: order.no, route: `/pay?id=${order.id}` },
    });
    expect(page.data[1].counterparty).toBe(payload(await a.advertiser.call(endpoints.financeSummary, {})).wallet.name);
    expect(page.data[2]).toMatchObject({ counterparty: 'revenue', cause: { type: 'test', route: null } });

    // The advertiser's wallet names the enterprise as the counterparty.
    const adv = payload(await a.advertiser.call(endpoints.financeMovements, {}));
    expect(adv.data).toHaveLength(1);
    expect(adv.data[0]).toMatchObject({ amount: 5_000, balance: 5_000, counterparty: a.ent.name });

    const filtered = async (filter: Record<string, unknown>) =>
      payload(await a.client.call(endpoints.financeMovements, filter)).data.map((m) => m.amount);
    expect(await filtered({ direction: 'in' })).toEqual([100, 50_000]);
    expect(await filtered({ direction: 'out' })).toEqual([-5_000, -12_345]);
    expect(await filtered({ code: 'recharge' })).toEqual([100, 50_000]);
    expect(await filtered({ minAmount: 5_000, maxAmount: 12_345 })).toEqual([-5_000, -12_345]);
    expect(
      await filtered({
        from: new Date(base + DAY).toISOString(),
        to: new Date(base + 3 * DAY).toISOString(),
      }),
    ).toEqual([-5_000, -12_345]);
    const second = payload(await a.client.call(endpoints.financeMovements, { page: 2, size: 10 }));
    expect(second).toMatchObject({ total: 4, data: [] });

    // The summary: counters of the wallet, paid recharges not yet invoiced, orders awaiting payment.
    await payOrder(a.wallet, a.ent.id, a.admin.id, 700, 'unpaid');
    const summary = payload(await a.client.call(endpoints.financeSummary, {}));
    expect(summary).toMatchObject({ invoiceable: 50_000, unpaidOrders: 1 });
    expect(summary.wallet).toMatchObject({ balance: 32_755, frozen: 0, available: 32_755 });
  });

  it('caps the total at 10,000 movements', async () => {
    const a = await company();
    const clearing = await platform('clearingWechat');
    const at = new Date(t.clock.now() - DAY);
    // 10,001 statement lines written directly (the page reads lines, not transfers).
    await t.db.execute(sql`
      insert into ledger_entries (account_id, transfer_id, counterparty_id, amount, pending_change, balance, frozen,
                                  code, cause_type, cause_id, note, created_at)
      select ${a.wallet}, 'bulk-' || g, ${clearing}, 1, 0, g, 0, 'recharge', 'test', 'bulk', '', ${at.toISOString()}::timestamptz
      from generate_series(1, 10001) g`);
    // Filtered: counted over the lines, up to 10,001.
    const filtered = payload(await a.client.call(endpoints.financeMovements, { size: 10, code: 'recharge' }));
    expect(filtered).toMatchObject({ total: 10_000, capped: true });
    expect(filtered.data[0].balance).toBe(10_001);
    // Unfiltered: the total is the months' count of lines (kept by each transfer), no count over them.
    await t.db.execute(sql`
      insert into ledger_account_months (account_id, month, credits, debits, closing, movements)
      values (${a.wallet}, ${statementMonth(at)}, 10001, 0, 10001, 10001)`);
    const page = payload(await a.client.call(endpoints.financeMovements, { size: 10 }));
    expect(page).toMatchObject({ total: 10_000, capped: true });
    expect(page.data.map((m) => m.balance)).toEqual([
      10_001, 10_000, 9_999, 9_998, 9_997, 9_996, 9_995, 9_994, 9_993, 9_992,
    ]);
  });

  it('keeps monthly statements that add up over three simulated months (UTC+8 calendar)', async () => {
    const a = await company();
    const clearing = await platform('clearingAlipay');
    const revenue = await platform('revenue');
    const saved = t.clock.now();
    try {
      t.clock.set(Date.parse('2026-04-10T04:00:00Z'));
      await move(clearing, a.wallet, 100_000, new Date('2026-01-10T02:00:00Z'));
      await move(a.wallet, revenue, 30_000, new Date('2026-01-20T02:00:00Z'));
      // 17:00 UTC on January 31st is February 1st in Beijing.
      await move(a.wallet, revenue, 1_000, new Date('2026-01-31T17:00:00Z'));
      await move(clearing, a.wallet, 5_555, new Date('2026-03-31T15:59:59Z'));
      await move(a.wallet, revenue, 555, new Date('2026-03-31T16:00:00Z'));

      const { months } = payload(await a.client.call(endpoints.financeStatement, { months: 5 }));
      expect(months.map((m) => m.month)).toEqual(['2025-12', '2026-01', '2026-02', '2026-03', '2026-04']);
      expect(months).toEqual([
        { month: '2025-12', opening: 0, credits: 0, debits: 0, closing: 0, movements: 0 },
        { month: '2026-01', opening: 0, credits: 100_000, debits: 30_000, closing: 70_000, movements: 2 },
        { month: '2026-02', opening: 70_000, credits: 0, debits: 1_000, closing: 69_000, movements: 1 },
        { month: '2026-03', opening: 69_000, credits: 5_555, debits: 0, closing: 74_555, movements: 1 },
        { month: '2026-04', opening: 74_555, credits: 0, debits: 555, closing: 74_000, movements: 1 },
      ]);
      // Against the lines themselves: each month's credits and debits are its lines' sums.
      const lines = payload(await a.client.call(endpoints.financeMovements, { size: 100 })).data;
      const beijingMonth = (at: string) => new Date(Date.parse(at) + 8 * 3600_000).toISOString().slice(0, 7);
      for (const m of months) {
        expect(m.opening + m.credits - m.debits).toBe(m.closing);
        const of = lines.filter((l) => beijingMonth(l.at) === m.month);
        expect(of.filter((l) => l.amount > 0).reduce((s, l) => s + l.amount, 0)).toBe(m.credits);
        expect(of.filter((l) => l.amount < 0).reduce((s, l) => s - l.amount, 0)).toBe(m.debits);
        expect(of.length).toBe(m.movements);
      }
      expect(months.at(-1)?.closing).toBe(payload(await a.client.call(endpoints.financeSummary, {})).wallet.balance);
      // Fewer months: the opening is the closing before them.
      const two = payload(await a.client.call(endpoints.financeStatement, { months: 2 })).months;
      expect(two[0]).toMatchObject({ month: '2026-03', opening: 69_000, closing: 74_555 });
    } finally {
      t.clock.set(saved);
    }
  });

  it('sets the low-balance threshold and shows the letter below it, not above', async () => {
    const a = await company();
    const clearing = await platform('clearingOffline');
    const letters = async (client: ApiClient, language = 'en-US') =>
      payload(await client.call(endpoints.stationLetterList, {}, { language })) as string[];
    const low = (list: string[]) => list.filter((l) => /wallet balance|钱包|ウォレット/.test(l));

    // A new wallet has no threshold: no letter, even at 0.
    expect(low(await letters(a.client))).toEqual([]);
    payload(await a.client.call(endpoints.financeSetLowBalance, { threshold: 10_000 }));
    expect(low(await letters(a.client))).toEqual([
      'Your wallet balance ¥0.00 is below ¥100.00: top it up to keep paying',
    ]);
    expect(low(await letters(a.clerk, 'zh-CN'))).toEqual(['您的钱包可用余额 ¥0.00 已低于 ¥100.00，请及时充值']);
    // At the threshold it is not below it any more.
    await move(clearing, a.wallet, 10_000, new Date(t.clock.now() - 1000));
    expect(low(await letters(a.client))).toEqual([]);

    const set = payload(await a.client.call(endpoints.financeSetLowBalance, { threshold: 2_000_050 }));
    expect(set).toMatchObject({ id: a.wallet, lowBalanceThreshold: 2_000_050, low: true, available: 10_000 });
    expect(low(await letters(a.client, 'ja'))).toEqual([
      'ウォレットの利用可能残高 ¥100.00 が ¥20,000.50 を下回っています。チャージしてください',
    ]);
    const lowOnes = payload(await a.client.call(endpoints.financeWallets, { low: true })).data;
    expect(lowOnes.map((w) => w.id)).toEqual([a.wallet]);

    // The advertiser's wallet has no threshold: no letter for the advertiser.
    expect(low(await letters(a.advertiser))).toEqual([]);

    payload(await a.client.call(endpoints.financeSetLowBalance, { threshold: null }));
    expect(low(await letters(a.client))).toEqual([]);
    const [logged] = await t.db
      .select()
      .from(operationLogs)
      .where(and(eq(operationLogs.targetId, a.wallet), eq(operationLogs.action, 'setLowBalance')))
      .orderBy(sql`${operationLogs.createdAt} desc`)
      .limit(1);
    expect(logged).toMatchObject({ module: 'finance', targetType: 'wallet', targetName: a.ent.name });

    // A reader of an enterprise that never opened its wallet gets no letter (nothing is made).
    const fresh = await t.tenant();
    expect(low(await letters(fresh.client))).toEqual([]);
    const [none] = await t.db.select().from(ledgerAccounts).where(eq(ledgerAccounts.entId, fresh.ent.id));
    expect(none).toBeUndefined();
  });

  it('exports the filtered movements to Excel in the caller language', async () => {
    const a = await company();
    const clearing = await platform('clearingOffline');
    const revenue = await platform('revenue');
    const base = t.clock.now() - 5 * DAY;
    const order = await payOrder(a.wallet, a.ent.id, a.admin.id, 123_456);
    await move(clearing, a.wallet, 123_456, new Date(base), { cause: { type: 'payOrder', id: order.id } });
    await move(a.wallet, revenue, 3_456, new Date(base + DAY), { note: 'bill' });
    await move(a.wallet, revenue, 1, new Date(base + 2 * DAY));

    const started = payload(
      await a.client.call(endpoints.financeMovementExportStart, { minAmount: 2 }, { language: 'zh-CN' }),
    );
    expect(started).toMatchObject({ status: 'pending', total: 2 });
    let done: ExportStatus | undefined;
    for (let i = 0; i < 400 && !done; i++) {
      const status = payload(
        await a.client.call(endpoints.financeMovementExportStatus, { exportId: started.exportId }),
      );
      if (status.status === 'done' || status.status === 'failed') done = status;
      else await new Promise((r) => setTimeout(r, 50));
    }
    expect(done).toMatchObject({ status: 'done', processed: 2, total: 2 });
    const file = await a.client.call(endpoints.financeMovementExportDownload, { exportId: started.exportId });
    expect(file.status).toBe(200);
    const rows = await readSheet(file.rawPayload);
    expect(rows[0]).toEqual([
      '时间',
      '类型',
      '关联单据',
      '对方账户',
      '收入（元）',
      '支出（元）',
      '余额（元）',
      '冻结（元）',
      '备注',
    ]);
    const [bill, recharge] = rows.slice(1);
    expect(rows).toHaveLength(3);
    expect(bill.slice(1, 2)).toEqual(['支付']);
    expect(bill.slice(3)).toEqual(['平台收入', '', '34.56', '1200.00', '0.00', 'bill']);
    expect(recharge.slice(1, 8)).toEqual(['充值', order.no, '线下转账清算', '1234.56', '', '1234.56', '0.00']);
    expect(recharge[8] ?? '').toBe('');
    // Only its starter reads it; another enterprise cannot.
    const other = await company();
    expect(codeOf(await other.client.call(endpoints.financeMovementExportStatus, { exportId: started.exportId }))).toBe(
      ErrorCode.NOT_FOUND,
    );
    const [logged] = await t.db.select().from(operationLogs).where(eq(operationLogs.targetId, started.exportId));
    expect(logged).toMatchObject({ module: 'finance', action: 'export', targetType: 'export' });
  });

  describe('invoices', () => {
    it('refuses more than what was paid and not invoiced, writing nothing; the platform issues or refuses', async () => {
      const a = await company();
      await payOrder(a.wallet, a.ent.id, a.admin.id, 10_000);
      await payOrder(a.wallet, a.ent.id, a.admin.id, 5_000, 'unpaid');
      const request = (amount: number, client = a.client) =>
        client.call(endpoints.invoiceRequest, { title: 'ACME Ltd', taxNo: '91350100M000100Y43', amount });

      const logsBefore = await t.db.select().from(operationLogs).where(eq(operationLogs.entId, a.ent.id));
      const over = await request(10_001);
      expect(codeOf(over)).toBe(ErrorCode.INVOICE_AMOUNT_EXCEEDED);
      expect(over.envelope.message).toContain('¥100.00');
      expect(await t.db.select().from(invoices).where(eq(invoices.walletId, a.wallet))).toEqual([]);
      const logsAfter = await t.db.select().from(operationLogs).where(eq(operationLogs.entId, a.ent.id));
      expect(logsAfter.length).toBe(logsBefore.length);

      const first = payload(await request(6_000));
      expect(first).toMatchObject({ state: 'requested', amount: 6_000, walletId: a.wallet, entName: a.ent.name });
      expect(payload(await a.client.call(endpoints.financeSummary, {})).invoiceable).toBe(4_000);
      expect(codeOf(await request(4_001))).toBe(ErrorCode.INVOICE_AMOUNT_EXCEEDED);
      t.clock.advance(1000);
      const second = payload(await request(4_000));

      // Enterprises cannot decide; another enterprise does not see them.
      expect(codeOf(await a.client.call(endpoints.invoiceIssue, { id: first.id, invoiceNo: 'N1' }))).toBe(
        ErrorCode.NO_PERMISSION,
      );
      const b = await company();
      expect(payload(await b.client.call(endpoints.invoiceList, {})).data).toEqual([]);
      expect(payload(await a.advertiser.call(endpoints.invoiceList, {})).data).toEqual([]);
      expect(payload(await a.client.call(endpoints.invoiceList, {})).data.map((i) => i.id)).toEqual([
        second.id,
        first.id,
      ]);

      const issued = payload(await operator.call(endpoints.invoiceIssue, { id: first.id, invoiceNo: 'INV-0001' }));
      expect(issued).toMatchObject({ state: 'issued', invoiceNo: 'INV-0001' });
      expect(issued.reviewedAt).not.toBeNull();
      expect(codeOf(await operator.call(endpoints.invoiceRefuse, { id: first.id, reason: 'late' }))).toBe(
        ErrorCode.CONFLICT,
      );
      const refused = payload(await operator.call(endpoints.invoiceRefuse, { id: second.id, reason: 'Wrong title' }));
      expect(refused).toMatchObject({ state: 'refused', reason: 'Wrong title' });
      expect(codeOf(await operator.call(endpoints.invoiceIssue, { id: 'nope', invoiceNo: 'X' }))).toBe(
        ErrorCode.NOT_FOUND,
      );
      // A refused invoice gives its amount back.
      expect(payload(await a.client.call(endpoints.financeSummary, {})).invoiceable).toBe(4_000);
      const platformList = payload(
        await operator.call(endpoints.invoiceList, { state: 'issued', keyword: 'INV-0001', size: 100 }),
      );
      expect(platformList.data.map((i) => i.id)).toEqual([first.id]);
      const byEnterprise = payload(await operator.call(endpoints.invoiceList, { keyword: a.ent.name, size: 100 }));
      expect(byEnterprise.data.map((i) => i.id)).toEqual([second.id, first.id]);
      const actions = (await t.db.select().from(operationLogs).where(eq(operationLogs.module, 'finance')))
        .filter((l) => l.targetId === first.id || l.targetId === second.id)
        .map((l) => l.action)
        .sort();
      expect(actions).toEqual(['invoiceIssue', 'invoiceRefuse', 'invoiceRequest', 'invoiceRequest']);
    });

    it('holds the check under concurrency: two requests for all of it, one passes', async () => {
      const a = await company();
      await payOrder(a.wallet, a.ent.id, a.admin.id, 8_000);
      const other = a.clerk;
      const results = await Promise.all(
        [a.client, other, a.client, other].map((c) =>
          c.call(endpoints.invoiceRequest, { title: 'ACME Ltd', taxNo: '91350100M000100Y43', amount: 8_000 }),
        ),
      );
      expect(results.map(codeOf).sort()).toEqual(
        [
          0,
          ErrorCode.INVOICE_AMOUNT_EXCEEDED,
          ErrorCode.INVOICE_AMOUNT_EXCEEDED,
          ErrorCode.INVOICE_AMOUNT_EXCEEDED,
        ].sort(),
      );
      const rows = await t.db.select().from(invoices).where(eq(invoices.walletId, a.wallet));
      expect(rows).toHaveLength(1);
    });
  });
});
