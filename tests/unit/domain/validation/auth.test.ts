import { describe, expect, it } from 'vitest';
import { validateLogin, validatePasswordReset, validateRegistration } from '~/domain/validation/auth';
import { dataOf, errorsOf } from './results';

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
    expect(errorsOf(validateRegistration({ ...valid, password: 'Corta1!' })).formError).toBe('La contraseña debe tener al menos 8 caracteres.');
  });
});

describe('password reset', () => {
  it('needs a valid e-mail', () => {
    expect(dataOf(validatePasswordReset({ email: 'ana@demo.mx' })).email).toBe('ana@demo.mx');
    expect(errorsOf(validatePasswordReset({ email: '' })).formError).toBe('Escribe tu correo para enviarte el enlace de recuperación.');
    expect(errorsOf(validatePasswordReset({ email: 'ana' })).fieldErrors.email).toBe('Escribe tu correo para enviarte el enlace de recuperación.');
  });
});
