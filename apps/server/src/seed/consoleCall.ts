import {
  buildSignedCall,
  type CallQuery,
  type EndpointName,
  type Endpoints,
  type Envelope,
  endpoints,
  type Req,
  type Res,
  toQueryString,
} from '@marquee/protocol';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { accounts } from '../db/schema/index.js';

/**
 * Demo data made the way a person at the console makes it (seed/money.ts, seed/market.ts):
 * signed console calls through the app's own call pipeline, so permission, transaction,
 * operation log and ledger all apply. Nothing is written around the product's services.
 */
export type Caller = <N extends EndpointName>(name: N, data: Req<Endpoints[N]>) => Promise<Res<Endpoints[N]>>;

/** A demo account (seed/demo.ts) by its login name. */
export async function demoAccount(app: FastifyInstance, loginName: string): Promise<{ id: string; entId: string }> {
  const [row] = await app.services.db
    .select({ id: accounts.id, entId: accounts.entId })
    .from(accounts)
    .where(eq(accounts.loginName, loginName))
    .limit(1);
  if (!row) throw new Error(`no demo account ${loginName}`);
  return row;
}

/** Signed console calls as `account`, through the app's call pipeline (a session opened for it). */
export async function consoleCaller(
  app: FastifyInstance,
  account: { id: string; entId: string },
  agent: string,
): Promise<Caller> {
  const { services } = app;
  const session = await services.sessions.create(services.db, {
    entId: account.entId,
    accountId: account.id,
    ip: '127.0.0.1',
    userAgent: agent,
    deviceUuid: agent,
    now: new Date(services.clock()),
  });
  let sequence = 0;
  return async (name, data) => {
    const signed = buildSignedCall(data, {
      token: session.token,
      language: 'en-US',
      uuid: agent,
      sequence: `${agent}-${process.pid}-${Date.now()}-${++sequence}`,
      traceKey: `${agent}-${sequence}`,
      now: services.clock(),
    });
    const res = await app.inject({
      method: 'POST',
      url: `${endpoints[name].path}?${toQueryString(signed.query as CallQuery)}`,
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'user-id': '86',
        platform: '2',
        'user-agent': agent,
      },
      payload: signed.body,
      remoteAddress: '127.0.0.1',
    });
    const envelope = res.json() as Envelope<Res<Endpoints[typeof name]>>;
    if (envelope.code !== 0) throw new Error(`${endpoints[name].name}: ${envelope.code} ${envelope.message}`);
    return envelope.payload;
  };
}
