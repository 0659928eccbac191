/**
 * The stack's password hashes: bcrypt at GoTrue's cost, readable by other bcrypt code, and checks
 * that answer false (never throw, which would be a 500) for a hash that is not bcrypt.
 */
import { describe, expect, it } from 'vitest';
import { BCRYPT_COST, hashPassword, verifyPassword } from '../src/auth/password.ts';

describe('password hashes', () => {
  it('hashes as GoTrue does ($2b$, cost 10, a random salt) and checks the password', async () => {
    const first = await hashPassword('Cliente123!');
    const second = await hashPassword('Cliente123!');
    expect(BCRYPT_COST).toBe(10);
    expect(first).toMatch(/^\$2b\$10\$[./A-Za-z0-9]{53}$/);
    expect(second).not.toBe(first);
    expect(await verifyPassword('Cliente123!', first)).toBe(true);
    expect(await verifyPassword('cliente123!', first)).toBe(false);
    expect(await verifyPassword('', first)).toBe(false);
  });

  it('checks hashes made elsewhere ($2a$ from another bcrypt implementation)', async () => {
    // bcryptjs, 'Contraseña-2a' (non-ASCII, so the bytes are UTF-8 on both sides).
    const elsewhere = '$2a$10$J1.7iKyMP3.ZvasaRDyS2.RK2WJe9SPcbK3gvF50kQmnNMi8q5HS.';
    expect(await verifyPassword('Contraseña-2a', elsewhere)).toBe(true);
    expect(await verifyPassword('Contrasena-2a', elsewhere)).toBe(false);
  });

  it('answers false for a stored value that is not a bcrypt hash', async () => {
    for (const stored of ['', 'texto-plano', '$2b$10$corto', '$argon2id$v=19$m=65536,t=3,p=4$abc']) {
      expect(await verifyPassword('Cliente123!', stored)).toBe(false);
    }
  });
});
