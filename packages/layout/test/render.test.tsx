import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  COMPONENT_TYPES,
  createComponent,
  createEmptyLayout,
  createPage,
  formatClock,
  type LayoutDocument,
  LayoutPage,
  LayoutPlayer,
  type RenderMaterial,
  sanitizeLayoutHtml,
} from '../src/index.js';

// jsdom rendering of every type (QR, DOMPurify, frames) is slow on a loaded machine.
vi.setConfig({ testTimeout: 60_000 });

const NOW = Date.parse('2026-11-23T04:05:06Z');
const materials = new Map<string, RenderMaterial>([
  ['img1', { url: 'https://files.example/a.png', type: 'image' }],
  ['img2', { url: 'https://files.example/b.png', type: 'image' }],
  ['vid1', { url: 'https://files.example/v.mp4', type: 'video' }],
  ['aud1', { url: 'https://files.example/m.mp3', type: 'audio' }],
]);

function everyTypeDoc(): LayoutDocument {
  const doc = createEmptyLayout({ width: 1920, height: 1080 });
  const page = doc.pages[0];
  page.background.materialId = 'img2';
  const props: Record<string, object> = {
    picture: { materials: [{ materialId: 'img1', duration: 5 }] },
    video: { materials: [{ materialId: 'vid1', duration: 10 }] },
    music: { materials: [{ materialId: 'aud1', duration: 10 }] },
    text: { content: 'Hello screens' },
    weather: { city: 'Shanghai' },
    clock: { format: 'YYYY-MM-DD HH:mm:ss', timezone: 'Asia/Shanghai' },
    webPage: { url: 'https://example.com/' },
    browser: { url: 'https://example.org/' },
    button: { label: 'Go', action: { kind: 'openUrl', url: 'https://example.net/' } },
    html: { html: '<b>bold</b><script>alert(1)</script><img src=x onerror="alert(1)">' },
    liveStream: { url: 'https://live.example/s.m3u8' },
    networkSignal: {},
    countdown: { target: '2026-11-25T04:05:06Z', format: 'dhms' },
    qrCode: { content: 'https://marquee.example/q' },
    shares: { symbols: ['600519.SH', 'AAPL', 'TSLA'] },
  };
  COMPONENT_TYPES.forEach((type, i) => {
    page.components.push(
      createComponent(type, { id: type, x: (i % 5) * 380, y: Math.floor(i / 5) * 360, z: i, props: props[type] }),
    );
  });
  return doc;
}

beforeAll(() => {
  // jsdom has no media playback; the renderer calls play()/pause().
  Object.defineProperty(HTMLMediaElement.prototype, 'play', { configurable: true, value: () => Promise.resolve() });
  Object.defineProperty(HTMLMediaElement.prototype, 'pause', { configurable: true, value: () => undefined });
});
afterEach(cleanup);

describe('LayoutPage', () => {
  it('renders every component type, positioned and scaled', () => {
    const doc = everyTypeDoc();
    const { container } = render(
      <LayoutPage doc={doc} page={0} materials={materials} scale={0.5} now={NOW} locale="en-US" />,
    );
    const root = container.firstElementChild as HTMLElement;
    expect(root.style.width).toBe('960px');
    expect(root.style.height).toBe('540px');
    for (const type of COMPONENT_TYPES) {
      const box = container.querySelector(`[data-component-id="${type}"]`) as HTMLElement;
      expect(box, type).not.toBeNull();
      expect(box.dataset.component).toBe(type);
    }
    const text = container.querySelector('[data-component-id="text"]') as HTMLElement;
    expect(text.style.left).toBe('1140px');
    expect(text.style.width).toBe('480px');
    expect(text.textContent).toBe('Hello screens');
    // picture and background from the materials map
    expect(container.querySelector('[data-component-id="picture"] img')?.getAttribute('src')).toBe(
      'https://files.example/a.png',
    );
    expect(container.querySelector('img')?.getAttribute('src')).toBe('https://files.example/b.png');
    expect(container.querySelector('[data-component-id="video"] video')?.getAttribute('src')).toBe(
      'https://files.example/v.mp4',
    );
    expect(container.querySelector('[data-component-id="music"] audio')?.getAttribute('src')).toBe(
      'https://files.example/m.mp3',
    );
    // clock in its time zone, countdown from the fixed time
    expect(container.querySelector('[data-component-id="clock"]')?.textContent).toBe('2026-11-23 12:05:06');
    expect(container.querySelector('[data-component-id="countdown"]')?.textContent).toBe('2 days 00:00:00');
    // frames are sandboxed; a web page is not interactive
    const web = container.querySelector('[data-component-id="webPage"] iframe') as HTMLIFrameElement;
    expect(web.getAttribute('sandbox')).toBe('allow-scripts allow-same-origin');
    expect(web.style.pointerEvents).toBe('none');
    const browser = container.querySelector('[data-component-id="browser"] iframe') as HTMLIFrameElement;
    expect(browser.getAttribute('sandbox')).toContain('allow-forms');
    // html is sanitised
    const html = container.querySelector('[data-component-id="html"]') as HTMLElement;
    expect(html.innerHTML).toContain('<b>bold</b>');
    expect(html.innerHTML).not.toContain('script');
    expect(html.innerHTML).not.toContain('onerror');
    // weather without a provider says so, never invents data
    expect(container.querySelector('[data-component-id="weather"]')?.textContent).toBe('Weather data unavailable');
    // QR code drawn as SVG
    expect(container.querySelector('[data-component-id="qrCode"] svg path')?.getAttribute('d')).toMatch(/^M/);
    // network signal
    expect(container.querySelector('[data-component-id="networkSignal"] [data-online]')).not.toBeNull();
    // a still live stream shows its address, not a player
    expect(container.querySelector('[data-component-id="liveStream"]')?.textContent).toContain('live.example');
    expect(screen.getByRole('button', { name: 'Go' })).toBeTruthy();
  });

  it('says weather is unavailable in the viewer language, and shows a provider reading', () => {
    const doc = everyTypeDoc();
    const { container, rerender } = render(
      <LayoutPage doc={doc} page={0} materials={materials} now={NOW} locale="zh-CN" />,
    );
    expect(container.querySelector('[data-component-id="weather"]')?.textContent).toBe('暂无天气数据');
    rerender(
      <LayoutPage
        doc={doc}
        page={0}
        materials={materials}
        now={NOW}
        locale="ja"
        weather={{ Shanghai: { city: '上海', temperature: 12.4, condition: '晴れ', low: 8, high: 15 } }}
      />,
    );
    const weather = container.querySelector('[data-component-id="weather"]') as HTMLElement;
    expect(weather.textContent).toContain('12°C');
    expect(weather.textContent).toContain('晴れ');
  });

  it('shows fresh share quotes in rising and falling colours, and nothing without a provider', () => {
    const doc = everyTypeDoc();
    const { container, rerender } = render(<LayoutPage doc={doc} page={0} materials={materials} now={NOW} playing />);
    const box = () => container.querySelector('[data-component-id="shares"]') as HTMLElement;
    // no provider: nothing at all on a screen (never an invented price)
    expect(box().querySelector('[data-shares="none"]')).not.toBeNull();
    expect(box().textContent).toBe('');
    const time = '2026-11-23T04:00:00Z';
    rerender(
      <LayoutPage
        doc={doc}
        page={0}
        materials={materials}
        now={NOW}
        playing
        shares={{
          '600519.SH': {
            symbol: '600519.SH',
            name: '贵州茅台',
            price: 1700.5,
            change: -3.5,
            changePercent: -0.21,
            currency: 'CNY',
            time,
            stale: false,
          },
          AAPL: {
            symbol: 'AAPL',
            name: 'Apple',
            price: 189.5,
            change: 1.25,
            changePercent: 0.66,
            currency: 'USD',
            time,
            stale: false,
          },
          TSLA: {
            symbol: 'TSLA',
            name: 'Tesla',
            price: 250,
            change: 1,
            changePercent: 0.4,
            currency: 'USD',
            time,
            stale: true,
          },
        }}
      />,
    );
    const rows = [...box().querySelectorAll('[data-symbol]')] as HTMLElement[];
    expect(rows.map((r) => r.dataset.symbol)).toEqual(['600519.SH', 'AAPL']); // the stale one is left out
    expect(rows[0].textContent).toContain('贵州茅台');
    expect(rows[0].textContent).toContain('1700.50');
    expect(rows[0].textContent).toContain('-3.50 (-0.21%)');
    expect(rows[0].querySelector('[data-change="down"]')).not.toBeNull();
    expect((rows[0].querySelector('[data-price]') as HTMLElement).style.color).toBe('rgb(82, 196, 26)');
    expect(rows[1].querySelector('[data-change="up"]')?.textContent).toContain('+1.25 (+0.66%)');
    expect((rows[1].querySelector('[data-price]') as HTMLElement).style.color).toBe('rgb(245, 34, 45)');
    // the still editor canvas shows the symbols in place of quotes
    rerender(<LayoutPage doc={doc} page={0} materials={materials} now={NOW} />);
    expect(box().textContent).toContain('600519.SH · AAPL · TSLA');
  });

  it('shows placeholders for missing materials and empty settings', () => {
    const doc = createEmptyLayout();
    doc.pages[0].components.push(
      createComponent('picture', { id: 'gone', props: { materials: [{ materialId: 'deleted', duration: 5 }] } }),
      createComponent('video', { id: 'empty' }),
      createComponent('qrCode', { id: 'qr' }),
      createComponent('webPage', { id: 'web' }),
    );
    const { container } = render(<LayoutPage doc={doc} page={0} materials={{}} locale="en-US" />);
    expect(container.querySelector('[data-component-id="gone"]')?.textContent).toBe('Material unavailable');
    expect(container.querySelector('[data-component-id="empty"]')?.textContent).toBe('No material selected');
    expect(container.querySelector('[data-component-id="qr"]')?.textContent).toBe('No QR code content');
    expect(container.querySelector('[data-component-id="web"]')?.textContent).toBe('No address set');
  });

  it('leaves hidden components out, and draws by z-order', () => {
    const doc = createEmptyLayout();
    doc.pages[0].components.push(
      createComponent('text', { id: 'top', z: 5 }),
      createComponent('text', { id: 'bottom', z: 1 }),
      { ...createComponent('text', { id: 'hid' }), hidden: true },
    );
    const { container } = render(<LayoutPage doc={doc} page={doc.pages[0].id} materials={{}} />);
    const ids = [...container.querySelectorAll('[data-component-id]')].map(
      (e) => (e as HTMLElement).dataset.componentId,
    );
    expect(ids).toEqual(['bottom', 'top']);
  });

  it('applies component timing while playing', () => {
    vi.useFakeTimers();
    try {
      const doc = createEmptyLayout();
      doc.pages[0].components.push({ ...createComponent('text', { id: 'late' }), timing: { start: 2, end: 4 } });
      const { container } = render(<LayoutPage doc={doc} page={0} materials={{}} playing />);
      expect(container.querySelector('[data-component-id="late"]')).toBeNull();
      act(() => vi.advanceTimersByTime(2500));
      expect(container.querySelector('[data-component-id="late"]')).not.toBeNull();
      act(() => vi.advanceTimersByTime(2000));
      expect(container.querySelector('[data-component-id="late"]')).toBeNull();
    } finally {
      vi.useRealTimers();
    }
  });
  it('ticks every clock and countdown of a page on one timer, together', () => {
    vi.useFakeTimers();
    try {
      vi.setSystemTime(NOW);
      const doc = createEmptyLayout();
      for (let i = 0; i < 6; i++) {
        doc.pages[0].components.push(
          createComponent(i % 2 ? 'countdown' : 'clock', {
            id: `t${i}`,
            z: i,
            props: i % 2 ? { target: '2026-11-25T04:05:06Z', format: 'hms' } : { format: 'HH:mm:ss', timezone: 'UTC' },
          }),
        );
      }
      const { container } = render(<LayoutPage doc={doc} page={0} materials={{}} locale="en-US" />);
      const text = (id: string) => container.querySelector(`[data-component-id="${id}"]`)?.textContent;
      expect(text('t0')).toBe('04:05:06');
      expect(vi.getTimerCount()).toBe(1);
      act(() => vi.advanceTimersByTime(1000));
      expect([text('t0'), text('t2'), text('t4')]).toEqual(['04:05:07', '04:05:07', '04:05:07']);
      expect(text('t1')).toBe('47:59:59');
      expect(vi.getTimerCount()).toBe(1);
      cleanup();
      expect(vi.getTimerCount()).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('LayoutPlayer', () => {
  function twoPages() {
    const doc = createEmptyLayout();
    const second = createPage({ duration: 3 });
    doc.pages[0].duration = 5;
    doc.pages.push(second);
    doc.pages[0].components.push(
      createComponent('button', {
        id: 'jump',
        props: { label: 'Next', action: { kind: 'jumpPage', pageId: second.id } },
      }),
    );
    second.components.push(createComponent('text', { id: 'second', props: { content: 'Page two' } }));
    return doc;
  }

  it('cycles pages by their durations and loops', () => {
    vi.useFakeTimers();
    try {
      const doc = twoPages();
      const pages: number[] = [];
      const { container } = render(<LayoutPlayer doc={doc} materials={{}} onPageChange={(i) => pages.push(i)} />);
      const current = () => (container.querySelector('[data-layout-page]') as HTMLElement).dataset.layoutPage;
      expect(current()).toBe(doc.pages[0].id);
      act(() => vi.advanceTimersByTime(5000));
      expect(current()).toBe(doc.pages[1].id);
      act(() => vi.advanceTimersByTime(3000));
      expect(current()).toBe(doc.pages[0].id);
      expect(pages).toEqual([0, 1, 0]);
    } finally {
      vi.useRealTimers();
    }
  });

  it('jumps to a page when a button is pressed, and by itself for an auto-jump button', () => {
    vi.useFakeTimers();
    try {
      const doc = twoPages();
      const { container } = render(<LayoutPlayer doc={doc} materials={{}} />);
      fireEvent.click(screen.getByRole('button', { name: 'Next' }));
      expect(container.textContent).toContain('Page two');
      const auto = twoPages();
      const jump = auto.pages[0].components[0];
      if (jump.type === 'button') jump.props.autoJump = 2;
      auto.pages[0].duration = 60;
      cleanup();
      const second = render(<LayoutPlayer doc={auto} materials={{}} />);
      expect(second.container.textContent).not.toContain('Page two');
      act(() => vi.advanceTimersByTime(2000));
      expect(second.container.textContent).toContain('Page two');
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('helpers', () => {
  it('formats clocks with tokens, in a time zone', () => {
    expect(formatClock(NOW, 'HH:mm', 'UTC', 'en-US')).toBe('04:05');
    expect(formatClock(NOW, 'hh:mm A', 'America/New_York', 'en-US')).toBe('11:05 PM');
    expect(formatClock(NOW, 'ddd', 'UTC', 'en-US')).toBe('Mon');
  });

  it('sanitises html', () => {
    expect(sanitizeLayoutHtml('<p style="color:red">x</p><style>body{}</style><iframe src="https://x"></iframe>')).toBe(
      '<p style="color:red">x</p>',
    );
  });
});
