import { describe, expect, it } from 'vitest';
import { addressLines, formatAddressCopy, parseAddressCopy, partsOfAddress } from '~/domain/address-copy.ts';

const copy = { label: 'Casa', street: 'Av. Reforma 1', city: 'Ciudad de México', state: 'CDMX', zip: '06600', country: 'México' };
const mexican = {
  label: 'Oficina',
  street: 'Av. Chapultepec',
  exterior_number: '480',
  interior_number: '12B',
  neighborhood: 'Roma Norte',
  municipality: 'Cuauhtémoc',
  city: 'Ciudad de México',
  state: 'Ciudad de México',
  zip: '06700',
  country: 'México',
  references: 'Entre Sonora y Durango, portón negro',
  phone: '5512345678',
};

describe("an order's address copy", () => {
  it('reads every part held as text, and null for the rest', () => {
    expect(parseAddressCopy(mexican)).toEqual(mexican);
    expect(parseAddressCopy({ street: 'Calle 2', zip: 6600, extra: 'x' })).toEqual({
      label: null,
      street: 'Calle 2',
      exterior_number: null,
      interior_number: null,
      neighborhood: null,
      municipality: null,
      city: null,
      state: null,
      zip: null,
      country: null,
      references: null,
      phone: null,
    });
  });

  it('reads nothing from a column that holds no object', () => {
    for (const value of [null, undefined, '', 'Av. Reforma 1', 42, ['Av. Reforma 1']]) expect(parseAddressCopy(value)).toBeNull();
  });

  it("writes an address saved before the Mexican parts in one line, without its label, in the courier's order", () => {
    expect(formatAddressCopy(copy)).toBe('Av. Reforma 1, C.P. 06600, Ciudad de México, CDMX, México');
    expect(formatAddressCopy({ street: '  Calle 2 ', city: '', state: '   ', zip: '01000' })).toBe('Calle 2, C.P. 01000');
  });

  it('writes nothing for an empty copy or a column without one', () => {
    expect(formatAddressCopy({ label: 'Casa' })).toBeNull();
    expect(formatAddressCopy(null)).toBeNull();
  });
});

describe('addressLines', () => {
  it('writes a Mexican address as a courier reads it: who and phone, street and numbers, colonia, C.P. and municipio, state, references', () => {
    expect(addressLines(mexican, { name: 'Lucía Pérez' })).toEqual([
      'Lucía Pérez · Tel. 55 1234 5678',
      'Av. Chapultepec 480, Int. 12B',
      'Col. Roma Norte',
      'C.P. 06700, Cuauhtémoc, Ciudad de México',
      'Ciudad de México, México',
      'Referencias: Entre Sonora y Durango, portón negro',
    ]);
  });

  it('leaves out the city when it is the municipio, and every empty part', () => {
    const lines = addressLines({ ...mexican, city: 'cuauhtémoc', interior_number: ' ', references: null, phone: null });
    expect(lines).toEqual(['Av. Chapultepec 480', 'Col. Roma Norte', 'C.P. 06700, Cuauhtémoc', 'Ciudad de México, México']);
  });

  it('keeps a phone that is not 10 digits as it is', () => {
    expect(addressLines({ phone: '+52 55 1234' })).toEqual(['Tel. +52 55 1234']);
  });

  it("reads a stored row's references from delivery_references", () => {
    const { references, ...rest } = mexican;
    expect(partsOfAddress({ ...rest, delivery_references: references })).toEqual(mexican);
    expect(partsOfAddress({ street: 'Calle 1' }).references).toBeNull();
  });
});
