// The layout renderer's time to switch pages (issue 11): a layout of 20 pages and 300
// components (15 per page, every type), drawn by @marquee/layout's LayoutPage in jsdom, one
// synchronous React commit per switch (flushSync), scale 0.5 as in a preview. Prints the
// first render and the page-switch times (median, p95, max) over several rounds of the 20
// pages, still (the editor canvas) and playing (the player). jsdom does no layout or paint,
// so the figures are the renderer's own work: React reconciliation and DOM building.
import { JSDOM } from 'jsdom';

// React's production build, as the console and the player ship it.
process.env.NODE_ENV = 'production';

const dom = new JSDOM('<!doctype html><html><body><div id="root"></div></body></html>', {
  url: 'http://bench.local/',
  pretendToBeVisual: true,
});
const g = globalThis as unknown as Record<string, unknown>;
for (const key of [
  'window',
  'document',
  'navigator',
  'HTMLElement',
  'HTMLMediaElement',
  'Node',
  'location',
  'getComputedStyle',
]) {
  if (!(key in g) || key === 'navigator') {
    Object.defineProperty(g, key, {
      configurable: true,
      value: (dom.window as unknown as Record<string, unknown>)[key],
    });
  }
}
g.IS_REACT_ACT_ENVIRONMENT = false;
Object.defineProperty(dom.window.HTMLMediaElement.prototype, 'play', {
  configurable: true,
  value: () => Promise.resolve(),
});
Object.defineProperty(dom.window.HTMLMediaElement.prototype, 'pause', { configurable: true, value: () => undefined });

const { createElement } = await import('react');
const { flushSync } = await import('react-dom');
const { createRoot } = await import('react-dom/client');
const layout = await import('@marquee/layout');
const { COMPONENT_TYPES, createComponent, createEmptyLayout, createPage, LayoutPage } = layout;

const PAGES = 20;
const PER_PAGE = 15;
const ROUNDS = 5;

const doc = createEmptyLayout({ width: 1920, height: 1080 });
doc.pages = Array.from({ length: PAGES }, (_, i) => createPage({ name: `Page ${i + 1}`, duration: 10 }));
const materials: Record<string, { url: string; type: string }> = {};
for (let i = 0; i < 40; i++) materials[`m${i}`] = { url: `http://bench.local/files/m${i}.png`, type: 'image' };
const props: Record<string, (i: number) => object> = {
  picture: (i) => ({ materials: [{ materialId: `m${i % 40}`, duration: 5 }] }),
  video: (i) => ({ materials: [{ materialId: `m${i % 40}`, duration: 10 }], muted: true }),
  music: (i) => ({ materials: [{ materialId: `m${i % 40}`, duration: 10 }] }),
  text: (i) => ({
    content: `Headline ${i}: fresh offers every day in the lobby`,
    scroll: { direction: i % 2 ? 'left' : 'none', speed: 80 },
  }),
  weather: () => ({ city: 'Shanghai' }),
  clock: () => ({ format: 'YYYY-MM-DD HH:mm:ss', timezone: 'Asia/Shanghai' }),
  webPage: (i) => ({ url: `https://example.com/page/${i}` }),
  browser: (i) => ({ url: `https://example.org/kiosk/${i}` }),
  button: () => ({ label: 'Next', action: { kind: 'none' } }),
  html: (i) => ({ html: `<h3>Notice ${i}</h3><p>Opening <b>hours</b> 9:00-21:00</p><script>x()</script>` }),
  liveStream: (i) => ({ url: `https://live.example/stream${i}.m3u8` }),
  networkSignal: () => ({}),
  countdown: () => ({ target: '2027-01-01T00:00:00+08:00' }),
  qrCode: (i) => ({ content: `https://marquee.example/scan/${i}` }),
};
let n = 0;
for (const page of doc.pages) {
  for (let j = 0; j < PER_PAGE; j++) {
    // Six live streams at most per layout (spec section 5): other types take their turn after.
    let type =
      (process.env.ONLY_TYPE as (typeof COMPONENT_TYPES)[number]) || COMPONENT_TYPES[n % COMPONENT_TYPES.length];
    if (type === 'liveStream' && n >= 6 * COMPONENT_TYPES.length) type = 'text';
    page.components.push(
      createComponent(type, {
        x: (j % 5) * 380,
        y: Math.floor(j / 5) * 360,
        w: 360,
        h: 340,
        z: j,
        props: props[type](n) as never,
      }),
    );
    n += 1;
  }
}

const stats = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const at = (q: number) => s[Math.min(s.length - 1, Math.floor(q * s.length))];
  return `median ${at(0.5).toFixed(2)} ms, p95 ${at(0.95).toFixed(2)} ms, max ${s[s.length - 1].toFixed(2)} ms (n=${s.length})`;
};

const container = dom.window.document.getElementById('root') as unknown as Element;
const now = Date.parse('2026-11-23T12:00:00Z');
console.log(`layout: ${doc.pages.length} pages, ${n} components, ${doc.width}x${doc.height}, scale 0.5, jsdom`);
for (const playing of [false, true]) {
  const root = createRoot(container);
  const draw = (page: number) =>
    createElement(LayoutPage, { doc, page, materials, scale: 0.5, now, playing, locale: 'en-US' });
  let t0 = performance.now();
  flushSync(() => root.render(draw(0)));
  const first = performance.now() - t0;
  const switches: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    for (let p = 1; p <= PAGES; p++) {
      t0 = performance.now();
      flushSync(() => root.render(draw(p % PAGES)));
      switches.push(performance.now() - t0);
    }
  }
  const drawn = container.querySelectorAll('[data-component-id]').length;
  console.log(
    `${playing ? 'playing' : 'still  '}: first page ${first.toFixed(2)} ms; page switch ${stats(switches)}; ${drawn} components on the page`,
  );
  root.unmount();
}
dom.window.close();
process.exit(0);
