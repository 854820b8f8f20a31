import { type ComponentOf, createComponent, createEmptyLayout, createPage } from '@marquee/layout';
import { describe, expect, it } from 'vitest';
import { weatherCities } from '../src/logic/weather';

/** The cities a layout's weather components ask for (docs/device-protocol.md 2.7.6). */
describe('weatherCities', () => {
  it('lists each weather component’s city once, in order, and nothing for a layout without one', () => {
    const weather = (city: string) => {
      const c = createComponent('weather', { x: 0, y: 0 }) as ComponentOf<'weather'>;
      return { ...c, props: { ...c.props, city } };
    };
    const doc = createEmptyLayout();
    const second = createPage();
    doc.pages[0].components.push(weather('Shanghai'), weather(' Tokyo '));
    second.components.push(weather('Shanghai'), weather(''));
    doc.pages.push(second);
    expect(weatherCities(doc)).toEqual(['Shanghai', 'Tokyo']);
    expect(weatherCities(createEmptyLayout())).toEqual([]);
  });
});
