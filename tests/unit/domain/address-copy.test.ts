import { describe, expect, it } from 'vitest';
import { formatAddressCopy, parseAddressCopy } from '~/domain/address-copy.ts';

const copy = { label: 'Casa', street: 'Av. Reforma 1', city: 'Ciudad de México', state: 'CDMX', zip: '06600', country: 'México' };

describe("an order's address copy", () => {
  it('reads every part held as text, and null for the rest', () => {
    expect(parseAddressCopy(copy)).toEqual(copy);
    expect(parseAddressCopy({ street: 'Calle 2', zip: 6600, extra: 'x' })).toEqual({
      label: null,
      street: 'Calle 2',
      city: null,
      state: null,
      zip: null,
      country: null,
    });
  });

  it('reads nothing from a column that holds no object', () => {
    for (const value of [null, undefined, '', 'Av. Reforma 1', 42, ['Av. Reforma 1']]) expect(parseAddressCopy(value)).toBeNull();
  });

  it('writes the address in one line without its label, leaving out empty parts and trimming the rest', () => {
    expect(formatAddressCopy(copy)).toBe('Av. Reforma 1, Ciudad de México, CDMX, 06600, México');
    expect(formatAddressCopy({ street: '  Calle 2 ', city: '', state: '   ', zip: '01000' })).toBe('Calle 2, 01000');
  });

  it('writes nothing for an empty copy or a column without one', () => {
    expect(formatAddressCopy({ label: 'Casa' })).toBeNull();
    expect(formatAddressCopy(null)).toBeNull();
  });
});
