import { describe, expect, it } from 'vitest';
import { registerArrival } from '~/server/admin/preorders.ts';
import type { AdminContext } from '~/server/context.ts';
import { ApiError } from '~/server/http/json.ts';

const ADMIN_ID = '0f8fad5b-d9cb-469f-a165-70867728950e';

/** A context whose service client knows one signed-in admin and records every database call. */
function adminCtx(calls: string[]): AdminContext {
  const admin = {
    auth: { getUser: async () => ({ data: { user: { id: ADMIN_ID } }, error: null }) },
    from: () => ({ select: () => ({ eq: () => ({ maybeSingle: async () => ({ data: { is_admin: true }, error: null }) }) }) }),
    rpc: async (name: string) => {
      calls.push(name);
      return { data: null, error: { code: 'P0001', details: 'campaign_not_found', message: 'Preventa no encontrada.' } };
    },
  };
  return { admin, mail: async () => undefined, siteUrl: 'https://shop.test' } as unknown as AdminContext;
}

const request = (body: unknown, token: string | null = 'token') =>
  new Request('https://shop.test/api/admin/preorders/x/arrival', {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });

async function refusalOf(run: Promise<Response>): Promise<ApiError> {
  const error = await run.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

describe("'Registrar llegada'", () => {
  it('refuses a request without a session before reading anything', async () => {
    const calls: string[] = [];
    expect((await refusalOf(registerArrival(request({ quantity: 1, key: 'llegada-0001' }, null), adminCtx(calls), ADMIN_ID))).status).toBe(401);
    expect(calls).toEqual([]);
  });

  it('answers 404 for a campaign id that is no id, without asking the database', async () => {
    const calls: string[] = [];
    const refused = await refusalOf(registerArrival(request({ quantity: 1, key: 'llegada-0001' }), adminCtx(calls), 'no-es-un-id'));
    expect(refused.status).toBe(404);
    expect(calls).toEqual([]);
  });

  it('answers 400 for a quantity that is not a whole number, and maps the database refusal to 404', async () => {
    const calls: string[] = [];
    const ctx = adminCtx(calls);
    expect((await refusalOf(registerArrival(request({ quantity: 2.5, key: 'llegada-0001' }), ctx, ADMIN_ID))).status).toBe(400);
    expect(calls).toEqual([]);
    const missing = await refusalOf(registerArrival(request({ quantity: 2, key: 'llegada-0001' }), ctx, ADMIN_ID));
    expect({ status: missing.status, code: missing.code }).toEqual({ status: 404, code: 'campaign_not_found' });
    expect(calls).toEqual(['preorder_register_arrival']);
  });
});
