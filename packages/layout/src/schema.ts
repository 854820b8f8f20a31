/**
 * The layout document (spec sections 1, 3, 5): what a screen shows, as pages of positioned
 * components. One versioned zod schema shared by the editor, the server and the renderer;
 * `v` is bumped (with an upgrade step in `upgradeLayoutDocument`) whenever the shape changes.
 */
import { z } from 'zod';

export const LAYOUT_DOCUMENT_VERSION = 1 as const;

/** Spec section 5 and the bounds we keep documents within (a document is stored as one jsonb). */
export const LAYOUT_LIMITS = {
  /** Layout width and height in px (spec section 5). */
  minSize: 48,
  maxSize: 11520,
  /** At most 6 live components per layout (spec section 5): live-stream components. */
  maxLiveComponents: 6,
  /** Only one auto-jump interactive button (spec section 5), across the layout. */
  maxAutoJumpButtons: 1,
  /** A layout keeps at least one page (spec section 5). */
  minPages: 1,
  maxPages: 200,
  maxComponentsPerPage: 500,
  maxComponentsTotal: 3000,
  /** Page duration in seconds. */
  minPageDuration: 1,
  maxPageDuration: 86400,
  maxPlaylistItems: 100,
  maxTextLength: 10000,
  maxHtmlLength: 100000,
  maxUrlLength: 2048,
  maxQrLength: 1000,
  maxNameLength: 100,
} as const;

/**
 * The 14 component types of the spec (section 2, 'Editors named in texts'), in the spec's order,
 * then the share-price component of issue 31.
 */
export const COMPONENT_TYPES = [
  'picture',
  'video',
  'music',
  'text',
  'weather',
  'clock',
  'webPage',
  'browser',
  'button',
  'html',
  'liveStream',
  'networkSignal',
  'countdown',
  'qrCode',
  'shares',
] as const;
export type ComponentType = (typeof COMPONENT_TYPES)[number];

/** Types that count toward the live-component limit (spec section 5). */
export const LIVE_COMPONENT_TYPES: readonly ComponentType[] = ['liveStream'];
/** Types whose props hold a playlist of material ids. */
export const MEDIA_COMPONENT_TYPES: readonly ComponentType[] = ['picture', 'video', 'music'];

const id = z.string().trim().min(1).max(64);
/** #rrggbb or #rrggbbaa, or 'transparent'. */
export const colorSchema = z.union([
  z.string().regex(/^#(?:[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$/),
  z.literal('transparent'),
]);
export const httpUrlSchema = z
  .string()
  .trim()
  .min(1)
  .max(LAYOUT_LIMITS.maxUrlLength)
  // A regex, not URL: the schema also runs where no DOM or Node types are declared (protocol).
  .regex(/^https?:\/\/[^\s/?#@]+(?:[/?#]\S*)?$/i, 'url must be http(s)');
const seconds = z.number().finite().min(0).max(LAYOUT_LIMITS.maxPageDuration);
const fontSize = z.number().int().min(6).max(2000);
const fontFamily = z.string().trim().max(100);
const align = z.enum(['left', 'center', 'right']);
const verticalAlign = z.enum(['top', 'middle', 'bottom']);
const fit = z.enum(['contain', 'cover', 'fill']);
const volume = z.number().int().min(0).max(100);

/** A material of a playlist: a material id (material library) and, for pictures, its display time. */
export const playlistItemSchema = z.object({
  materialId: id,
  /** Seconds a picture stays up; ignored for video and music (they play to their end). */
  duration: z.number().finite().min(1).max(LAYOUT_LIMITS.maxPageDuration).default(10),
});
export type PlaylistItem = z.infer<typeof playlistItemSchema>;
const playlist = z.array(playlistItemSchema).max(LAYOUT_LIMITS.maxPlaylistItems);

const textStyle = {
  color: colorSchema.default('#000000'),
  fontFamily: fontFamily.default(''),
  fontSize: fontSize.default(32),
  bold: z.boolean().default(false),
  italic: z.boolean().default(false),
};

export const pictureProps = z.object({
  materials: playlist.default([]),
  fit: fit.default('contain'),
  transition: z.enum(['none', 'fade']).default('none'),
});
export const videoProps = z.object({
  materials: playlist.default([]),
  fit: fit.default('contain'),
  muted: z.boolean().default(false),
  volume: volume.default(100),
});
export const musicProps = z.object({
  materials: playlist.default([]),
  volume: volume.default(100),
});
export const textProps = z.object({
  content: z.string().max(LAYOUT_LIMITS.maxTextLength).default(''),
  ...textStyle,
  underline: z.boolean().default(false),
  backgroundColor: colorSchema.default('transparent'),
  align: align.default('left'),
  verticalAlign: verticalAlign.default('top'),
  lineHeight: z.number().min(0.5).max(5).default(1.4),
  /** Scrolling text (marquee): direction and speed in px per second. */
  scroll: z
    .object({
      direction: z.enum(['none', 'left', 'right', 'up', 'down']).default('none'),
      speed: z.number().min(1).max(2000).default(60),
    })
    .default({ direction: 'none', speed: 60 }),
});
export const weatherProps = z.object({
  /** City name or code as the configured weather provider knows it. */
  city: z.string().trim().max(100).default(''),
  unit: z.enum(['c', 'f']).default('c'),
  ...textStyle,
});
/** A share symbol as screens write it: 600519.SH, 0700.HK, AAPL, BRK.B (the protocol's shareSymbolSchema). */
export const shareSymbolSchema = z
  .string()
  .trim()
  .min(1)
  .max(20)
  .regex(/^[A-Za-z0-9][A-Za-z0-9.^=-]*$/, 'symbol: letters, digits, . - ^ =');
export const sharesProps = z.object({
  /** Up to 20 symbols, in the order they are shown; the server's provider quotes them. */
  symbols: z.array(shareSymbolSchema).max(20).default([]),
  /** One symbol a row, or all in one line. */
  direction: z.enum(['vertical', 'horizontal']).default('vertical'),
  showName: z.boolean().default(true),
  showChange: z.boolean().default(true),
  /** Rising and falling colours (red up, green down on Chinese boards; swap them for others). */
  upColor: colorSchema.default('#f5222d'),
  downColor: colorSchema.default('#52c41a'),
  ...textStyle,
});
/** Clock formats: tokens Y M D H h m s A ddd (see format.ts). */
export const CLOCK_FORMATS = [
  'HH:mm:ss',
  'HH:mm',
  'YYYY-MM-DD HH:mm:ss',
  'YYYY-MM-DD',
  'YYYY-MM-DD ddd HH:mm',
  'hh:mm A',
] as const;
export const clockProps = z.object({
  format: z.string().trim().min(1).max(64).default('HH:mm:ss'),
  /** IANA time zone; '' is the screen's own zone. */
  timezone: z
    .string()
    .trim()
    .max(64)
    .default('')
    .refine((tz) => tz === '' || isTimeZone(tz), 'unknown time zone'),
  ...textStyle,
  align: align.default('center'),
});
export const webPageProps = z.object({
  url: httpUrlSchema.or(z.literal('')).default(''),
  /** Reload every N seconds; 0 never. */
  refresh: z.number().int().min(0).max(86400).default(0),
});
export const browserProps = z.object({
  url: httpUrlSchema.or(z.literal('')).default(''),
  refresh: z.number().int().min(0).max(86400).default(0),
  /** Viewers may touch and navigate (a kiosk browser); a web page is display-only. */
  interactive: z.boolean().default(true),
});
export const buttonActionSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('jumpPage'), pageId: id }),
  z.object({ kind: z.literal('openUrl'), url: httpUrlSchema }),
  z.object({ kind: z.literal('none') }),
]);
export type ButtonAction = z.infer<typeof buttonActionSchema>;
export const buttonProps = z.object({
  label: z.string().max(200).default(''),
  ...textStyle,
  color: colorSchema.default('#ffffff'),
  backgroundColor: colorSchema.default('#1677ff'),
  borderRadius: z.number().int().min(0).max(1000).default(8),
  action: buttonActionSchema.default({ kind: 'none' }),
  /** Fires the action by itself after this many seconds on the page (an auto-jump button); null never. */
  autoJump: z.number().int().min(1).max(86400).nullable().default(null),
});
export const htmlProps = z.object({
  /** Stored as written; sanitised (DOMPurify) every time it is rendered. */
  html: z.string().max(LAYOUT_LIMITS.maxHtmlLength).default(''),
});
export const liveStreamProps = z.object({
  /** An HLS (.m3u8) address played with hls.js, or natively where supported. */
  url: httpUrlSchema.or(z.literal('')).default(''),
  muted: z.boolean().default(true),
  volume: volume.default(100),
});
export const networkSignalProps = z.object({
  color: colorSchema.default('#000000'),
  showLabel: z.boolean().default(true),
  fontSize: fontSize.default(24),
});
export const COUNTDOWN_FORMATS = ['dhms', 'hms', 'days'] as const;
export const countdownProps = z.object({
  /** The moment counted down to, ISO 8601 with offset; '' not set yet. */
  target: z
    .string()
    .trim()
    .max(40)
    .default('')
    .refine((t) => t === '' || !Number.isNaN(Date.parse(t)), 'invalid date'),
  format: z.enum(COUNTDOWN_FORMATS).default('dhms'),
  /** Shown once the target has passed. */
  finishedText: z.string().max(200).default(''),
  ...textStyle,
  align: align.default('center'),
});
export const qrCodeProps = z.object({
  content: z.string().max(LAYOUT_LIMITS.maxQrLength).default(''),
  color: colorSchema.default('#000000'),
  backgroundColor: colorSchema.default('#ffffff'),
  margin: z.number().int().min(0).max(16).default(1),
});

export const componentPropsSchemas = {
  picture: pictureProps,
  video: videoProps,
  music: musicProps,
  text: textProps,
  weather: weatherProps,
  clock: clockProps,
  webPage: webPageProps,
  browser: browserProps,
  button: buttonProps,
  html: htmlProps,
  liveStream: liveStreamProps,
  networkSignal: networkSignalProps,
  countdown: countdownProps,
  qrCode: qrCodeProps,
  shares: sharesProps,
} as const satisfies Record<ComponentType, z.ZodType>;

export type ComponentPropsMap = { [K in ComponentType]: z.infer<(typeof componentPropsSchemas)[K]> };

const coordinate = z
  .number()
  .finite()
  .min(-LAYOUT_LIMITS.maxSize)
  .max(2 * LAYOUT_LIMITS.maxSize);
const extent = z
  .number()
  .finite()
  .min(1)
  .max(2 * LAYOUT_LIMITS.maxSize);

/** What every component has, whatever its type. Coordinates are layout pixels. */
export const componentBaseSchema = z.object({
  id,
  name: z.string().trim().max(LAYOUT_LIMITS.maxNameLength).default(''),
  x: coordinate,
  y: coordinate,
  w: extent,
  h: extent,
  /** Stacking order: higher is drawn on top. */
  z: z.number().int().min(0).max(100000).default(0),
  /** Degrees clockwise around the centre. */
  rotation: z.number().finite().min(-360).max(360).default(0),
  locked: z.boolean().default(false),
  hidden: z.boolean().default(false),
  /** Shown from `start` seconds after the page opens until `end` (null: until the page ends). */
  timing: z
    .object({ start: seconds.default(0), end: seconds.nullable().default(null) })
    .default({ start: 0, end: null })
    .refine((t) => t.end === null || t.end > t.start, { message: 'end must be after start', path: ['end'] }),
  /** This component's region is an RTB ad slot (sold by the slot, spec section 3). */
  rtbSlot: z.boolean().default(false),
});

function variant<T extends ComponentType, P extends z.ZodType>(type: T, props: P) {
  return componentBaseSchema.extend({ type: z.literal(type), props });
}

export const componentSchema = z.discriminatedUnion('type', [
  variant('picture', pictureProps),
  variant('video', videoProps),
  variant('music', musicProps),
  variant('text', textProps),
  variant('weather', weatherProps),
  variant('clock', clockProps),
  variant('webPage', webPageProps),
  variant('browser', browserProps),
  variant('button', buttonProps),
  variant('html', htmlProps),
  variant('liveStream', liveStreamProps),
  variant('networkSignal', networkSignalProps),
  variant('countdown', countdownProps),
  variant('qrCode', qrCodeProps),
  variant('shares', sharesProps),
]);
export type LayoutComponent = z.infer<typeof componentSchema>;
export type ComponentOf<T extends ComponentType> = Extract<LayoutComponent, { type: T }>;

export const pageBackgroundSchema = z.object({
  color: colorSchema.default('#000000'),
  /** A picture material drawn under the components; null none. */
  materialId: id.nullable().default(null),
  fit: fit.default('cover'),
});
export type PageBackground = z.infer<typeof pageBackgroundSchema>;

export const layoutPageSchema = z.object({
  id,
  name: z.string().trim().max(LAYOUT_LIMITS.maxNameLength).default(''),
  /** Seconds the page stays up before the next one when the layout plays. */
  duration: z.number().finite().min(LAYOUT_LIMITS.minPageDuration).max(LAYOUT_LIMITS.maxPageDuration).default(10),
  background: pageBackgroundSchema.default({ color: '#000000', materialId: null, fit: 'cover' }),
  components: z.array(componentSchema).max(LAYOUT_LIMITS.maxComponentsPerPage).default([]),
});
/** A page of the document (the React component `LayoutPage` draws one). */
export type LayoutPageData = z.infer<typeof layoutPageSchema>;

/**
 * The document without the cross-field rules: what the editor holds while the user works
 * (a draft may break a rule for a moment, e.g. while a second auto-jump button is being changed).
 */
export const layoutDocumentShapeSchema = z.object({
  v: z.literal(LAYOUT_DOCUMENT_VERSION),
  width: z.number().int().min(LAYOUT_LIMITS.minSize).max(LAYOUT_LIMITS.maxSize),
  height: z.number().int().min(LAYOUT_LIMITS.minSize).max(LAYOUT_LIMITS.maxSize),
  pages: z.array(layoutPageSchema).max(LAYOUT_LIMITS.maxPages),
});
export type LayoutDocument = z.infer<typeof layoutDocumentShapeSchema>;
export type LayoutDocumentInput = z.input<typeof layoutDocumentShapeSchema>;

function isTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}
