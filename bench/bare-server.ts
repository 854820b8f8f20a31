// A bare Fastify route, the baseline of api-throughput.ts: same framework, no protocol,
// no session, no database.
import Fastify from 'fastify';

const app = Fastify({ logger: false });
app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) =>
  done(null, body),
);
app.get('/api/health', async () => ({ ok: true }));
app.post('/bare', async () => ({ code: 0, message: 'ok', payload: { total: 0, data: [] } }));
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
