/** Factories: the empty document, a new page, a new component with its type's defaults. */
import {
  type ComponentOf,
  type ComponentType,
  componentPropsSchemas,
  componentSchema,
  LAYOUT_DOCUMENT_VERSION,
  type LayoutDocument,
  type LayoutPageData,
  layoutPageSchema,
} from './schema.js';

/** A short random id (page and component ids are unique within one document). */
export function newLayoutId(prefix = ''): string {
  const c = (globalThis as { crypto?: { randomUUID?: () => string } }).crypto;
  const raw = c?.randomUUID ? c.randomUUID().replace(/-/g, '').slice(0, 12) : Math.random().toString(36).slice(2, 14);
  return prefix + raw;
}

export function createPage(init: Partial<Pick<LayoutPageData, 'id' | 'name' | 'duration'>> = {}): LayoutPageData {
  return layoutPageSchema.parse({
    id: init.id ?? newLayoutId('p'),
    name: init.name ?? '',
    duration: init.duration ?? 10,
  });
}

/** The empty document: one page (a layout keeps at least one), 1920x1080 unless told. */
export function createEmptyLayout(init: { width?: number; height?: number; pageName?: string } = {}): LayoutDocument {
  return {
    v: LAYOUT_DOCUMENT_VERSION,
    width: init.width ?? 1920,
    height: init.height ?? 1080,
    pages: [createPage({ name: init.pageName ?? '' })],
  };
}

/** A sensible first size for a component dropped on a canvas, in layout pixels. */
export const DEFAULT_COMPONENT_SIZE: Record<ComponentType, { w: number; h: number }> = {
  picture: { w: 640, h: 360 },
  video: { w: 640, h: 360 },
  music: { w: 200, h: 80 },
  text: { w: 480, h: 80 },
  weather: { w: 320, h: 120 },
  clock: { w: 320, h: 80 },
  webPage: { w: 800, h: 600 },
  browser: { w: 800, h: 600 },
  button: { w: 240, h: 80 },
  html: { w: 480, h: 320 },
  liveStream: { w: 640, h: 360 },
  networkSignal: { w: 160, h: 60 },
  countdown: { w: 480, h: 100 },
  qrCode: { w: 240, h: 240 },
  shares: { w: 480, h: 240 },
};

/** The default props of a type (every field at its schema default). */
export function defaultProps<T extends ComponentType>(type: T): ComponentOf<T>['props'] {
  return componentPropsSchemas[type].parse({}) as ComponentOf<T>['props'];
}

/** A new component of `type` with its defaults, placed at x/y (and sized w/h) if given. */
export function createComponent<T extends ComponentType>(
  type: T,
  init: Partial<Pick<ComponentOf<T>, 'id' | 'name' | 'x' | 'y' | 'w' | 'h' | 'z'>> & {
    props?: Partial<ComponentOf<T>['props']>;
  } = {},
): ComponentOf<T> {
  const size = DEFAULT_COMPONENT_SIZE[type];
  return componentSchema.parse({
    type,
    id: init.id ?? newLayoutId('c'),
    name: init.name ?? '',
    x: init.x ?? 0,
    y: init.y ?? 0,
    w: init.w ?? size.w,
    h: init.h ?? size.h,
    z: init.z ?? 0,
    props: { ...defaultProps(type), ...(init.props ?? {}) },
  }) as ComponentOf<T>;
}
