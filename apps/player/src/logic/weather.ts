import type { LayoutDocument } from '@marquee/layout';

/** How often the readings of a layout's weather components are asked again (the server caches them as long). */
export const WEATHER_REFRESH_MS = 10 * 60_000;

/** The cities of a layout's weather components, each once, in the order they appear. */
export function weatherCities(doc: LayoutDocument): string[] {
  const out = new Set<string>();
  for (const page of doc.pages) {
    for (const c of page.components) {
      if (c.type === 'weather' && c.props.city.trim()) out.add(c.props.city.trim());
    }
  }
  return [...out].slice(0, 20);
}
