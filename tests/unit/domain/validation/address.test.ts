import { describe, expect, it } from 'vitest';
import { COUNTRIES, validateAddress } from '~/domain/validation/address';
import { dataOf, errorsOf } from './results';

describe('address', () => {
  const valid = {
    label: ' Casa ',
    street: ' Av. Reforma 222 ',
    city: 'Ciudad de México',
    state: 'CDMX',
    zip: '06600',
    country: 'México',
  };

  it('accepts a complete address, trimmed, with the label optional', () => {
    expect(dataOf(validateAddress(valid))).toEqual({
      label: 'Casa',
      street: 'Av. Reforma 222',
      city: 'Ciudad de México',
      state: 'CDMX',
      zip: '06600',
      country: 'México',
      is_default: false,
    });
    expect(dataOf(validateAddress({ ...valid, label: '' })).label).toBeNull();
  });

  it('requires every field after trimming, with its message', () => {
    const result = errorsOf(validateAddress({ street: ' ', city: '', state: '\t', zip: ' ', country: '' }));
    expect(result.fieldErrors).toEqual({
      street: 'Calle requerida',
      city: 'Ciudad requerida',
      state: 'Estado requerido',
      zip: 'Código Postal requerido',
      country: 'País requerido',
    });
    expect(result.formError).toBe('Revisa los campos marcados.');
  });

  it('accepts only up to 5 digits as postal code', () => {
    for (const zip of ['123456', '06a00', '06 600', '-1234']) {
      expect(errorsOf(validateAddress({ ...valid, zip })).fieldErrors.zip, zip).toBe('Código Postal inválido (máximo 5 dígitos).');
    }
    expect(dataOf(validateAddress({ ...valid, zip: '1234' })).zip).toBe('1234');
  });

  it('defaults the country to México and accepts only the listed countries', () => {
    const { country: _omitted, ...withoutCountry } = valid;
    expect(dataOf(validateAddress(withoutCountry)).country).toBe('México');
    expect(COUNTRIES).toEqual(['México', 'Estados Unidos', 'Canadá', 'Otro']);
    expect(dataOf(validateAddress({ ...valid, country: 'Canadá' })).country).toBe('Canadá');
    expect(errorsOf(validateAddress({ ...valid, country: 'Narnia' })).fieldErrors.country).toBe('Selecciona un país de la lista.');
  });
});
