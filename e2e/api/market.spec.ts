import { ErrorCode, STORAGE_PACK_BYTES } from '@marquee/protocol';
import { expect, test } from '@playwright/test';
import { apiCall, loginApi } from '../fixtures/api.js';
import { availableFen, demoProduct } from '../fixtures/market.js';

/**
 * The market through the real HTTP API (issue 27), on the demo catalogue (seed/market.ts) and
 * the demo wallet: the catalogue a buyer sees, a quote of storage packs, an order paid at once
 * by balance, and an order left to be paid at /pay that is paid twice at the same moment by
 * the payment path: the money moves once and the pack counts once.
 */
test('the demo catalogue, a quote, an order by balance, and one paid twice at once moving money once', async () => {
  const admin = await loginApi('entadmin');
  const token = admin.token;

  // The catalogue: the three demo products on sale, priced in fen per term.
  const list = await apiCall('marketProductList', {}, { token });
  expect(list.code, list.message).toBe(0);
  expect(list.payload.data.map((p) => [p.name, p.kind, p.state])).toEqual(
    expect.arrayContaining([
      ['Screen licence', 'devicePoints', 'onSale'],
      ['200 GB storage pack', 'storagePack', 'onSale'],
      ['4G data 10 GB / month', 'dataCard', 'onSale'],
    ]),
  );
  const pack = await demoProduct(token, '200 GB storage pack');
  expect(pack.storageBytes).toBe(STORAGE_PACK_BYTES);
  const month = pack.prices.find((p) => p.months === 1)?.price ?? 0;
  expect(Number.isInteger(month) && month > 0).toBe(true);

  // A quote of two packs: the amount, a line each, and the wallet's available balance.
  const before = await availableFen(token);
  const quote = await apiCall('marketQuote', { productId: pack.id, months: 1, quantity: 2 }, { token });
  expect(quote.code, quote.message).toBe(0);
  expect(quote.payload).toMatchObject({ amount: 2 * month, unitPrice: month, quantity: 2, available: before });
  expect(quote.payload.lines).toHaveLength(2);
  // A quote of a term the product is not priced for is refused.
  expect((await apiCall('marketQuote', { productId: pack.id, months: 36, quantity: 1 }, { token })).code).toBe(
    ErrorCode.PRODUCT_OFF_SHELF,
  );

  // An order by balance: paid at once, the balance and the quota move by it.
  const storage = async () => (await apiCall('marketStorage', {}, { token })).payload;
  const quota0 = (await storage()).quotaBytes;
  const paid = await apiCall(
    'marketOrderCreate',
    { productId: pack.id, months: 1, quantity: 1, payBy: 'balance' },
    { token },
  );
  expect(paid.code, paid.message).toBe(0);
  expect(paid.payload).toMatchObject({ state: 'paid', payState: 'paid', payMethod: 'balance', amount: month });
  expect(await availableFen(token)).toBe(before - month);
  expect((await storage()).quotaBytes).toBe(quota0 + STORAGE_PACK_BYTES);

  // An order paid later: unpaid, nothing moved; then paid twice at the same moment by balance.
  const later = await apiCall(
    'marketOrderCreate',
    { productId: pack.id, months: 1, quantity: 1, payBy: 'other' },
    { token },
  );
  expect(later.code, later.message).toBe(0);
  expect(later.payload).toMatchObject({ state: 'unpaid', payState: 'unpaid', amount: month });
  expect(await availableFen(token)).toBe(before - month);
  const payOrderId = later.payload.payOrderId;
  const answers = await Promise.all([
    apiCall('paymentPayBalance', { id: payOrderId }, { token }),
    apiCall('paymentPayBalance', { id: payOrderId }, { token }),
  ]);
  const codes = answers.map((a) => a.code).sort();
  // One pays it; the other finds it paid already (or, after it, answers the paid order).
  expect(codes.filter((c) => c === 0).length).toBeGreaterThanOrEqual(1);
  expect(codes.every((c) => c === 0 || c === ErrorCode.PAYMENT_NOT_PAYABLE)).toBe(true);

  const order = await apiCall('marketOrderInfo', { id: later.payload.id }, { token });
  expect(order.payload.order).toMatchObject({ state: 'paid', payState: 'paid', payMethod: 'balance' });
  expect(await availableFen(token)).toBe(before - 2 * month);
  expect((await storage()).quotaBytes).toBe(quota0 + 2 * STORAGE_PACK_BYTES);
  const movements = await apiCall('financeMovements', { page: 1, size: 50 }, { token });
  expect(movements.code, movements.message).toBe(0);
  expect(movements.payload.data.filter((m) => m.cause.id === payOrderId)).toMatchObject([
    { code: 'payment', amount: -month },
  ]);
  // Paid: it can no longer be cancelled.
  expect((await apiCall('marketOrderCancel', { id: later.payload.id }, { token })).code).toBe(
    ErrorCode.MARKET_ORDER_STATE,
  );
});
