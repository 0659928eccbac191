/**
 * The stack's token verification remembers tokens it has verified or signed: a remembered token
 * must still be refused once it expires, with another secret, or altered by one character.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { signJwt, verifyJwt } from '../src/jwt.ts';

const SECRET = 'un-secreto-de-prueba-de-al-menos-32-caracteres';
const OTHER = 'otro-secreto-de-prueba-de-al-menos-32-caracteres';

afterEach(() => {
  vi.useRealTimers();
});

describe('verifyJwt', () => {
  it('gives the claims of a valid token every time, each call its own copy', async () => {
    const now = Math.floor(Date.now() / 1000);
    const token = await signJwt({ sub: 'u1', role: 'authenticated', iat: now, exp: now + 60 }, SECRET);
    const first = await verifyJwt(token, SECRET);
    expect(first).toMatchObject({ sub: 'u1', role: 'authenticated', exp: now + 60 });
    first!.role = 'service_role';
    expect(await verifyJwt(token, SECRET)).toMatchObject({ sub: 'u1', role: 'authenticated' });
  });

  it('refuses a remembered token once it has expired, and a token not yet valid', async () => {
    const now = Math.floor(Date.now() / 1000);
    const token = await signJwt({ sub: 'u2', role: 'authenticated', iat: now, exp: now + 30 }, SECRET);
    expect(await verifyJwt(token, SECRET)).not.toBeNull();
    vi.useFakeTimers({ now: (now + 30) * 1000, toFake: ['Date'] });
    expect(await verifyJwt(token, SECRET)).toBeNull();
    vi.useRealTimers();

    const later = await signJwt({ sub: 'u3', role: 'authenticated', nbf: now + 600, exp: now + 1200 }, SECRET);
    expect(await verifyJwt(later, SECRET)).toBeNull();
  });

  it('refuses a remembered token checked with another secret, or with one character changed', async () => {
    const token = await signJwt({ sub: 'u4', role: 'authenticated' }, SECRET);
    expect(await verifyJwt(token, SECRET)).not.toBeNull();
    expect(await verifyJwt(token, OTHER)).toBeNull();
    const [header, payload, signature] = token.split('.');
    const forgedPayload = Buffer.from(JSON.stringify({ sub: 'u4', role: 'service_role' })).toString('base64url');
    expect(await verifyJwt(`${header}.${forgedPayload}.${signature}`, SECRET)).toBeNull();
    const flipped = signature!.slice(0, -2) + (signature!.at(-2) === 'A' ? 'B' : 'A') + signature!.at(-1);
    expect(await verifyJwt(`${header}.${payload}.${flipped}`, SECRET)).toBeNull();
  });

  it('verifies a token signed elsewhere with the same secret (not remembered at signing)', async () => {
    // Signed by jose directly, as another process would: this process has never seen it.
    const { SignJWT } = await import('jose');
    const token = await new SignJWT({ sub: 'u5', role: 'anon' }).setProtectedHeader({ alg: 'HS256' }).sign(new TextEncoder().encode(SECRET));
    expect(await verifyJwt(token, SECRET)).toMatchObject({ sub: 'u5', role: 'anon' });
    expect(await verifyJwt(token, OTHER)).toBeNull();
  });
});
