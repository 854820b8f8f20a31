import type { FastifyInstance } from 'fastify';
import { consoleCaller, demoAccount } from './consoleCall.js';

/**
 * The demo market's catalogue (issue 27): on the first start, after the demo money, the
 * platform operator adds the products a network needs and puts them on sale, through the
 * console's own calls (seed/consoleCall.ts). Nothing is bought: the demo wallet stays as the
 * money seed left it, and buying is the visitor's to try at /shop.
 */
const PRODUCTS = [
  {
    kind: 'devicePoints' as const,
    name: 'Screen licence',
    description: 'Keeps one screen in service: it receives new content until its licence expires.',
    prices: [
      { months: 1, price: 3_000 },
      { months: 3, price: 8_500 },
      { months: 12, price: 30_000 },
      { months: 24, price: 56_000 },
    ],
  },
  {
    kind: 'storagePack' as const,
    name: '200 GB storage pack',
    description: 'Raises the material library quota by 200 GB for the term.',
    prices: [
      { months: 1, price: 5_000 },
      { months: 12, price: 50_000 },
    ],
  },
  {
    kind: 'dataCard' as const,
    name: '4G data 10 GB / month',
    description: 'A data package for one IoT card of a 4G player: 10 GB every month.',
    dataMbPerMonth: 10_240,
    prices: [
      { months: 1, price: 2_000 },
      { months: 12, price: 20_000 },
    ],
  },
];

export async function seedDemoMarket(app: FastifyInstance): Promise<void> {
  const log = app.log.child({ part: 'demo-market' });
  try {
    const platform = await consoleCaller(app, await demoAccount(app, 'operator'), 'marquee-demo-market');
    for (const product of PRODUCTS) {
      const saved = await platform('marketProductSave', product);
      await platform('marketProductShelf', { id: saved.id, state: 'onSale' });
    }
    log.info({ products: PRODUCTS.length }, 'demo market seeded');
  } catch (error) {
    log.warn({ err: error }, 'demo market not seeded');
  }
}
