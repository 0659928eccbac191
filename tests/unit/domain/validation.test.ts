import { describe, expect, it } from 'vitest';
import { productIdFor, uniqueProductId } from '../../../src/domain/products';
import { isValidPhone, type FormResult } from '../../../src/domain/validation';
import { COUNTRIES, validateAddress } from '../../../src/domain/validation/address';
import { validateLogin, validatePasswordReset, validateRegistration } from '../../../src/domain/validation/auth';
import { validateNewsletter } from '../../../src/domain/validation/newsletter';
import { buildNewProductPayload, validateNewProduct } from '../../../src/domain/validation/product';
import { profileChanged, validateProfile } from '../../../src/domain/validation/profile';

function errorsOf<T>(result: FormResult<T>): { fieldErrors: Record<string, string>; formError: string } {
  if (result.ok) throw new Error(`expected a validation failure, got ${JSON.stringify(result.data)}`);
  return { fieldErrors: result.fieldErrors, formError: result.formError };
}

function dataOf<T>(result: FormResult<T>): T {
  if (!result.ok) throw new Error(`expected valid data, got ${JSON.stringify(result.fieldErrors)}`);
  return result.data;
}

describe('newsletter', () => {
  it('accepts an e-mail, trimmed and lower-cased', () => {
    expect(dataOf(validateNewsletter({ email: '  Ana@Correo.MX ' }))).toEqual({ email: 'ana@correo.mx' });
  });

  it.each([[''], ['ana'], ['ana@'], ['ana@correo'], [42], [null]])('refuses %j', (email) => {
    expect(errorsOf(validateNewsletter({ email }))).toEqual({
      fieldErrors: { email: 'Ingresa un correo válido.' },
      formError: 'Ingresa un correo válido.',
    });
  });

  it('treats a non-object body as an empty form', () => {
    expect(errorsOf(validateNewsletter('ana@correo.mx')).formError).toBe('Ingresa un correo válido.');
    expect(errorsOf(validateNewsletter(null)).formError).toBe('Ingresa un correo válido.');
  });
});

describe('login', () => {
  it('needs both fields', () => {
    expect(errorsOf(validateLogin({ email: 'a@b.mx', password: '' })).formError).toBe('Ingresa correo y contraseña.');
    expect(errorsOf(validateLogin({ email: '   ', password: 'x' })).formError).toBe('Ingresa correo y contraseña.');
    expect(errorsOf(validateLogin({})).fieldErrors).toEqual({
      email: 'Ingresa correo y contraseña.',
      password: 'Ingresa correo y contraseña.',
    });
  });

  it('trims and lower-cases the e-mail but keeps the password as typed', () => {
    expect(dataOf(validateLogin({ email: ' Cliente@Demo.MX ', password: ' Clave 1 ' }))).toEqual({
      email: 'cliente@demo.mx',
      password: ' Clave 1 ',
    });
  });
});

describe('registration', () => {
  const valid = {
    username: 'anagarcia',
    email: 'Ana@Demo.mx',
    password: 'Cliente123!',
    name: 'Ana',
    lastname: 'García',
    phone: '+52 (55) 1234-5678',
  };

  it('accepts a complete form', () => {
    expect(dataOf(validateRegistration(valid))).toEqual({ ...valid, email: 'ana@demo.mx' });
  });

  it('asks to complete every field when one is missing, even if others are malformed', () => {
    for (const field of Object.keys(valid)) {
      const malformed = field === 'email' ? { phone: '12' } : { email: 'mal' };
      const result = errorsOf(validateRegistration({ ...valid, ...malformed, [field]: '  ' }));
      expect(result.formError, field).toBe('Completa todos los campos.');
      expect(result.fieldErrors[field], field).toBe('Completa todos los campos.');
    }
  });

  it('reports format problems with their own messages', () => {
    expect(errorsOf(validateRegistration({ ...valid, email: 'ana@' })).formError).toBe('Correo inválido.');
    expect(errorsOf(validateRegistration({ ...valid, phone: '12345' })).formError).toBe('Teléfono inválido.');
    expect(errorsOf(validateRegistration({ ...valid, phone: '55-1234-abcd' })).formError).toBe('Teléfono inválido.');
    expect(errorsOf(validateRegistration({ ...valid, password: 'Corta1!' })).formError).toBe(
      'La contraseña debe tener al menos 8 caracteres.',
    );
  });
});

describe('password reset', () => {
  it('needs a valid e-mail', () => {
    expect(dataOf(validatePasswordReset({ email: 'ana@demo.mx' })).email).toBe('ana@demo.mx');
    expect(errorsOf(validatePasswordReset({ email: '' })).formError).toBe(
      'Escribe tu correo para enviarte el enlace de recuperación.',
    );
    expect(errorsOf(validatePasswordReset({ email: 'ana' })).fieldErrors.email).toBe(
      'Escribe tu correo para enviarte el enlace de recuperación.',
    );
  });
});

describe('phone', () => {
  it('accepts 7–20 characters of digits, spaces, parentheses, plus and hyphen', () => {
    expect(isValidPhone('5512345')).toBe(true);
    expect(isValidPhone('+52 (55) 1234-5678')).toBe(true);
    expect(isValidPhone('12345678901234567890')).toBe(true);
    expect(isValidPhone('551234')).toBe(false);
    expect(isValidPhone('123456789012345678901')).toBe(false);
    expect(isValidPhone('55.1234.5678')).toBe(false);
    expect(isValidPhone('55 1234 567x')).toBe(false);
  });
});

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
      expect(errorsOf(validateAddress({ ...valid, zip })).fieldErrors.zip, zip).toBe(
        'Código Postal inválido (máximo 5 dígitos).',
      );
    }
    expect(dataOf(validateAddress({ ...valid, zip: '1234' })).zip).toBe('1234');
  });

  it('defaults the country to México and accepts only the listed countries', () => {
    const { country: _omitted, ...withoutCountry } = valid;
    expect(dataOf(validateAddress(withoutCountry)).country).toBe('México');
    expect(COUNTRIES).toEqual(['México', 'Estados Unidos', 'Canadá', 'Otro']);
    expect(dataOf(validateAddress({ ...valid, country: 'Canadá' })).country).toBe('Canadá');
    expect(errorsOf(validateAddress({ ...valid, country: 'Narnia' })).fieldErrors.country).toBe(
      'Selecciona un país de la lista.',
    );
  });
});

describe('new product', () => {
  const form = {
    franchiseId: 'pokemon',
    collectionId: 'scarlet-violet',
    expansionId: 'journey-together',
    productTypeId: 'booster-box',
    name: 'Caja de sobres Journey Together',
    price: '3299.50',
    image: 'products/pk-boosterbox-journey-together-1.svg',
    description: '36 sobres.',
  };

  it('applies the admin defaults', () => {
    expect(dataOf(validateNewProduct(form))).toEqual({
      ...form,
      price: 3299.5,
      stock: 0,
      limitPerCustomer: 1,
      preorder: false,
      available: true,
      releaseDate: null,
      tags: [],
    });
  });

  it('reads numbers and booleans from form strings', () => {
    const data = dataOf(
      validateNewProduct({ ...form, stock: '12', limitPerCustomer: '4', preorder: 'on', available: 'false', releaseDate: '2025-03-28' }),
    );
    expect([data.stock, data.limitPerCustomer, data.preorder, data.available, data.releaseDate]).toEqual([
      12,
      4,
      true,
      false,
      '2025-03-28',
    ]);
  });

  it('refuses bad numbers, dates and missing choices with Spanish messages', () => {
    const result = errorsOf(
      validateNewProduct({
        ...form,
        franchiseId: 'digimon',
        name: ' ',
        price: '-1',
        image: '',
        stock: '1.5',
        limitPerCustomer: 0,
        releaseDate: '2025-02-30',
      }),
    );
    expect(result.fieldErrors).toEqual({
      franchiseId: 'Selecciona una franquicia.',
      name: 'Escribe el nombre del producto.',
      price: 'Precio inválido: usa un número mayor o igual a 0 con hasta 2 decimales.',
      image: 'Agrega una imagen del producto.',
      stock: 'El stock debe ser un número entero mayor o igual a 0.',
      limitPerCustomer: 'El límite por cliente debe ser un número entero mayor o igual a 1.',
      releaseDate: 'Fecha de lanzamiento inválida (AAAA-MM-DD).',
    });
    expect(result.formError).toBe('Revisa los campos marcados.');
    expect(errorsOf(validateNewProduct({ ...form, price: '10.999' })).fieldErrors.price).toBeDefined();
    expect(errorsOf(validateNewProduct({ ...form, stock: -1 })).fieldErrors.stock).toBeDefined();
  });

  it('refuses an expansion or type of another franchise', () => {
    const result = errorsOf(validateNewProduct({ ...form, expansionId: 'op-01', productTypeId: 'rb-booster-box' }));
    expect(result.fieldErrors).toEqual({
      expansionId: 'La expansión no pertenece a esa franquicia.',
      productTypeId: 'El tipo de producto no pertenece a esa franquicia.',
    });
  });

  it('builds the payload with id, one image and default tags', () => {
    const payload = buildNewProductPayload(dataOf(validateNewProduct(form)), ['pk-boosterbox-journey-together']);
    expect(payload.id).toBe('pk-boosterbox-journey-together-2');
    expect(payload.images).toEqual(['products/pk-boosterbox-journey-together-1.svg']);
    expect(payload.tags).toEqual(['Caja de sobres Journey Together', 'Caja de sobres', 'Journey Together']);
    expect('image' in payload).toBe(false);
  });
});

describe('product ids', () => {
  it('follows franchise-type-expansion with abbreviations', () => {
    expect(productIdFor('pokemon', 'booster-box', 'journey-together')).toBe('pk-boosterbox-journey-together');
    expect(productIdFor('pokemon', 'elite-trainer-box', 'destined-rivals')).toBe('pk-elitetrainerbox-destined-rivals');
    expect(productIdFor('one-piece', 'op-starter-deck', 'op-01')).toBe('op-starterdeck-op-01');
    expect(productIdFor('riftbound', 'rb-booster-box', 'origins')).toBe('rb-boosterbox-origins');
    expect(productIdFor('Digi Món', 'Caja Ñ', 'Set 1')).toBe('digimon-cajan-set-1');
  });

  it('adds the first free numeric suffix', () => {
    expect(uniqueProductId('pk-tin-xy-evolutions', [])).toBe('pk-tin-xy-evolutions');
    expect(uniqueProductId('a', ['a', 'a-2', 'a-3'])).toBe('a-4');
    expect(uniqueProductId('a', new Set(['a-2']))).toBe('a');
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
    expect(
      profileChanged({ ...stored, address: { street: '', city: '', state: '', zip: '', country: '' } }, edited({})),
    ).toBe(false);
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
