import { RECHARGE_PRESETS_FEN } from '@marquee/protocol';
import type { FastifyInstance } from 'fastify';
import { encodePng } from '../player/png.js';
import { consoleCaller, demoAccount } from './consoleCall.js';

/** The demo enterprise's administrator (seed/demo.ts), who recharges and pays. */
const PAYER = 'entadmin';
/** The platform operator (seed/demo.ts), who confirms the transfer and raises the bill. */
const OPERATOR = 'operator';
/** The largest recharge preset (10,000 yuan). */
const RECHARGE_FEN = RECHARGE_PRESETS_FEN[RECHARGE_PRESETS_FEN.length - 1];
/** The platform's service fee billed to the enterprise: 1,200 yuan. */
const BILL_FEN = 120_000;

/**
 * Demo money (issue 26): on the first start, right after the demo data is seeded, the demo
 * enterprise's wallet gets its first movements the way a person at the console makes them,
 * through the console's own signed calls (permission, transaction, operation log, ledger):
 * the administrator opens a 10,000-yuan recharge, uploads a bank-transfer voucher (a small
 * PNG drawn here) and submits the offline transfer; the platform operator confirms it (the
 * wallet is credited from the offline clearing account); the operator bills the enterprise a
 * 1,200-yuan service fee and the administrator pays it with the balance. The finance centre
 * then shows 8,800 yuan, two movements linked to their orders, a paid recharge to invoice and
 * a statement month. It needs the app's services (storage for the voucher), so it runs after
 * the app is built, not in the seed's transaction; a failure is logged and the start goes on.
 */
export async function seedDemoMoney(app: FastifyInstance): Promise<void> {
  const log = app.log.child({ part: 'demo-money' });
  try {
    await run(app);
    log.info({ recharged: RECHARGE_FEN, billed: BILL_FEN }, 'demo money seeded');
  } catch (error) {
    log.warn({ err: error }, 'demo money not seeded');
  }
}

async function run(app: FastifyInstance): Promise<void> {
  const { services } = app;
  const payer = await demoAccount(app, PAYER);
  const operator = await demoAccount(app, OPERATOR);
  const admin = await consoleCaller(app, payer, 'marquee-demo-money');
  const platform = await consoleCaller(app, operator, 'marquee-demo-money');
  const now = services.clock();

  // The administrator recharges and pays the recharge by bank transfer, with its voucher.
  const order = await admin('paymentRecharge', { amount: RECHARGE_FEN });
  const voucher = receiptPng();
  const applied = await admin('paymentVoucherApply', {
    orderId: order.id,
    fileName: 'bank-transfer-receipt.png',
    contentType: 'image/png',
    size: voucher.length,
  });
  await postUpload(app, applied, voucher, 'bank-transfer-receipt.png');
  const offline = await admin('paymentOfflineSubmit', {
    orderId: order.id,
    payerName: 'Demo Media Co., Ltd.',
    bankName: 'Bank of Shanghai, Pudong Branch',
    bankAccount: '6222 0202 0011 2233',
    transferNo: `DEMO${order.no.slice(1)}`,
    transferredAt: new Date(now - 2 * 3600_000).toISOString(),
    remark: order.no,
    voucherIds: [applied.voucherId],
  });

  // The platform operator confirms the money arrived, then bills the enterprise its service fee.
  await platform('paymentOfflineConfirm', { id: offline.id });
  const bill = await platform('paymentBillCreate', {
    entId: payer.entId,
    title: 'Platform service fee',
    amount: BILL_FEN,
  });

  // The administrator pays the bill with the balance.
  await admin('paymentPayBalance', { id: bill.id });
}

/** The browser's POST of a signed upload form: to the app itself (local storage) or to the storage's URL. */
async function postUpload(
  app: FastifyInstance,
  signed: { url: string; fields: Record<string, string> },
  file: Buffer,
  fileName: string,
): Promise<void> {
  const form = new FormData();
  for (const [k, v] of Object.entries(signed.fields)) form.append(k, v);
  if (!Object.keys(signed.fields).some((k) => k.toLowerCase() === 'content-type')) {
    form.append('Content-Type', 'image/png');
  }
  form.append('file', new Blob([new Uint8Array(file)], { type: 'image/png' }), fileName);
  if (signed.url.startsWith('/')) {
    const request = new Request('http://local/', { method: 'POST', body: form });
    const posted = await app.inject({
      method: 'POST',
      url: signed.url,
      headers: { 'content-type': request.headers.get('content-type') ?? '' },
      payload: Buffer.from(await request.arrayBuffer()),
    });
    if (posted.statusCode >= 300) throw new Error(`voucher upload: ${posted.statusCode} ${posted.body}`);
  } else {
    const posted = await fetch(signed.url, { method: 'POST', body: form });
    if (!posted.ok) throw new Error(`voucher upload: ${posted.status} ${await posted.text()}`);
  }
}

/** A bank receipt's look: a white slip with a blue bank header, grey text lines and a red stamp. */
function receiptPng(): Buffer {
  const width = 480;
  const height = 300;
  return encodePng(width, height, (x, y) => {
    if (y < 48) return [0x1f, 0x4e, 0x9c];
    const dx = x - 390;
    const dy = y - 220;
    const r = Math.sqrt(dx * dx + dy * dy);
    if (r > 38 && r < 46) return [0xd4, 0x38, 0x38];
    const line = (y - 80) % 34;
    if (y >= 80 && y < 250 && line < 10 && x >= 32 && x < (y < 180 ? 360 : 300)) return [0xc8, 0xcc, 0xd2];
    return [0xff, 0xff, 0xff];
  });
}
