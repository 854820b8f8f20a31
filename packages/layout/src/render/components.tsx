/** @jsxRuntime automatic @jsxImportSource react */
/**
 * The content of each of the 15 component types, filling its box (position, size, rotation and
 * z-order are the page's job). Every view is fed the render context: materials, locale, time,
 * whether the layout plays, weather readings, share quotes and the button action handler.
 */
import DOMPurify from 'dompurify';
import QRCode from 'qrcode';
import { type CSSProperties, type ReactNode, useEffect, useMemo, useRef, useState } from 'react';
import { layoutMessage } from '../messages.js';
import type { ComponentOf, LayoutComponent } from '../schema.js';
import { countdownParts, formatClock, hms } from './format.js';
import { useNow, usePlaylistIndex } from './hooks.js';
import { lookupMaterial, type RenderContext } from './types.js';

const fill: CSSProperties = { position: 'absolute', inset: 0, width: '100%', height: '100%' };

function Placeholder({
  children,
  color = '#8c8c8c',
  fontSize = 24,
}: {
  children: ReactNode;
  color?: string;
  fontSize?: number;
}) {
  return (
    <div
      data-placeholder=""
      style={{
        ...fill,
        display: 'flex',
        alignItems: 'center',
        justifyContent: 'center',
        textAlign: 'center',
        color,
        fontSize,
        overflow: 'hidden',
        background: 'rgba(127,127,127,0.12)',
        border: '1px dashed rgba(127,127,127,0.5)',
        boxSizing: 'border-box',
      }}
    >
      {children}
    </div>
  );
}

function textStyle(p: {
  color: string;
  fontFamily: string;
  fontSize: number;
  bold: boolean;
  italic: boolean;
}): CSSProperties {
  return {
    color: p.color,
    fontFamily: p.fontFamily || undefined,
    fontSize: p.fontSize,
    fontWeight: p.bold ? 700 : 400,
    fontStyle: p.italic ? 'italic' : 'normal',
  };
}

function PictureView({ c, ctx }: { c: ComponentOf<'picture'>; ctx: RenderContext }) {
  const items = c.props.materials;
  const [index] = usePlaylistIndex(
    items.map((i) => i.duration),
    ctx.playing,
  );
  if (items.length === 0) return <Placeholder>{layoutMessage(ctx.locale, 'render.noMaterial')}</Placeholder>;
  const item = items[index];
  const material = lookupMaterial(ctx.materials, item.materialId);
  if (!material) return <Placeholder>{layoutMessage(ctx.locale, 'render.materialMissing')}</Placeholder>;
  return (
    <img
      key={`${index}-${item.materialId}`}
      src={material.url}
      alt=""
      draggable={false}
      style={{
        ...fill,
        objectFit: c.props.fit,
        animation: c.props.transition === 'fade' && ctx.playing ? 'mq-fade-in 0.6s ease-out' : undefined,
      }}
    />
  );
}

/** Plays a playlist of video or audio materials one after the other, looping. */
function MediaPlaylist({
  c,
  ctx,
  kind,
}: {
  c: ComponentOf<'video'> | ComponentOf<'music'>;
  ctx: RenderContext;
  kind: 'video' | 'audio';
}) {
  const items = c.props.materials;
  const [index, setIndex] = useState(0);
  const ref = useRef<HTMLVideoElement & HTMLAudioElement>(null);
  const safe = items.length ? index % items.length : 0;
  const material = items.length ? lookupMaterial(ctx.materials, items[safe].materialId) : undefined;
  const muted = c.type === 'video' ? c.props.muted : false;
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    el.volume = c.props.volume / 100;
    if (ctx.playing) el.play?.()?.catch?.(() => undefined);
    else el.pause?.();
  }, [ctx.playing, c.props.volume]);
  if (items.length === 0) return <Placeholder>{layoutMessage(ctx.locale, 'render.noMaterial')}</Placeholder>;
  if (!material) return <Placeholder>{layoutMessage(ctx.locale, 'render.materialMissing')}</Placeholder>;
  if (ctx.lite) {
    if (kind === 'video' && material.thumbUrl) {
      return (
        <img
          src={material.thumbUrl}
          alt=""
          draggable={false}
          style={{ ...fill, objectFit: 'contain', background: '#000' }}
        />
      );
    }
    return <Placeholder>{kind === 'video' ? '▶' : '♪'}</Placeholder>;
  }
  const next = () => setIndex((i) => i + 1);
  if (kind === 'audio') {
    return (
      <div style={{ ...fill, display: 'flex', alignItems: 'center', justifyContent: 'center' }}>
        <span aria-hidden style={{ fontSize: 'min(60%, 64px)', opacity: 0.75 }}>
          ♪
        </span>
        <audio
          ref={ref}
          key={`${safe}-${material.url}`}
          src={material.url}
          autoPlay={ctx.playing}
          loop={items.length === 1}
          onEnded={next}
          onError={next}
        />
      </div>
    );
  }
  return (
    <video
      ref={ref}
      key={`${safe}-${material.url}`}
      src={material.url}
      poster={material.thumbUrl ?? undefined}
      autoPlay={ctx.playing}
      muted={muted}
      playsInline
      loop={items.length === 1}
      preload={ctx.playing ? 'auto' : 'metadata'}
      onEnded={next}
      onError={() => {
        if (items.length > 1) next();
      }}
      style={{ ...fill, objectFit: c.type === 'video' ? c.props.fit : 'contain', background: '#000' }}
    />
  );
}

function TextView({ c, ctx }: { c: ComponentOf<'text'>; ctx: RenderContext }) {
  const p = c.props;
  const scrolling = ctx.playing && p.scroll.direction !== 'none' && p.content !== '';
  const horizontal = p.scroll.direction === 'left' || p.scroll.direction === 'right';
  // One pass crosses the box plus the text itself; the text's extent is estimated (no layout in
  // every host) from its length for a line, from its line count for a column.
  const extent = horizontal
    ? p.content.length * p.fontSize * 0.6
    : p.content.split('\n').length * p.fontSize * p.lineHeight;
  const distance = (horizontal ? c.w : c.h) + extent;
  const seconds = Math.max(1, distance / p.scroll.speed);
  const box: CSSProperties = {
    ...fill,
    ...textStyle(p),
    textDecoration: p.underline ? 'underline' : 'none',
    background: p.backgroundColor,
    lineHeight: p.lineHeight,
    overflow: 'hidden',
    display: 'flex',
    flexDirection: 'column',
    justifyContent: p.verticalAlign === 'top' ? 'flex-start' : p.verticalAlign === 'bottom' ? 'flex-end' : 'center',
    textAlign: p.align,
    whiteSpace: horizontal && scrolling ? 'nowrap' : 'pre-wrap',
    overflowWrap: 'anywhere',
  };
  if (!scrolling) return <div style={box}>{p.content}</div>;
  return (
    <div style={box}>
      <span
        data-scroll={p.scroll.direction}
        style={{
          display: 'inline-block',
          whiteSpace: horizontal ? 'nowrap' : 'pre-wrap',
          animation: `mq-scroll-${p.scroll.direction} ${seconds}s linear infinite`,
        }}
      >
        {p.content}
      </span>
    </div>
  );
}

function WeatherView({ c, ctx }: { c: ComponentOf<'weather'>; ctx: RenderContext }) {
  const p = c.props;
  const reading = p.city ? ctx.weather?.[p.city] : undefined;
  if (!reading) {
    return (
      <div
        data-weather="unavailable"
        style={{
          ...fill,
          ...textStyle(p),
          display: 'flex',
          alignItems: 'center',
          justifyContent: 'center',
          textAlign: 'center',
        }}
      >
        {layoutMessage(ctx.locale, 'render.weatherUnavailable')}
      </div>
    );
  }
  const t = (celsius: number) => Math.round(p.unit === 'f' ? (celsius * 9) / 5 + 32 : celsius);
  const unit = p.unit === 'f' ? '°F' : '°C';
  return (
    <div
      data-weather="reading"
      style={{
        ...fill,
        ...textStyle(p),
        display: 'flex',
        flexDirection: 'column',
        alignItems: 'center',
        justifyContent: 'center',
      }}
    >
      <div>
        {reading.city} {reading.condition}
      </div>
      <div style={{ fontSize: p.fontSize * 1.5 }}>
        {t(reading.temperature)}
        {unit}
      </div>
      {reading.low != null && reading.high != null ? (
        <div style={{ fontSize: p.fontSize * 0.75 }}>
          {t(reading.low)}
          {unit} ~ {t(reading.high)}
          {unit}
        </div>
      ) : null}
    </div>
  );
}

function ClockView({ c, ctx }: { c: ComponentOf<'clock'>; ctx: RenderContext }) {
  const now = useNow(ctx.now);
  const p = c.props;
  return (
    <div
      style={{
        ...fill,
        ...textStyle(p),
        display: 'flex',
        alignItems: 'center',
        justifyContent: p.align === 'left' ? 'flex-start' : p.align === 'right' ? 'flex-end' : 'center',
        whiteSpace: 'nowrap',
        fontVariantNumeric: 'tabular-nums',
      }}
    >
      {formatClock(now, p.format, p.timezone, ctx.locale)}
    </div>
  );
}

function CountdownView({ c, ctx }: { c: ComponentOf<'countdown'>; ctx: RenderContext }) {
  const now = useNow(ctx.now);
  const p = c.props;
  let text: string;
  if (!p.target) text = '--:--:--';
  else {
    const d = countdownParts(Date.parse(p.target), now);
    if (d.done) text = p.finishedText || hms(0, 0, 0);
    else if (p.format === 'days')
      text = layoutMessage(ctx.locale, 'render.countdownDays', {
        d: d.days + (d.hours || d.minutes || d.seconds ? 1 : 0),
      });
    else if (p.format === 'hms') text = hms(d.totalHours, d.minutes, d.seconds);
    else
      text = `${layoutMessage(ctx.locale, 'render.countdownDays', { d: d.days })} ${hms(d.hours, d.minutes, d.seconds)}`;
  }
  return (
    <div
      style={{
        ...fill,
        ...textStyle(p),
        display: 'flex',
        alignItems: 'center',
        justifyContent: p.align === 'left' ? 'flex-start' : p.align === 'right' ? 'flex-end' : 'center',
        whiteSpace: 'nowrap',
        fontVariantNumeric: 'tabular-nums',
      }}
    >
      {text}
    </div>
  );
}

/**
 * A sandboxed frame. Scripts run (pages need them) but a page served from our own origin loses
 * allow-same-origin, or it could reach into the console around it.
 */
function FrameView({
  url,
  refresh,
  interactive,
  ctx,
}: {
  url: string;
  refresh: number;
  interactive: boolean;
  ctx: RenderContext;
}) {
  const [round, setRound] = useState(0);
  useEffect(() => {
    if (!ctx.playing || refresh <= 0) return;
    const timer = setInterval(() => setRound((r) => r + 1), refresh * 1000);
    return () => clearInterval(timer);
  }, [ctx.playing, refresh]);
  if (!url) return <Placeholder>{layoutMessage(ctx.locale, 'render.noUrl')}</Placeholder>;
  if (ctx.lite) return <Placeholder>{url}</Placeholder>;
  let sameOrigin = false;
  try {
    sameOrigin = typeof location !== 'undefined' && new URL(url).origin === location.origin;
  } catch {
    return <Placeholder>{layoutMessage(ctx.locale, 'render.noUrl')}</Placeholder>;
  }
  const sandbox = [
    'allow-scripts',
    sameOrigin ? '' : 'allow-same-origin',
    interactive ? 'allow-forms allow-popups' : '',
  ]
    .filter(Boolean)
    .join(' ');
  return (
    <iframe
      key={round}
      title={url}
      src={url}
      sandbox={sandbox}
      referrerPolicy="no-referrer"
      loading="lazy"
      style={{ ...fill, border: 0, pointerEvents: interactive && ctx.playing ? 'auto' : 'none', background: '#fff' }}
    />
  );
}

function ButtonView({ c, ctx }: { c: ComponentOf<'button'>; ctx: RenderContext }) {
  const p = c.props;
  const { onAction, playing } = ctx;
  // The latest action and handler, so a re-render does not restart the auto-jump timer.
  const latest = useRef({ onAction, c });
  latest.current = { onAction, c };
  useEffect(() => {
    if (!playing || p.autoJump === null) return;
    const timer = setTimeout(
      () => latest.current.onAction?.(latest.current.c.props.action, latest.current.c),
      p.autoJump * 1000,
    );
    return () => clearTimeout(timer);
  }, [playing, p.autoJump]);
  return (
    <button
      type="button"
      onClick={() => {
        if (playing) onAction?.(p.action, c);
      }}
      style={{
        ...fill,
        ...textStyle(p),
        background: p.backgroundColor,
        borderRadius: p.borderRadius,
        border: 0,
        cursor: playing ? 'pointer' : 'default',
        padding: 0,
      }}
    >
      {p.label}
    </button>
  );
}

/** The only HTML that reaches the DOM: sanitised, no scripts, styles or forms. */
export function sanitizeLayoutHtml(html: string): string {
  return DOMPurify.sanitize(html, {
    FORBID_TAGS: ['style', 'form', 'input', 'button', 'textarea', 'select', 'iframe', 'object', 'embed'],
    FORBID_ATTR: ['srcset'],
  });
}

function HtmlView({ c }: { c: ComponentOf<'html'> }) {
  const clean = useMemo(() => sanitizeLayoutHtml(c.props.html), [c.props.html]);
  // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitised by DOMPurify just above
  return <div style={{ ...fill, overflow: 'hidden' }} dangerouslySetInnerHTML={{ __html: clean }} />;
}

function LiveStreamView({ c, ctx }: { c: ComponentOf<'liveStream'>; ctx: RenderContext }) {
  const ref = useRef<HTMLVideoElement>(null);
  const [failed, setFailed] = useState(false);
  const { url, muted, volume } = c.props;
  useEffect(() => {
    setFailed(false);
    const video = ref.current;
    if (!video || !url || !ctx.playing) return;
    video.volume = volume / 100;
    if (video.canPlayType?.('application/vnd.apple.mpegurl')) {
      video.src = url;
      video.play?.()?.catch?.(() => undefined);
      return;
    }
    let disposed = false;
    let hls: { destroy(): void } | null = null;
    import('hls.js')
      .then(({ default: Hls }) => {
        if (disposed) return;
        if (!Hls.isSupported()) {
          setFailed(true);
          return;
        }
        const instance = new Hls({ lowLatencyMode: true });
        hls = instance;
        instance.on(Hls.Events.ERROR, (_event, data) => {
          if (data.fatal) setFailed(true);
        });
        instance.loadSource(url);
        instance.attachMedia(video);
        video.play?.()?.catch?.(() => undefined);
      })
      .catch(() => setFailed(true));
    return () => {
      disposed = true;
      hls?.destroy();
    };
  }, [url, ctx.playing, volume]);
  if (!url) return <Placeholder>{layoutMessage(ctx.locale, 'render.noUrl')}</Placeholder>;
  if (failed) return <Placeholder color="#ff7875">{layoutMessage(ctx.locale, 'render.streamError')}</Placeholder>;
  if (!ctx.playing) {
    return (
      <Placeholder>
        <span>
          LIVE
          <br />
          <small style={{ fontSize: '0.6em', wordBreak: 'break-all' }}>{url}</small>
        </span>
      </Placeholder>
    );
  }
  return (
    <video
      ref={ref}
      data-live=""
      muted={muted}
      autoPlay
      playsInline
      style={{ ...fill, objectFit: 'contain', background: '#000' }}
    />
  );
}

interface NetworkState {
  online: boolean;
  type?: string;
}

function readNetwork(): NetworkState {
  if (typeof navigator === 'undefined') return { online: true };
  const connection = (navigator as Navigator & { connection?: { effectiveType?: string } }).connection;
  return { online: navigator.onLine, type: connection?.effectiveType };
}

function NetworkSignalView({ c, ctx }: { c: ComponentOf<'networkSignal'>; ctx: RenderContext }) {
  const [state, setState] = useState(readNetwork);
  useEffect(() => {
    const update = () => setState(readNetwork());
    window.addEventListener('online', update);
    window.addEventListener('offline', update);
    const connection = (navigator as Navigator & { connection?: EventTarget }).connection;
    connection?.addEventListener?.('change', update);
    return () => {
      window.removeEventListener('online', update);
      window.removeEventListener('offline', update);
      connection?.removeEventListener?.('change', update);
    };
  }, []);
  const p = c.props;
  const bars = !state.online
    ? 0
    : (({ 'slow-2g': 1, '2g': 2, '3g': 3 } as Record<string, number>)[state.type ?? ''] ?? 4);
  return (
    <div
      data-online={state.online ? 'true' : 'false'}
      style={{
        ...fill,
        display: 'flex',
        alignItems: 'center',
        justifyContent: 'center',
        gap: 8,
        color: p.color,
        fontSize: p.fontSize,
      }}
    >
      <svg viewBox="0 0 24 24" style={{ height: '70%', maxHeight: p.fontSize * 1.5 }} aria-hidden>
        {[0, 1, 2, 3].map((i) => (
          <rect
            key={i}
            x={2 + i * 6}
            y={18 - i * 5}
            width={4}
            height={4 + i * 5}
            fill="currentColor"
            opacity={i < bars ? 1 : 0.25}
          />
        ))}
      </svg>
      {p.showLabel ? (
        <span>
          {layoutMessage(ctx.locale, state.online ? 'render.online' : 'render.offline')}
          {state.online && state.type ? ` ${state.type.toUpperCase()}` : ''}
        </span>
      ) : null}
    </div>
  );
}

/** QR code paths by margin and content: pages and layouts repeat them, and editors redraw them. */
const qrPaths = new Map<string, { d: string; size: number } | null>();
const QR_PATHS_KEPT = 500;

function qrPath(content: string, margin: number): { d: string; size: number } | null {
  const key = `${margin}\n${content}`;
  const known = qrPaths.get(key);
  if (known !== undefined) return known;
  let path: { d: string; size: number } | null = null;
  try {
    const qr = QRCode.create(content, { errorCorrectionLevel: 'M' });
    const size = qr.modules.size;
    let d = '';
    // One rectangle per run of dark modules in a row.
    for (let y = 0; y < size; y++) {
      for (let x = 0; x < size; x++) {
        if (!qr.modules.get(x, y)) continue;
        let run = 1;
        while (x + run < size && qr.modules.get(x + run, y)) run++;
        d += `M${x + margin} ${y + margin}h${run}v1h-${run}z`;
        x += run - 1;
      }
    }
    path = { d, size: size + margin * 2 };
  } catch {
    path = null;
  }
  if (qrPaths.size >= QR_PATHS_KEPT) qrPaths.delete(qrPaths.keys().next().value as string);
  qrPaths.set(key, path);
  return path;
}

function QrCodeView({ c, ctx }: { c: ComponentOf<'qrCode'>; ctx: RenderContext }) {
  const { content, color, backgroundColor, margin } = c.props;
  const path = useMemo(() => (content ? qrPath(content, margin) : null), [content, margin]);
  if (!path) return <Placeholder>{layoutMessage(ctx.locale, 'render.emptyQr')}</Placeholder>;
  return (
    <svg
      data-qr=""
      viewBox={`0 0 ${path.size} ${path.size}`}
      shapeRendering="crispEdges"
      style={{ ...fill }}
      aria-label={content}
      role="img"
    >
      <rect width={path.size} height={path.size} fill={backgroundColor} />
      <path d={path.d} fill={color} />
    </svg>
  );
}

/** A quote worth showing: the provider's, and struck within the last 15 minutes. */
function freshQuote(ctx: RenderContext, symbol: string) {
  const q = ctx.shares?.[symbol.trim().toUpperCase()];
  return q && !q.stale ? q : null;
}

function signed(n: number, digits: number): string {
  const text = Math.abs(n).toFixed(digits);
  return n > 0 ? `+${text}` : n < 0 ? `-${text}` : text;
}

/**
 * Share prices (issue 31): each symbol's price and change against the previous close, rising
 * and falling in their colours. A symbol with no fresh quote (no provider, unknown, stale) is
 * left out, and with none the component draws nothing: never an invented price. On the still
 * editor canvas the symbols stand in for their quotes.
 */
function SharesView({ c, ctx }: { c: ComponentOf<'shares'>; ctx: RenderContext }) {
  const p = c.props;
  const rows = p.symbols.flatMap((s) => {
    const q = freshQuote(ctx, s);
    return q ? [q] : [];
  });
  if (rows.length === 0) {
    if (ctx.playing || p.symbols.length === 0) return <div data-shares="none" style={fill} />;
    return (
      <Placeholder color={p.color} fontSize={Math.min(p.fontSize, 32)}>
        {p.symbols.join(' · ')}
      </Placeholder>
    );
  }
  const horizontal = p.direction === 'horizontal';
  return (
    <div
      data-shares="quotes"
      style={{
        ...fill,
        ...textStyle(p),
        display: 'flex',
        flexDirection: horizontal ? 'row' : 'column',
        justifyContent: 'center',
        gap: horizontal ? p.fontSize : p.fontSize * 0.25,
        padding: p.fontSize * 0.25,
        boxSizing: 'border-box',
        overflow: 'hidden',
        whiteSpace: 'nowrap',
      }}
    >
      {rows.map((q) => {
        const change = q.change ?? 0;
        const tint = change > 0 ? p.upColor : change < 0 ? p.downColor : p.color;
        return (
          <div
            key={q.symbol}
            data-symbol={q.symbol}
            style={{ display: 'flex', gap: p.fontSize * 0.5, alignItems: 'baseline', justifyContent: 'space-between' }}
          >
            <span>{p.showName && q.name ? q.name : q.symbol}</span>
            <span data-price="" style={{ color: tint }}>
              {q.price.toFixed(2)}
            </span>
            {p.showChange && (q.change !== null || q.changePercent !== null) ? (
              <span data-change={change > 0 ? 'up' : change < 0 ? 'down' : 'flat'} style={{ color: tint }}>
                {change > 0 ? '▲' : change < 0 ? '▼' : ''}
                {q.change !== null ? signed(q.change, 2) : ''}
                {q.changePercent !== null ? ` (${signed(q.changePercent, 2)}%)` : ''}
              </span>
            ) : null}
          </div>
        );
      })}
    </div>
  );
}

/** The content of one component, filling its parent box. */
export function ComponentView({ component, ctx }: { component: LayoutComponent; ctx: RenderContext }) {
  const c = component;
  switch (c.type) {
    case 'picture':
      return <PictureView c={c} ctx={ctx} />;
    case 'video':
      return <MediaPlaylist c={c} ctx={ctx} kind="video" />;
    case 'music':
      return <MediaPlaylist c={c} ctx={ctx} kind="audio" />;
    case 'text':
      return <TextView c={c} ctx={ctx} />;
    case 'weather':
      return <WeatherView c={c} ctx={ctx} />;
    case 'clock':
      return <ClockView c={c} ctx={ctx} />;
    case 'webPage':
      return <FrameView url={c.props.url} refresh={c.props.refresh} interactive={false} ctx={ctx} />;
    case 'browser':
      return <FrameView url={c.props.url} refresh={c.props.refresh} interactive={c.props.interactive} ctx={ctx} />;
    case 'button':
      return <ButtonView c={c} ctx={ctx} />;
    case 'html':
      return <HtmlView c={c} />;
    case 'liveStream':
      return <LiveStreamView c={c} ctx={ctx} />;
    case 'networkSignal':
      return <NetworkSignalView c={c} ctx={ctx} />;
    case 'countdown':
      return <CountdownView c={c} ctx={ctx} />;
    case 'shares':
      return <SharesView c={c} ctx={ctx} />;
    case 'qrCode':
      return <QrCodeView c={c} ctx={ctx} />;
  }
}
