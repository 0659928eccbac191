import type { SupabaseClient } from '@supabase/supabase-js';
import { describe, expect, it } from 'vitest';
import { getRebuild, postRebuild, REBUILDS_PER_HOUR, type RebuildContext } from '~/server/admin/rebuild.ts';
import { RateLimiter, RebuildManager } from '../../../support/rebuild-fakes.ts';

/** A service-role client that knows two tokens: an admin's and a shopper's. */
function fakeAdmin(options: { profileError?: boolean } = {}): SupabaseClient {
  const users: Record<string, { id: string; is_admin: boolean }> = {
    'token-admin': { id: 'u-admin', is_admin: true },
    'token-shopper': { id: 'u-shopper', is_admin: false },
  };
  let requestedId = '';
  const query = {
    select: () => query,
    eq: (_column: string, id: string) => {
      requestedId = id;
      return query;
    },
    maybeSingle: async () => {
      if (options.profileError) return { data: null, error: { message: 'down' } };
      const user = Object.values(users).find((u) => u.id === requestedId);
      return { data: user ? { is_admin: user.is_admin } : null, error: null };
    },
  };
  return {
    auth: {
      getUser: async (token: string) => {
        const user = users[token];
        return user ? { data: { user: { id: user.id } }, error: null } : { data: { user: null }, error: { message: 'invalid JWT' } };
      },
    },
    from: (table: string) => {
      expect(table).toBe('profiles');
      return query;
    },
  } as unknown as SupabaseClient;
}

const request = (method: string, token?: string) =>
  new Request('http://tienda.test/api/admin/rebuild', { method, headers: token ? { authorization: `Bearer ${token}` } : {} });

function context(overrides: Partial<RebuildContext> = {}): RebuildContext & { builds: () => number } {
  let builds = 0;
  const rebuilds = new RebuildManager(() => {
    builds += 1;
    return new Promise(() => {});
  });
  // The request limit counted in this process (the shop counts it in the database).
  return { admin: fakeAdmin(), rebuilds, limiter: new RateLimiter(REBUILDS_PER_HOUR, 60 * 60 * 1000), builds: () => builds, ...overrides };
}

describe('/api/admin/rebuild', () => {
  it('answers 401 JSON without a token or with a token Supabase rejects', async () => {
    for (const token of [undefined, 'token-falso']) {
      const ctx = context();
      const response = await postRebuild(request('POST', token), ctx);
      expect(response.status).toBe(401);
      expect(response.headers.get('content-type')).toContain('application/json');
      expect(await response.json()).toMatchObject({ error: 'not_authenticated' });
      expect(ctx.builds()).toBe(0);
    }
  });

  it('answers 403 to a shopper, for POST and GET', async () => {
    const ctx = context();
    expect((await postRebuild(request('POST', 'token-shopper'), ctx)).status).toBe(403);
    expect((await getRebuild(request('GET', 'token-shopper'), ctx)).status).toBe(403);
    expect(ctx.builds()).toBe(0);
  });

  it('accepts an admin with 202 and reports the status on GET', async () => {
    const ctx = context();
    const accepted = await postRebuild(request('POST', 'token-admin'), ctx);
    expect(accepted.status).toBe(202);
    expect(await accepted.json()).toMatchObject({ status: 'building' });
    const again = await postRebuild(request('POST', 'token-admin'), ctx);
    expect(await again.json()).toMatchObject({ status: 'queued' });
    const status = await getRebuild(request('GET', 'token-admin'), ctx);
    expect(status.status).toBe(200);
    expect(await status.json()).toMatchObject({ status: 'queued', builds: 0, lastError: null, finishedAt: null, durationMs: null });
    await new Promise((r) => setTimeout(r, 5));
    expect(ctx.builds()).toBe(1);
  });

  it('answers 503 or 502, not a crash, when the server cannot rebuild or check the caller', async () => {
    expect((await postRebuild(request('POST', 'token-admin'), context({ rebuilds: null }))).status).toBe(503);
    expect((await postRebuild(request('POST', 'token-admin'), context({ admin: null }))).status).toBe(503);
    expect((await postRebuild(request('POST', 'token-admin'), context({ admin: fakeAdmin({ profileError: true }) }))).status).toBe(502);
  });

  it('lets an admin ask six times an hour, then answers 429 with Retry-After, per admin', async () => {
    let clock = 0;
    const limiter = new RateLimiter(6, 60 * 60 * 1000, () => clock);
    const ctx = context();
    for (let i = 0; i < 6; i++) {
      clock += 60_000;
      expect((await postRebuild(request('POST', 'token-admin'), ctx, limiter)).status).toBe(202);
    }
    clock += 60_000;
    const refused = await postRebuild(request('POST', 'token-admin'), ctx, limiter);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('content-type')).toContain('application/json');
    expect(Number(refused.headers.get('retry-after'))).toBe(60 * 60 - 6 * 60);
    expect(await refused.json()).toMatchObject({ error: 'rate_limited' });
    // A shopper is still refused as a shopper (403), and counts for nothing.
    expect((await postRebuild(request('POST', 'token-shopper'), ctx, limiter)).status).toBe(403);
    // An hour after the first request, one more is allowed.
    clock = 60 * 60 * 1000 + 60_000 + 1;
    expect((await postRebuild(request('POST', 'token-admin'), ctx, limiter)).status).toBe(202);
    expect(limiter.take('another-admin')).toBe(0);
  });
});

describe('/api/admin/rebuild with shared rebuilds (answers from the database)', () => {
  const shared = (fail: boolean) => ({
    request: async () => {
      if (fail) throw new Error('request_catalogue_rebuild: connection refused');
      return { ...new RebuildManager(async () => {}).status(), status: 'queued' as const };
    },
    status: async () => {
      if (fail) throw new Error('catalogue_rebuild_status: connection refused');
      return { ...new RebuildManager(async () => {}).status(), status: 'building' as const, builds: 3 };
    },
  });

  it('waits for the shared answers: 202 with the queued status, GET with the shared status', async () => {
    const ctx = context({ rebuilds: shared(false) });
    const accepted = await postRebuild(request('POST', 'token-admin'), ctx, new RateLimiter(6, 3_600_000));
    expect(accepted.status).toBe(202);
    expect(await accepted.json()).toMatchObject({ status: 'queued' });
    const status = await getRebuild(request('GET', 'token-admin'), ctx);
    expect(await status.json()).toMatchObject({ status: 'building', builds: 3 });
  });

  it('answers 502 JSON in Spanish, not a crash, when the database cannot take the request', async () => {
    const ctx = context({ rebuilds: shared(true) });
    const refused = await postRebuild(request('POST', 'token-admin'), ctx, new RateLimiter(6, 3_600_000));
    expect(refused.status).toBe(502);
    expect(await refused.json()).toEqual({ error: 'upstream_error', message: 'No se pudo pedir la reconstrucción del catálogo. Intenta de nuevo.' });
    const status = await getRebuild(request('GET', 'token-admin'), ctx);
    expect(status.status).toBe(502);
    expect(await status.json()).toEqual({ error: 'upstream_error', message: 'No se pudo leer el estado de la reconstrucción. Intenta de nuevo.' });
  });

  it('takes the request limit from the context (counted in the database across servers)', async () => {
    const asked: string[] = [];
    const limiter = { limit: 6, take: async (key: string) => (asked.push(key), 120) };
    const refused = await postRebuild(request('POST', 'token-admin'), context({ limiter }));
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('120');
    expect(asked).toEqual(['u-admin']);
  });
});
