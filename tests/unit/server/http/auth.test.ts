/**
 * Who calls an endpoint: the bearer token read from the request, verified with Supabase Auth (a
 * fake client here), the admin flag read from the profile, and the shop's own servers by the
 * service role key.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { describe, expect, it } from 'vitest';
import type { Database } from '~/data/database.types.ts';
import { authenticate, bearerToken, requireAdmin, requireShopServer } from '~/server/http/auth.ts';
import { ApiError } from '~/server/http/json.ts';

const request = (authorization?: string) => new Request('http://shop.test/api/x', { headers: authorization ? { authorization } : {} });

/** A client whose Auth knows `users` by token and whose profiles table answers `profile` (or an error). */
function fakeAdmin(users: Record<string, { id: string; email?: string }>, profile: { is_admin: boolean } | null | 'error' = null) {
  const calls = { getUser: 0 };
  const client = {
    auth: {
      getUser: async (token: string) => {
        calls.getUser++;
        const user = users[token];
        return user ? { data: { user }, error: null } : { data: { user: null }, error: { message: 'invalid JWT' } };
      },
    },
    from: () => ({
      select: () => ({
        eq: () => ({ maybeSingle: async () => (profile === 'error' ? { data: null, error: { message: 'down' } } : { data: profile, error: null }) }),
      }),
    }),
  };
  return { client: client as unknown as SupabaseClient<Database>, calls };
}

async function refusal(promise: Promise<unknown>): Promise<{ status: number; code: string | undefined; message: string }> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiError);
  const apiError = error as ApiError;
  return { status: apiError.status, code: apiError.code, message: apiError.message };
}

describe('bearerToken', () => {
  it('reads the token of a Bearer header, in any case, and nothing else', () => {
    expect(bearerToken(request('Bearer abc.def'))).toBe('abc.def');
    expect(bearerToken(request('bearer abc '))).toBe('abc');
    expect(bearerToken(request('Basic abc'))).toBeNull();
    expect(bearerToken(request('Bearer a b'))).toBeNull();
    expect(bearerToken(request())).toBeNull();
  });
});

describe('authenticate', () => {
  it('answers the user behind a valid token', async () => {
    const { client } = fakeAdmin({ tok: { id: 'u1', email: 'a@b.mx' } });
    await expect(authenticate(request('Bearer tok'), client)).resolves.toEqual({ id: 'u1', email: 'a@b.mx' });
  });

  it('refuses with 401 without a token, without asking Auth, and with 401 for a token Auth refuses', async () => {
    const { client, calls } = fakeAdmin({});
    expect(await refusal(authenticate(request(), client))).toMatchObject({
      status: 401,
      code: 'not_authenticated',
      message: 'Debes iniciar sesión para finalizar tu compra.',
    });
    expect(await refusal(authenticate(request(`Bearer ${'x'.repeat(9000)}`), client))).toMatchObject({ status: 401 });
    expect(calls.getUser).toBe(0);
    expect(await refusal(authenticate(request('Bearer vencido'), client))).toMatchObject({ status: 401, message: expect.stringMatching(/expiró/) });
  });
});

describe('requireAdmin', () => {
  it('lets an admin through with the token to act as them', async () => {
    const { client } = fakeAdmin({ tok: { id: 'admin-1' } }, { is_admin: true });
    await expect(requireAdmin(request('Bearer tok'), client)).resolves.toEqual({ id: 'admin-1', token: 'tok' });
  });

  it('refuses a shopper with 403 and its refusal, a missing profile too, and answers 502 when the profile cannot be read', async () => {
    expect(await refusal(requireAdmin(request('Bearer tok'), fakeAdmin({ tok: { id: 'u1' } }, { is_admin: false }).client, 'Solo administradores'))).toEqual({
      status: 403,
      code: 'forbidden',
      message: 'Solo administradores',
    });
    expect(await refusal(requireAdmin(request('Bearer tok'), fakeAdmin({ tok: { id: 'u1' } }, null).client))).toMatchObject({ status: 403 });
    expect(await refusal(requireAdmin(request('Bearer tok'), fakeAdmin({ tok: { id: 'u1' } }, 'error').client))).toMatchObject({
      status: 502,
      code: 'upstream_error',
    });
    expect(await refusal(requireAdmin(request(), fakeAdmin({}).client))).toMatchObject({ status: 401, message: 'Debes iniciar sesión como administrador.' });
  });
});

describe('requireShopServer', () => {
  it('accepts only the service role key itself', () => {
    expect(() => requireShopServer(request('Bearer service-key'), 'service-key')).not.toThrow();
    for (const header of [undefined, 'Bearer service-ke', 'Bearer service-key2', 'Bearer anon'])
      expect(() => requireShopServer(request(header), 'service-key')).toThrow(ApiError);
    expect(() => requireShopServer(request('Bearer x'), undefined)).toThrow('No autorizado.');
  });
});
