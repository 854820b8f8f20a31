// (b) Bytes on the wire: what Chromium receives (response bodies as sent, compressed) for
// the login route, and for the shell after login (everything loaded up to the home page:
// documents, JavaScript, CSS, API answers), beside what those bodies are uncompressed.
import { chromium, type Request } from '@playwright/test';
import { freePort, root, startServer, stop } from './lib.js';

const PORT = await freePort();
const { child } = await startServer({ port: PORT, dataDir: `${root}/.tmp/bench-bundle`, fresh: true });
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
});

interface Loaded {
  path: string;
  kind: 'js' | 'css' | 'html' | 'api' | 'other';
  wire: number;
  raw: number;
  encoding: string;
}

function kindOf(path: string, type: string): Loaded['kind'] {
  if (path.startsWith('/api/')) return 'api';
  if (path.endsWith('.js')) return 'js';
  if (path.endsWith('.css')) return 'css';
  if (type === 'document') return 'html';
  return 'other';
}

const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;

function report(label: string, loaded: Loaded[], aimKb: number): void {
  const sum = (list: Loaded[], key: 'wire' | 'raw') => list.reduce((s, l) => s + l[key], 0);
  const wire = sum(loaded, 'wire');
  const js = loaded.filter((l) => l.kind === 'js');
  const uncompressed = loaded.filter((l) => l.raw > 1024 && (l.encoding === '' || l.encoding === 'identity'));
  console.log(
    `${label}: ${kb(wire)} on the wire in ${loaded.length} responses, ${kb(sum(loaded, 'raw'))} uncompressed ` +
      `(aim <= ${aimKb} KB on the wire: ${wire <= aimKb * 1024 ? 'met' : 'MISSED'})`,
  );
  for (const kind of ['js', 'css', 'html', 'api', 'other'] as const) {
    const list = loaded.filter((l) => l.kind === kind);
    if (list.length > 0) {
      console.log(
        `  ${kind.padEnd(5)} ${kb(sum(list, 'wire')).padStart(9)} wire  ${kb(sum(list, 'raw')).padStart(9)} raw  ${list.length} files`,
      );
    }
  }
  console.log(`  JS share: ${kb(sum(js, 'wire'))} on the wire`);
  for (const l of uncompressed) console.log(`  sent uncompressed: ${l.path} (${kb(l.raw)})`);
}

try {
  const context = await browser.newContext();
  const page = await context.newPage();
  const loaded: Loaded[] = [];
  const pending: Promise<void>[] = [];
  page.on('requestfinished', (request: Request) => {
    pending.push(
      (async () => {
        const response = await request.response();
        if (!response) return;
        const url = new URL(request.url());
        const sizes = await request.sizes();
        const body = await response.body().catch(() => Buffer.alloc(0));
        loaded.push({
          path: url.pathname,
          kind: kindOf(url.pathname, request.resourceType()),
          wire: sizes.responseBodySize,
          raw: body.length,
          encoding: (await response.allHeaders())['content-encoding'] ?? '',
        });
      })(),
    );
  });
  const settle = async () => {
    await page.waitForLoadState('networkidle');
    await Promise.all(pending);
  };
  await page.goto(`http://127.0.0.1:${PORT}/login`, { waitUntil: 'networkidle' });
  await settle();
  report('login route', [...loaded], 200);
  await page.getByTestId('login-account').fill('entadmin');
  await page.getByTestId('login-password').fill('Marquee@2026');
  await page.getByTestId('login-submit').click();
  await page.waitForURL(`http://127.0.0.1:${PORT}/`);
  await settle();
  report('shell after login (cold, from the login page to the home page)', [...loaded], 400);
} finally {
  await browser.close();
  await stop(child);
}
