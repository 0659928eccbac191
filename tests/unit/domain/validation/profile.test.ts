import { describe, expect, it } from 'vitest';
import { profileChanged, validateProfile } from '~/domain/validation/profile';
import { dataOf, errorsOf } from './results';

describe('profile edit', () => {
  const base = { username: 'anagarcia', name: 'Ana', lastname: 'García', phone: '' };

  it('stores an empty phone as null and no address when none is filled', () => {
    expect(dataOf(validateProfile({ ...base, street: ' ', city: '' }))).toEqual({
      username: 'anagarcia',
      name: 'Ana',
      lastname: 'García',
      phone: null,
      address: null,
    });
  });

  it('requires username, name and lastname with their messages', () => {
    const result = errorsOf(validateProfile({ username: ' ', name: '', lastname: undefined }));
    expect(result.fieldErrors).toEqual({
      username: 'Username requerido',
      name: 'Nombre requerido',
      lastname: 'Apellido requerido',
    });
    expect(result.formError).toBe('Revisa los campos marcados.');
  });

  it('checks an optional phone', () => {
    expect(errorsOf(validateProfile({ ...base, phone: '123' })).fieldErrors).toEqual({ phone: 'Teléfono inválido' });
    expect(dataOf(validateProfile({ ...base, phone: ' 55 1234 5678 ' })).phone).toBe('55 1234 5678');
  });

  it('requires the whole address the database stores once any address field is filled', () => {
    const result = errorsOf(validateProfile({ ...base, state: 'Jalisco' }));
    expect(result.fieldErrors).toEqual({ street: 'Calle requerida', city: 'Ciudad requerida', zip: 'Código Postal requerido' });
    const streetAndCity = errorsOf(validateProfile({ ...base, street: 'Av. Juárez 10', city: 'Guadalajara' }));
    expect(streetAndCity.fieldErrors).toEqual({ state: 'Estado requerido', zip: 'Código Postal requerido' });
    expect(result.formError).toBe('Revisa los campos marcados.');
  });

  it('asks a Mexican main address for a 5-digit postal code, as the database does; other countries keep up to 5', () => {
    const address = { ...base, street: 'Av. Vallarta 441', city: 'Guadalajara', state: 'Jalisco', zip: '441' };
    expect(errorsOf(validateProfile(address)).fieldErrors).toEqual({ zip: 'Código Postal de 5 dígitos' });
    expect(errorsOf(validateProfile({ ...address, country: 'México' })).fieldErrors).toEqual({ zip: 'Código Postal de 5 dígitos' });
    expect(dataOf(validateProfile({ ...address, country: 'Estados Unidos' })).address?.zip).toBe('441');
  });

  it('returns the address with México as default country', () => {
    const data = dataOf(validateProfile({ ...base, street: 'Av. Juárez 10', city: 'Guadalajara', state: 'Jalisco', zip: '44100' }));
    expect(data.address).toEqual({
      street: 'Av. Juárez 10',
      city: 'Guadalajara',
      state: 'Jalisco',
      zip: '44100',
      country: 'México',
    });
  });
});

describe('profile edit within the database limits', () => {
  const base = { username: 'anagarcia', name: 'Ana', lastname: 'García', phone: '' };
  it('refuses what the database would refuse, in Spanish', () => {
    const long = errorsOf(validateProfile({ ...base, username: 'u'.repeat(51), name: 'n'.repeat(101) }));
    expect(long.fieldErrors).toEqual({ username: 'Máximo 50 caracteres.', name: 'Máximo 100 caracteres.' });
    const address = errorsOf(validateProfile({ ...base, street: 'c'.repeat(201), city: 'Puebla', state: 'Puebla', zip: '123456' }));
    expect(address.fieldErrors).toEqual({ street: 'Máximo 200 caracteres.', zip: expect.any(String) });
  });
});

describe('profileChanged', () => {
  const stored = { username: 'anagarcia', name: 'Ana', lastname: 'García', phone: null, address: null };
  const edited = (input: Record<string, unknown>) => {
    const result = validateProfile({ username: 'anagarcia', name: 'Ana', lastname: 'García', phone: '', ...input });
    if (!result.ok) throw new Error(result.formError);
    return result.data;
  };

  it('sees no change when only blanks differ', () => {
    expect(profileChanged(stored, edited({ name: ' Ana ' }))).toBe(false);
    expect(profileChanged({ ...stored, address: { street: '', city: '', state: '', zip: '', country: '' } }, edited({}))).toBe(false);
  });

  it('sees changed fields and addresses', () => {
    const puebla = { city: 'Puebla', state: 'Puebla', zip: '72000' };
    expect(profileChanged(stored, edited({ phone: '55 1234 5678' }))).toBe(true);
    expect(profileChanged(stored, edited({ lastname: 'Gómez' }))).toBe(true);
    expect(profileChanged(stored, edited({ street: 'Calle 1', ...puebla }))).toBe(true);
    const withAddress = {
      ...stored,
      address: { street: 'Calle 1', ...puebla, country: 'México' },
    };
    expect(profileChanged(withAddress, edited({ street: 'Calle 1', ...puebla }))).toBe(false);
    expect(profileChanged(withAddress, edited({ street: 'Calle 2', ...puebla }))).toBe(true);
    expect(profileChanged(withAddress, edited({}))).toBe(true);
  });
});
