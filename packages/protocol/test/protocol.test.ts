import { describe, expect, it } from 'vitest';
import {
  ALL_PERMISSION_CODES,
  buildMenu,
  buildSignedCall,
  CONSOLE_APP,
  canonicalString,
  ENDPOINT_LIST,
  ErrorCode,
  errorMessage,
  errorMessages,
  findRoute,
  hasPermission,
  isWeakPassword,
  LOCALES,
  Perm,
  ROUTE_ALIASES,
  ROUTES,
  resolveAlias,
  sectionOf,
  signCall,
  trimStrings,
} from '../src/index.js';

describe('permission rules (spec section 6)', () => {
  it('allows a route without a mapping', () => {
    expect(hasPermission([], undefined)).toBe(true);
  });
  it('needs the code when one is required', () => {
    expect(hasPermission(['yxf_new_device'], 'yxf_new_device')).toBe(true);
    expect(hasPermission(['yxf_new_device'], 'yxf_new_user')).toBe(false);
  });
  it('counts a numeric code as allowed', () => {
    expect(hasPermission([], '2019103001273')).toBe(true);
  });
  it('allows a comma-separated code if any part is held', () => {
    expect(hasPermission(['b'], 'a, b')).toBe(true);
    expect(hasPermission(['c'], 'a,b')).toBe(false);
  });
  it('accepts a Set as well as an array', () => {
    expect(hasPermission(new Set(['a']), 'a')).toBe(true);
  });
});

describe('route table (spec section 2)', () => {
  it('uses the spec codes for the sections and named routes', () => {
    expect(findRoute('/device')?.permission).toBe('yxf_new_device');
    expect(findRoute('/report/flowConsumption')?.permission).toBe('yxf_new_source_consumption');
    expect(findRoute('/special/resource')?.permission).toBe('yxf_new_special_resource');
    for (const code of ['yxf_new_data_allocation', 'yxf_new_app_market', '2019103001273']) {
      expect(ALL_PERMISSION_CODES).toContain(code);
    }
  });
  it('shares one permission across the three alarm routes', () => {
    const codes = new Set(['/alarm', '/alarm/report', '/alarm/setting'].map((p) => findRoute(p)?.permission));
    expect([...codes]).toEqual([Perm.alarm]);
  });
  it('maps every alias to an existing route', () => {
    for (const target of Object.values(ROUTE_ALIASES)) expect(findRoute(target), target).toBeDefined();
    expect(resolveAlias('/dev_mag')).toBe('/device');
    expect(resolveAlias('/shop/order')).toBe('/shop/order');
  });
  it('marks exactly the four editors as not cached', () => {
    expect(
      ROUTES.filter((r) => r.noCache)
        .map((r) => r.path)
        .sort(),
    ).toEqual(['/advert/edit', '/poster/editor', '/template/edit', '/template/new']);
  });
  it('derives the active section from the first segment', () => {
    expect(sectionOf('/template/edit')).toBe(Perm.adv);
    expect(sectionOf('/skin')).toBe(Perm.my);
    expect(sectionOf('/')).toBe('home');
  });
  it('builds the menu from permissions, children only when allowed', () => {
    const menu = buildMenu((p) => hasPermission([Perm.device, Perm.deviceTags], p));
    const device = menu.find((m) => m.url === '/device');
    expect(device?.children?.map((c) => c.url)).toEqual(['/device/tags']);
    expect(menu.find((m) => m.url === '/user')).toBeUndefined();
    expect(menu[0]?.url).toBe('/');
  });
});

describe('signing (docs/protocol.md)', () => {
  const base = { language: 'en-US', uuid: 'dev-1', sequence: 'seq-1', traceKey: 'trace-1', now: 1_700_000_000_000 };
  it('signs the canonical string of sorted fields and the payload', () => {
    const call = buildSignedCall({ name: '  a  ' }, base);
    expect(call.payload).toBe('{"name":"a"}');
    expect(call.query.token).toBe('-1');
    expect(call.query.version).toBe('1.31700000000000');
    expect(call.query.origin).toBe('new');
    const { sign, ...fields } = call.query;
    expect(canonicalString(fields, call.payload)).toMatch(/^appid=marquee-console&language=en-US&origin=new&/);
    expect(sign).toBe(signCall(CONSOLE_APP.key, fields, call.payload));
    expect(sign).toMatch(/^[0-9a-f]{64}$/);
  });
  it('changes the signature when the payload or a field changes', () => {
    const a = buildSignedCall({ x: 1 }, base);
    const b = buildSignedCall({ x: 2 }, base);
    const c = buildSignedCall({ x: 1 }, { ...base, token: 'tok' });
    expect(new Set([a.query.sign, b.query.sign, c.query.sign]).size).toBe(3);
  });
  it('trims strings deeply and leaves other values alone', () => {
    expect(trimStrings({ a: ' x ', b: [' y', 2, null], c: { d: 'z ' } })).toEqual({
      a: 'x',
      b: ['y', 2, null],
      c: { d: 'z' },
    });
  });
});

describe('error catalogue', () => {
  it('has a message in every locale for every code', () => {
    for (const code of Object.values(ErrorCode)) {
      for (const locale of LOCALES) expect(errorMessages[code][locale], `${code} ${locale}`).toBeTruthy();
    }
  });
  it('falls back to zh-CN for an unknown locale', () => {
    expect(errorMessage(ErrorCode.NO_PERMISSION, 'fr')).toBe(errorMessages[ErrorCode.NO_PERMISSION]['zh-CN']);
  });
  it('uses distinct codes', () => {
    const codes = Object.values(ErrorCode);
    expect(new Set(codes).size).toBe(codes.length);
  });
});

describe('endpoint catalogue', () => {
  it('has unique names and .shtm paths', () => {
    expect(new Set(ENDPOINT_LIST.map((e) => e.name)).size).toBe(ENDPOINT_LIST.length);
    for (const e of ENDPOINT_LIST) expect(e.path).toMatch(/^\/api\/.+\.shtm$/);
  });
});

describe('password rules (spec section 5)', () => {
  it('treats a password as weak unless 10-15 chars with 3 classes', () => {
    expect(isWeakPassword('Marquee@2026')).toBe(false);
    expect(isWeakPassword('marquee2026')).toBe(true);
    expect(isWeakPassword('Ab1!')).toBe(true);
    expect(isWeakPassword('Abcdefgh1!Abcdefgh')).toBe(true);
  });
});
