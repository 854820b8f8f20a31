import { expect, test } from '@playwright/test';
import { apiCall, BASE_URL, loginApi } from '../fixtures/api.js';

/**
 * The demo money (apps/server/src/seed/money.ts): on its first start the product gave the demo
 * enterprise a 10,000-yuan recharge paid by a bank transfer with its voucher, confirmed by the
 * platform operator, and a 1,200-yuan service fee paid with the balance, all through the
 * console's own calls: the orders, the transfer, its voucher and the ledger say so.
 */
test('the demo enterprise’s wallet starts with an offline recharge and a bill paid by balance', async () => {
  const admin = await loginApi('entadmin');
  const orders = await apiCall('paymentList', { page: 1, size: 100 }, { token: admin.token });
  expect(orders.code, orders.message).toBe(0);
  const recharge = orders.payload.data.find((o) => o.purpose === 'recharge' && o.amount === 1_000_000);
  const bill = orders.payload.data.find((o) => o.purpose === 'bill' && o.title === 'Platform service fee');
  expect(recharge).toMatchObject({ state: 'paid', method: 'offline', entName: 'Demo Media Co., Ltd.' });
  expect(bill).toMatchObject({ state: 'paid', method: 'balance', amount: 120_000 });

  // The transfer, confirmed, with its voucher: a PNG the console can open.
  const info = await apiCall('paymentInfo', { id: recharge?.id ?? '' }, { token: admin.token });
  expect(info.payload.offline).toMatchObject({ state: 'confirmed', remark: recharge?.no });
  const voucher = info.payload.offline?.vouchers[0];
  expect(voucher?.contentType).toBe('image/png');
  const image = await fetch(new URL(voucher?.url ?? '', BASE_URL));
  expect(image.status).toBe(200);
  expect(
    Buffer.from(await image.arrayBuffer())
      .subarray(1, 4)
      .toString('latin1'),
  ).toBe('PNG');

  // The ledger: the recharge in and the fee out, each naming its order.
  const movements = await apiCall('financeMovements', { page: 1, size: 100 }, { token: admin.token });
  expect(movements.code, movements.message).toBe(0);
  const line = (orderId: string) => movements.payload.data.find((m) => m.cause.id === orderId);
  expect(line(recharge?.id ?? '')).toMatchObject({ code: 'recharge', amount: 1_000_000 });
  expect(line(bill?.id ?? '')).toMatchObject({ code: 'payment', amount: -120_000 });
  expect(line(bill?.id ?? '')?.cause.route).toContain(bill?.id);
});
