import { describe, expect, it } from 'vitest';
import { COUNTRIES, needsMexicanParts, phoneDigits, SHIPPING_ADDRESS_GAP_MESSAGES, shippingAddressGap, validateAddress } from '~/domain/validation/address';
import { dataOf, errorsOf } from './results';

describe('address', () => {
  const valid = {
    label: ' Casa ',
    street: ' Av. Reforma ',
    exterior_number: ' 222 ',
    interior_number: '',
    neighborhood: 'Juárez',
    municipality: 'Cuauhtémoc',
    city: 'Ciudad de México',
    state: 'CDMX',
    zip: '06600',
    country: 'México',
    references: '',
    phone: '55 1234-5678',
  };
  const abroad = { label: '', street: ' 5th Avenue 10 ', city: 'New York', state: 'NY', zip: '10001', country: 'Estados Unidos' };

  it('accepts a complete Mexican address, trimmed, with the label, interior number, city and references optional', () => {
    expect(dataOf(validateAddress(valid))).toEqual({
      label: 'Casa',
      street: 'Av. Reforma',
      exterior_number: '222',
      interior_number: null,
      neighborhood: 'Juárez',
      municipality: 'Cuauhtémoc',
      city: 'Ciudad de México',
      state: 'CDMX',
      zip: '06600',
      country: 'México',
      references: null,
      phone: '5512345678',
      is_default: false,
    });
    expect(dataOf(validateAddress({ ...valid, label: '' })).label).toBeNull();
    expect(dataOf(validateAddress({ ...valid, city: '' })).city).toBe('');
    expect(dataOf(validateAddress({ ...valid, interior_number: '4B', references: ' Portón negro ' }))).toMatchObject({
      interior_number: '4B',
      references: 'Portón negro',
    });
  });

  it("requires every Mexican field after trimming, with the specification's messages and the same style for the new ones", () => {
    const result = errorsOf(
      validateAddress({ street: ' ', exterior_number: '', neighborhood: ' ', municipality: '', state: '\t', zip: ' ', country: 'México', phone: '' }),
    );
    expect(result.fieldErrors).toEqual({
      street: 'Calle requerida',
      exterior_number: 'Número exterior requerido',
      neighborhood: 'Colonia requerida',
      municipality: 'Municipio o alcaldía requerido',
      state: 'Estado requerido',
      zip: 'Código Postal requerido',
      phone: 'Teléfono de 10 dígitos',
    });
    expect(result.formError).toBe('Revisa los campos marcados.');
  });

  it('accepts exactly 5 digits as a Mexican postal code', () => {
    for (const zip of ['441', '1234', '123456', '06a00', '06 60']) {
      expect(errorsOf(validateAddress({ ...valid, zip })).fieldErrors.zip, zip).toBe('Código Postal de 5 dígitos');
    }
    expect(dataOf(validateAddress({ ...valid, zip: '01000' })).zip).toBe('01000');
  });

  it('accepts a contact phone of 10 digits, written with spaces, dashes or parentheses', () => {
    expect(dataOf(validateAddress({ ...valid, phone: '(33) 1234 5678' })).phone).toBe('3312345678');
    for (const phone of ['551234567', '55123456789', '+52 55 1234 5678', 'cinco']) {
      expect(errorsOf(validateAddress({ ...valid, phone })).fieldErrors.phone, phone).toBe('Teléfono de 10 dígitos');
    }
    expect(phoneDigits(' 55-1234 (5678) ')).toBe('5512345678');
  });

  it('keeps the references to 200 characters and the numbers to 20', () => {
    expect(dataOf(validateAddress({ ...valid, references: 'a'.repeat(200) })).references).toHaveLength(200);
    expect(errorsOf(validateAddress({ ...valid, references: 'a'.repeat(201) })).fieldErrors.references).toBe('Máximo 200 caracteres.');
    expect(errorsOf(validateAddress({ ...valid, exterior_number: '1'.repeat(21) })).fieldErrors.exterior_number).toBe('Máximo 20 caracteres.');
  });

  it("keeps the specification's fields and messages for other countries, and stores no Mexican parts for them", () => {
    expect(dataOf(validateAddress({ ...abroad, exterior_number: '10', phone: '12' }))).toEqual({
      label: null,
      street: '5th Avenue 10',
      exterior_number: null,
      interior_number: null,
      neighborhood: null,
      municipality: null,
      city: 'New York',
      state: 'NY',
      zip: '10001',
      country: 'Estados Unidos',
      references: null,
      phone: null,
      is_default: false,
    });
    const result = errorsOf(validateAddress({ street: ' ', city: '', state: '\t', zip: ' ', country: 'Canadá' }));
    expect(result.fieldErrors).toEqual({ street: 'Calle requerida', city: 'Ciudad requerida', state: 'Estado requerido', zip: 'Código Postal requerido' });
    for (const zip of ['123456', '06a00', '06 600', '-1234']) {
      expect(errorsOf(validateAddress({ ...abroad, zip })).fieldErrors.zip, zip).toBe('Código Postal inválido (máximo 5 dígitos).');
    }
    expect(dataOf(validateAddress({ ...abroad, zip: '1234' })).zip).toBe('1234');
  });

  it('defaults the country to México and accepts only the listed countries', () => {
    const { country: _omitted, ...withoutCountry } = valid;
    expect(dataOf(validateAddress(withoutCountry)).country).toBe('México');
    expect(COUNTRIES).toEqual(['México', 'Estados Unidos', 'Canadá', 'Otro']);
    expect(dataOf(validateAddress({ ...abroad, country: 'Canadá' })).country).toBe('Canadá');
    expect(errorsOf(validateAddress({ ...valid, country: 'Narnia' })).fieldErrors.country).toBe('Selecciona un país de la lista.');
    expect(errorsOf(validateAddress({ ...valid, country: '' })).fieldErrors.country).toBe('País requerido');
  });
});

describe('needsMexicanParts', () => {
  const complete = {
    street: 'Av. Reforma',
    zip: '06600',
    country: 'México',
    exterior_number: '222',
    neighborhood: 'Juárez',
    municipality: 'Cuauhtémoc',
    phone: '5512345678',
  };

  it('asks an address saved before the Mexican parts (or with a short postal code) for them', () => {
    expect(needsMexicanParts(complete)).toBe(false);
    expect(needsMexicanParts({ ...complete, exterior_number: null, neighborhood: null, municipality: null, phone: null })).toBe(true);
    for (const part of ['exterior_number', 'neighborhood', 'municipality', 'phone'] as const) {
      expect(needsMexicanParts({ ...complete, [part]: ' ' }), part).toBe(true);
    }
    expect(needsMexicanParts({ ...complete, zip: '441' })).toBe(true);
  });

  it('never asks an address in another country', () => {
    expect(
      needsMexicanParts({
        street: '5th Avenue 10',
        zip: '10001',
        country: 'Estados Unidos',
        exterior_number: null,
        neighborhood: null,
        municipality: null,
        phone: null,
      }),
    ).toBe(false);
  });
});

describe('shippingAddressGap', () => {
  const copy = {
    street: 'Av. Reforma',
    exterior_number: '222',
    zip: '06600',
    neighborhood: 'Juárez',
    municipality: 'Cuauhtémoc',
    city: '',
    state: 'CDMX',
    country: 'México',
    phone: '5512345678',
  };

  it('names the first part a Mexican address lacks, in the form order, with the form message', () => {
    expect(shippingAddressGap(copy)).toBeNull();
    expect(shippingAddressGap({ ...copy, street: ' ' })).toBe('street');
    expect(shippingAddressGap({ ...copy, exterior_number: null, neighborhood: null })).toBe('exterior_number');
    expect(shippingAddressGap({ ...copy, zip: '441' })).toBe('zip');
    expect(shippingAddressGap({ ...copy, neighborhood: undefined })).toBe('neighborhood');
    expect(shippingAddressGap({ ...copy, municipality: '' })).toBe('municipality');
    expect(shippingAddressGap({ ...copy, state: null })).toBe('state');
    expect(shippingAddressGap({ ...copy, phone: '55 1234 5678' })).toBe('phone');
    // Any spelling of México, as the database reads it.
    expect(shippingAddressGap({ ...copy, country: 'MEXICO', phone: null })).toBe('phone');
    expect(SHIPPING_ADDRESS_GAP_MESSAGES.exterior_number).toBe('Número exterior requerido');
    expect(SHIPPING_ADDRESS_GAP_MESSAGES.neighborhood).toBe('Colonia requerida');
    expect(SHIPPING_ADDRESS_GAP_MESSAGES.phone).toBe('Teléfono de 10 dígitos');
    expect(SHIPPING_ADDRESS_GAP_MESSAGES.zip).toBe('Código Postal de 5 dígitos');
  });

  it("asks other countries only for the specification's street and city", () => {
    const abroad = { street: '5th Avenue 10', city: 'New York', state: '', zip: '', country: 'Estados Unidos' };
    expect(shippingAddressGap(abroad)).toBeNull();
    expect(shippingAddressGap({ ...abroad, city: ' ' })).toBe('city');
    expect(shippingAddressGap({ ...abroad, street: null })).toBe('street');
  });
});
