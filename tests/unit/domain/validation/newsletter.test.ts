import { describe, expect, it } from 'vitest';
import { validateNewsletter } from '~/domain/validation/newsletter';
import { dataOf, errorsOf } from './results';

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
