import { describe, expect, it } from 'vitest';
import { codePath } from '../src/features/stores/RegionPicker';
import { formatPoint } from '../src/features/stores/texts';

describe('stores and geography (web)', () => {
  it('finds the picker path of a region code of any level', () => {
    expect(codePath('440305')).toEqual(['440000', '440300', '440305']);
    expect(codePath('440300')).toEqual(['440000', '440300']);
    expect(codePath('440000')).toEqual(['440000']);
    // A municipality's district sits under the city of the province's name (110100).
    expect(codePath('110105')).toEqual(['110000', '110100', '110105']);
  });

  it('writes a point with six decimals', () => {
    expect(formatPoint(22.547, 114.085947)).toBe('22.547000, 114.085947');
    expect(formatPoint(-33.8688, 151.2093)).toBe('-33.868800, 151.209300');
  });
});
