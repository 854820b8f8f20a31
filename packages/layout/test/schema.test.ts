import { describe, expect, it } from 'vitest';
import {
  COMPONENT_TYPES,
  canDeletePage,
  checkLayoutRules,
  createComponent,
  createEmptyLayout,
  createPage,
  LAYOUT_LIMITS,
  layoutDocumentSchema,
  layoutDocumentShapeSchema,
  layoutMessage,
  layoutMessages,
  materialIdsOf,
  parseLayoutDocument,
  ruleOfError,
} from '../src/index.js';

describe('layout document schema', () => {
  it('the empty document is valid and keeps one page', () => {
    const doc = createEmptyLayout();
    expect(doc.v).toBe(1);
    expect(doc.pages).toHaveLength(1);
    expect(layoutDocumentSchema.safeParse(doc).success).toBe(true);
    expect(canDeletePage(doc)).toBe(false);
  });

  it('width and height are 48 to 11520 px', () => {
    for (const [w, h, ok] of [
      [48, 48, true],
      [11520, 11520, true],
      [47, 100, false],
      [100, 11521, false],
      [100.5, 100, false],
    ] as const) {
      expect(layoutDocumentSchema.safeParse(createEmptyLayout({ width: w, height: h })).success).toBe(ok);
    }
  });

  it('every one of the 15 types (the 14 of the spec and shares) has defaults that validate, and round-trips', () => {
    expect(COMPONENT_TYPES).toHaveLength(15);
    const doc = createEmptyLayout();
    for (const type of COMPONENT_TYPES) doc.pages[0].components.push(createComponent(type, { x: 10, y: 20 }));
    const parsed = layoutDocumentSchema.parse(JSON.parse(JSON.stringify(doc)));
    expect(parsed).toEqual(doc);
    expect(parsed.pages[0].components.map((c) => c.type)).toEqual([...COMPONENT_TYPES]);
  });

  it('fills defaults of a sparse component and rejects an unknown type or bad props', () => {
    const base = { id: 'c1', x: 0, y: 0, w: 10, h: 10 };
    const doc = {
      v: 1,
      width: 100,
      height: 100,
      pages: [{ id: 'p1', components: [{ ...base, type: 'text', props: {} }] }],
    };
    const parsed = layoutDocumentSchema.parse(doc);
    const c = parsed.pages[0].components[0];
    expect(c.type === 'text' && c.props.scroll.direction).toBe('none');
    expect(parsed.pages[0].duration).toBe(10);
    const bad = (component: object) =>
      layoutDocumentSchema.safeParse({ ...doc, pages: [{ id: 'p1', components: [{ ...base, ...component }] }] })
        .success;
    expect(bad({ type: 'hologram', props: {} })).toBe(false);
    expect(bad({ type: 'webPage', props: { url: 'javascript:alert(1)' } })).toBe(false);
    expect(bad({ type: 'webPage', props: { url: 'https://example.com/a' } })).toBe(true);
    expect(bad({ type: 'text', props: { color: 'red' } })).toBe(false);
    expect(bad({ type: 'clock', props: { timezone: 'Asia/Shanghai' } })).toBe(true);
    expect(bad({ type: 'clock', props: { timezone: 'Mars/Olympus' } })).toBe(false);
    expect(bad({ type: 'countdown', props: { target: 'not a date' } })).toBe(false);
    expect(bad({ type: 'text', props: {}, timing: { start: 5, end: 3 } })).toBe(false);
    expect(bad({ type: 'text', props: {}, w: 0 })).toBe(false);
    expect(bad({ type: 'button', props: { action: { kind: 'openUrl', url: 'ftp://x' } } })).toBe(false);
  });

  it('a share-price component holds up to 20 well-formed symbols and its colours', () => {
    const base = { id: 'c1', x: 0, y: 0, w: 10, h: 10, type: 'shares' };
    const parse = (props: object) =>
      layoutDocumentSchema.safeParse({
        v: 1,
        width: 100,
        height: 100,
        pages: [{ id: 'p1', components: [{ ...base, props }] }],
      });
    const ok = parse({ symbols: ['600519.SH', ' 0700.HK ', 'AAPL', 'BRK.B', 'BTC-USD'] });
    expect(ok.success).toBe(true);
    const c = ok.success ? ok.data.pages[0].components[0] : null;
    expect(c?.type === 'shares' && c.props.symbols[1]).toBe('0700.HK');
    expect(c?.type === 'shares' && [c.props.direction, c.props.upColor, c.props.showChange]).toEqual([
      'vertical',
      '#f5222d',
      true,
    ]);
    expect(parse({ symbols: ['AAPL; DROP'] }).success).toBe(false);
    expect(parse({ symbols: [''] }).success).toBe(false);
    expect(parse({ symbols: Array.from({ length: 21 }, (_, i) => `S${i}`) }).success).toBe(false);
    expect(parse({ upColor: 'red' }).success).toBe(false);
    expect(parse({ direction: 'diagonal' }).success).toBe(false);
  });

  it('a layout keeps at least one page', () => {
    const doc = { ...createEmptyLayout(), pages: [] };
    const result = layoutDocumentSchema.safeParse(doc);
    expect(result.success).toBe(false);
    if (!result.success) expect(ruleOfError(result.error)).toBe('minPages');
    // the shape alone (an editor draft) accepts it
    expect(layoutDocumentShapeSchema.safeParse(doc).success).toBe(true);
  });

  it('at most 6 live components per layout, counted across pages', () => {
    const doc = createEmptyLayout();
    doc.pages.push(createPage());
    for (let i = 0; i < 6; i++) doc.pages[i % 2].components.push(createComponent('liveStream'));
    expect(checkLayoutRules(doc)).toEqual([]);
    doc.pages[1].components.push(createComponent('liveStream'));
    const issues = checkLayoutRules(doc);
    expect(issues.map((i) => i.rule)).toEqual(['maxLiveComponents']);
    expect(issues[0].path).toEqual(['pages', 1, 'components', 3]);
    expect(LAYOUT_LIMITS.maxLiveComponents).toBe(6);
  });

  it('only one auto-jump interactive button', () => {
    const doc = createEmptyLayout();
    const target = createPage();
    doc.pages.push(target);
    const jump = { kind: 'jumpPage' as const, pageId: target.id };
    doc.pages[0].components.push(createComponent('button', { props: { action: jump, autoJump: 5 } }));
    doc.pages[0].components.push(createComponent('button', { props: { action: jump } }));
    expect(checkLayoutRules(doc)).toEqual([]);
    target.components.push(createComponent('button', { props: { action: jump, autoJump: 3 } }));
    const result = layoutDocumentSchema.safeParse(doc);
    expect(result.success).toBe(false);
    if (!result.success) expect(ruleOfError(result.error)).toBe('oneAutoJump');
  });

  it('ids are unique and jump targets exist', () => {
    const doc = createEmptyLayout();
    const c = createComponent('text');
    doc.pages[0].components.push(c, { ...c });
    doc.pages[0].components.push(
      createComponent('button', { props: { action: { kind: 'jumpPage', pageId: 'nope' } } }),
    );
    expect(checkLayoutRules(doc).map((i) => i.rule)).toEqual(['uniqueIds', 'jumpTarget']);
  });

  it('lists the material ids the document refers to', () => {
    const doc = createEmptyLayout();
    doc.pages[0].background.materialId = 'bg';
    doc.pages[0].components.push(
      createComponent('picture', {
        props: {
          materials: [
            { materialId: 'a', duration: 5 },
            { materialId: 'b', duration: 5 },
          ],
        },
      }),
      createComponent('video', { props: { materials: [{ materialId: 'a', duration: 10 }] } }),
      createComponent('music', { props: { materials: [{ materialId: 'm', duration: 10 }] } }),
    );
    expect(materialIdsOf(doc)).toEqual(['bg', 'a', 'b', 'm']);
  });

  it('parses stored documents through the upgrade path', () => {
    expect(parseLayoutDocument(createEmptyLayout()).success).toBe(true);
    expect(parseLayoutDocument({ v: 2, width: 100, height: 100, pages: [] }).success).toBe(false);
    expect(parseLayoutDocument(null).success).toBe(false);
  });

  it('messages exist in every locale, zh-CN is the fallback', () => {
    const keys = Object.keys(layoutMessages['zh-CN']).sort();
    expect(Object.keys(layoutMessages['en-US']).sort()).toEqual(keys);
    expect(Object.keys(layoutMessages.ja).sort()).toEqual(keys);
    expect(layoutMessage('fr', 'rule.minPages')).toBe(layoutMessages['zh-CN']['rule.minPages']);
    expect(layoutMessage('en-US', 'render.countdownDays', { d: 3 })).toBe('3 days');
  });
});
