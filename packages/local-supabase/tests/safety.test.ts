/**
 * The local stack is safe on a developer's machine: it listens on loopback only, CORS and
 * realtime answer only the shop's own origins, the Google stand-in never takes over an
 * account it did not create, a repeated sign-up never changes an unconfirmed account, REST
 * reads and writes are bounded, and /health answers while a heavy statement runs. The demo
 * accounts come from the local-only seed, never from supabase/seed.sql.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import WebSocket from 'ws';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { defaultCorsOrigins, originAllowed } from '../src/cors.ts';
import { assertSafeHost, DEFAULT_MAX_ROWS, templateKey } from '../src/index.ts';
import { LOCAL_JWT_SECRET } from '../src/config.ts';
import { migrationFiles } from '../src/migrate.ts';
import { MAX_EMBED_DEPTH } from '../src/rest/parse.ts';
import { buildSeed } from '../../../scripts/seed/build.ts';
import { DEFAULT_SEED_PATH, DEMO_ADMIN, DEMO_ORDER_COUNT, DEMO_SEED_PATH, DEMO_SHOPPER } from '../../../scripts/seed/constants.ts';
import { FIXTURE_SQL, startTestStack, type TestStack } from './helpers.ts';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const SITE = 'http://localhost:4321';
const EVIL = 'https://sitio-malicioso.example';

let shop: TestStack;
let rest: TestStack;
let seq = 0;

/** 2,500 rows, a self-join chain for deep embeds, and a statement that runs for seconds. */
const LIMITS_SQL = `${FIXTURE_SQL}
create table fx_many (id int primary key, label text not null);
insert into fx_many (id, label) select g, 'fila ' || g from generate_series(1, 2500) g;
create table fx_hub (id int primary key);
create table fx_spoke (id int primary key, hub_id int not null references fx_hub(id));
insert into fx_hub values (1);
insert into fx_spoke select g, 1 from generate_series(1, 1500) g;
grant select on fx_many, fx_hub, fx_spoke to anon, authenticated;
create table fx_bulk (id serial primary key, n int not null);
grant insert, select on fx_bulk to anon;
grant usage on sequence fx_bulk_id_seq to anon;
create function fx_heavy() returns bigint language sql as $f$ select count(*) from generate_series(1, 15000000) $f$;
grant execute on function fx_heavy() to anon;
`;

beforeAll(async () => {
  [shop, rest] = await Promise.all([
    startTestStack({ autoconfirm: false, siteUrl: SITE }),
    startTestStack({ migrate: false, setupSql: LIMITS_SQL, siteUrl: SITE }),
  ]);
}, 120_000);
afterAll(async () => {
  await Promise.all([shop?.stop(), rest?.stop()]);
});
afterEach(() => {
  delete process.env.LOCAL_SUPABASE_RATE_LIMITS;
});

function anon(stack: TestStack): SupabaseClient {
  return createClient(stack.url, stack.anonKey, { auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false } });
}

function newEmail(tag: string): string {
  seq += 1;
  return `${tag}.${seq}.${Date.now()}@correo.mx`;
}

async function mailbox(to: string): Promise<Array<{ subject: string; links: string[] }>> {
  const res = await fetch(`${shop.url}/mailbox/api/messages?to=${encodeURIComponent(to)}`, {
    headers: { apikey: shop.serviceRoleKey },
  });
  expect(res.status).toBe(200);
  return (await res.json()) as Array<{ subject: string; links: string[] }>;
}

describe('listening', () => {
  it('listens on loopback by default and refuses another address with the public secret', () => {
    expect(shop.stack.config.host).toBe('127.0.0.1');
    expect(() => assertSafeHost('0.0.0.0', LOCAL_JWT_SECRET)).toThrow(/127\.0\.0\.1/);
    expect(() => assertSafeHost('127.0.0.1', LOCAL_JWT_SECRET)).not.toThrow();
  });
});

describe('CORS', () => {
  it('allows the site URL, the npm start origin (localhost and 127.0.0.1), the e2e SITE_URL and LOCAL_SUPABASE_CORS_ORIGINS, never *', () => {
    const origins = defaultCorsOrigins('http://127.0.0.1:4329', {
      SITE_URL: 'http://127.0.0.1:4329/',
      LOCAL_SUPABASE_SITE_URL: 'https://tienda.local:8443/base',
      HOST: '127.0.0.1',
      PORT: '4329',
      LOCAL_SUPABASE_CORS_ORIGINS: ' http://localhost:3000 , no-es-url, *',
    });
    expect(origins).toEqual(['http://127.0.0.1:4329', 'https://tienda.local:8443', 'http://localhost:4329', 'http://localhost:3000']);
    expect(defaultCorsOrigins('http://localhost:4321', {})).toEqual(['http://localhost:4321', 'http://127.0.0.1:4321']);
    expect(originAllowed(origins, 'http://localhost:3000')).toBe(true);
    for (const bad of ['*', 'null', EVIL, 'http://localhost:3001', 'http://localhost:3000/x', 'file://']) {
      expect(originAllowed(origins, bad), bad).toBe(false);
    }
  });

  it('answers the shop origin with its own Access-Control-Allow-Origin, a foreign origin with none, and a request without Origin normally', async () => {
    const url = `${shop.url}/auth/v1/recover`;
    const body = JSON.stringify({ email: newEmail('cors') });
    const headers = { apikey: shop.anonKey, 'content-type': 'application/json' };

    const own = await fetch(url, { method: 'POST', headers: { ...headers, origin: 'http://127.0.0.1:4321' }, body });
    expect(own.status).toBe(200);
    expect(own.headers.get('access-control-allow-origin')).toBe('http://127.0.0.1:4321');
    expect(own.headers.get('vary')).toContain('Origin');

    const foreign = await fetch(`${shop.url}/rest/v1/products?select=id&limit=1`, { headers: { apikey: shop.anonKey, origin: EVIL } });
    expect(foreign.headers.get('access-control-allow-origin')).toBeNull();

    const none = await fetch(`${shop.url}/rest/v1/products?select=id&limit=1`, { headers: { apikey: shop.anonKey } });
    expect(none.status).toBe(200);
    expect(none.headers.get('access-control-allow-origin')).toBeNull();
    expect(((await none.json()) as unknown[]).length).toBe(1);
  });

  it("refuses a preflight from a foreign origin with no CORS headers, and allows the shop's", async () => {
    for (const target of ['/auth/v1/recover', '/rest/v1/products', '/mailbox/api/messages', '/storage/v1/object/products/x.svg']) {
      const refused = await fetch(`${shop.url}${target}`, {
        method: 'OPTIONS',
        headers: { origin: EVIL, 'access-control-request-method': 'POST', 'access-control-request-headers': 'apikey, content-type' },
      });
      expect(refused.status, target).toBe(403);
      expect(refused.headers.get('access-control-allow-origin'), target).toBeNull();
      expect(refused.headers.get('access-control-allow-headers'), target).toBeNull();

      const allowed = await fetch(`${shop.url}${target}`, {
        method: 'OPTIONS',
        headers: { origin: SITE, 'access-control-request-method': 'POST' },
      });
      expect(allowed.status, target).toBe(204);
      expect(allowed.headers.get('access-control-allow-origin'), target).toBe(SITE);
    }
  });

  it("refuses a realtime WebSocket opened by a foreign page, and accepts the shop's and a server's (no Origin)", async () => {
    const url = `${shop.url.replace(/^http/, 'ws')}/realtime/v1/websocket?apikey=${encodeURIComponent(shop.anonKey)}&vsn=1.0.0`;
    const outcome = (origin?: string) =>
      new Promise<string>((resolve) => {
        const ws = new WebSocket(url, origin ? { origin } : {});
        ws.once('open', () => {
          ws.close();
          resolve('open');
        });
        ws.once('unexpected-response', (_req, res) => resolve(`http ${res.statusCode}`));
        ws.once('error', () => resolve('error'));
      });
    expect(await outcome(EVIL)).toBe('http 403');
    expect(await outcome(SITE)).toBe('open');
    expect(await outcome()).toBe('open');
  });
});

describe('Google stand-in', () => {
  const callback = (form: Record<string, string>, headers: Record<string, string> = {}) =>
    fetch(`${shop.url}/auth/v1/callback`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
      body: new URLSearchParams({ redirect_to: `${SITE}/account`, ...form }),
    });

  it('never signs in or links an existing e-mail/password account: a Spanish error page, no session, the account unchanged', async () => {
    const res = await callback({ name: 'Intruso', email: DEMO_SHOPPER.email });
    expect(res.status).toBe(409);
    expect(res.headers.get('location')).toBeNull();
    const html = await res.text();
    expect(html).toContain('Ya existe una cuenta con este correo que no se creó con Google');
    expect(html).toContain('<html lang="es-MX">');
    expect(html).not.toContain('access_token');

    const { data } = await shop.stack.ctx.db
      .admin((tx) => tx.query<{ provider: string }>(`select provider from auth.identities where user_id = $1 order by provider`, [DEMO_SHOPPER.id]))
      .then((r) => ({ data: r.rows }));
    expect(data).toEqual([{ provider: 'email' }]);
    const meta = await shop.stack.ctx.db.admin((tx) =>
      tx.query<{ app: Record<string, unknown>; name: unknown }>(
        `select raw_app_meta_data as app, raw_user_meta_data->>'full_name' as name from auth.users where id = $1`,
        [DEMO_SHOPPER.id],
      ),
    );
    expect(meta.rows[0]!.app.providers).toEqual(['email']);
    expect(meta.rows[0]!.name).toBeNull();

    // The demo shopper still signs in with the password, as before.
    const { error } = await anon(shop).auth.signInWithPassword({ email: DEMO_SHOPPER.email, password: DEMO_SHOPPER.password });
    expect(error).toBeNull();
  });

  it('also refuses an unconfirmed e-mail/password sign-up with the same address (no confirming it through Google)', async () => {
    const email = newEmail('pendiente.google');
    expect((await anon(shop).auth.signUp({ email, password: 'secreto-123' })).error).toBeNull();
    const res = await callback({ name: 'Otra Persona', email });
    expect(res.status).toBe(409);
    const confirmed = await shop.stack.ctx.db.admin((tx) =>
      tx.query<{ confirmed: boolean }>(`select email_confirmed_at is not null as confirmed from auth.users where email = $1`, [email]),
    );
    expect(confirmed.rows).toEqual([{ confirmed: false }]);
  });

  it('signs in only accounts it created, marked with the google provider and identity', async () => {
    const email = newEmail('solo.google');
    const first = await callback({ name: 'Gina Google', email });
    expect(first.status).toBe(302);
    const token = new URLSearchParams(new URL(first.headers.get('location')!).hash.slice(1)).get('access_token')!;
    const { data } = await anon(shop).auth.getUser(token);
    expect(data.user?.app_metadata.provider).toBe('google');
    expect(data.user?.identities?.map((i) => i.provider)).toEqual(['google']);
    const again = await callback({ name: 'Gina Google', email });
    expect(again.status).toBe(302);
  });

  it('lists no accounts on the page: neither the demo accounts nor earlier Google sign-ins', async () => {
    const email = newEmail('listada');
    expect((await callback({ name: 'Lista Google', email })).status).toBe(302);
    const { data } = await anon(shop).auth.signInWithOAuth({ provider: 'google', options: { redirectTo: `${SITE}/account`, skipBrowserRedirect: true } });
    const html = await (await fetch(data.url!)).text();
    expect(html).toContain('Correo de Google');
    for (const hidden of [email, DEMO_SHOPPER.email, DEMO_ADMIN.email, 'prueba.google@demo.mx', 'Lista Google']) {
      expect(html, hidden).not.toContain(hidden);
    }
    expect(html).not.toMatch(/<input type="hidden" name="email"/);
  });

  it('refuses the form when another site posts it', async () => {
    const email = newEmail('csrf.google');
    const res = await callback({ name: 'Falsa', email }, { origin: EVIL });
    expect(res.status).toBe(403);
    expect(res.headers.get('location')).toBeNull();
    const users = await shop.stack.ctx.db.admin((tx) => tx.query(`select 1 from auth.users where email = $1`, [email]));
    expect(users.rows).toHaveLength(0);
  });
});

describe('sign-up of an existing unconfirmed e-mail', () => {
  it('never changes its password or metadata: it only resends the confirmation, within the e-mail rate limit', async () => {
    const email = newEmail('sin.confirmar');
    const sb = anon(shop);
    const first = await sb.auth.signUp({ email, password: 'original-123', options: { data: { name: 'Dueña', username: `duena${seq}` } } });
    expect(first.error).toBeNull();
    const userId = first.data.user!.id;
    const before = await shop.stack.ctx.db.admin((tx) =>
      tx.query<{ encrypted_password: string; meta: Record<string, unknown> }>(
        `select encrypted_password, raw_user_meta_data as meta from auth.users where id = $1`,
        [userId],
      ),
    );

    // Within the minute: refused like Supabase, and nothing changes.
    const tooSoon = await sb.auth.signUp({ email, password: 'intruso-456', options: { data: { name: 'Intruso' } } });
    expect(tooSoon.error?.status).toBe(429);
    expect(tooSoon.error?.code).toBe('over_email_send_rate_limit');

    // Past the limit: the same user comes back, a new confirmation goes out, still nothing changes.
    process.env.LOCAL_SUPABASE_RATE_LIMITS = 'email_interval=0';
    const again = await sb.auth.signUp({ email, password: 'intruso-456', options: { data: { name: 'Intruso', phone: '+52 1' } } });
    expect(again.error).toBeNull();
    expect(again.data.session).toBeNull();
    expect(again.data.user?.id).toBe(userId);
    expect(again.data.user?.user_metadata.name).toBe('Dueña');
    const after = await shop.stack.ctx.db.admin((tx) =>
      tx.query<{ encrypted_password: string; meta: Record<string, unknown> }>(
        `select encrypted_password, raw_user_meta_data as meta from auth.users where id = $1`,
        [userId],
      ),
    );
    expect(after.rows[0]).toEqual(before.rows[0]);
    const mails = await mailbox(email);
    expect(mails.map((m) => m.subject)).toEqual(['Confirma tu cuenta en Cartas Mx', 'Confirma tu cuenta en Cartas Mx']);

    // The owner confirms with the newest link and keeps the original password.
    const confirm = await fetch(mails[0]!.links[0]!, { redirect: 'manual' });
    expect(confirm.status).toBe(303);
    expect((await sb.auth.signInWithPassword({ email, password: 'intruso-456' })).error?.code).toBe('invalid_credentials');
    expect((await sb.auth.signInWithPassword({ email, password: 'original-123' })).error).toBeNull();
  });
});

describe('REST limits', () => {
  const get = (pathAndQuery: string, headers: Record<string, string> = {}) =>
    fetch(`${rest.url}/rest/v1/${pathAndQuery}`, { headers: { apikey: rest.anonKey, ...headers } });

  it('returns at most 1,000 rows per read, whatever limit or Range asks, and count=exact still reports the full count', async () => {
    expect(DEFAULT_MAX_ROWS).toBe(1000);
    expect(rest.stack.config.maxRows).toBe(1000);
    for (const [query, headers] of [
      ['fx_many?select=id', {}],
      ['fx_many?select=id&limit=5000', {}],
      ['fx_many?select=id', { range: '0-4999' }],
    ] as const) {
      const res = await get(query, headers);
      expect(res.status, query).toBe(200);
      expect(((await res.json()) as unknown[]).length, query).toBe(1000);
      expect(res.headers.get('content-range'), query).toBe('0-999/*');
    }
    const counted = await get('fx_many?select=id&order=id', { prefer: 'count=exact' });
    expect(counted.status).toBe(206);
    expect(counted.headers.get('content-range')).toBe('0-999/2500');
    const rows = (await counted.json()) as Array<{ id: number }>;
    expect(rows.at(-1)).toEqual({ id: 1000 });
  });

  it('pages through more than 1,000 rows with range(), as the catalogue snapshot does', async () => {
    const sb = anon(rest);
    const ids: number[] = [];
    for (let from = 0; ; from += 1000) {
      const { data, error } = await sb
        .from('fx_many')
        .select('id')
        .order('id')
        .range(from, from + 999);
      expect(error).toBeNull();
      ids.push(...(data as Array<{ id: number }>).map((r) => r.id));
      if (data!.length < 1000) break;
    }
    expect(ids).toHaveLength(2500);
    expect(new Set(ids).size).toBe(2500);
  });

  it('caps each to-many embed at 1,000 rows too', async () => {
    const res = await get('fx_hub?select=id,fx_spoke(id)');
    expect(res.status).toBe(200);
    const [hub] = (await res.json()) as Array<{ id: number; fx_spoke: unknown[] }>;
    expect(hub!.fx_spoke).toHaveLength(1000);
    const asked = await get('fx_hub?select=id,fx_spoke(id)&fx_spoke.limit=5000');
    expect(((await asked.json()) as Array<{ fx_spoke: unknown[] }>)[0]!.fx_spoke).toHaveLength(1000);
    const fewer = await get('fx_hub?select=id,fx_spoke(id)&fx_spoke.limit=3');
    expect(((await fewer.json()) as Array<{ fx_spoke: unknown[] }>)[0]!.fx_spoke).toHaveLength(3);
  });

  it(`embeds up to ${MAX_EMBED_DEPTH} levels and refuses a deeper embed with a PostgREST-shaped 400`, async () => {
    const four = 'fx_products?select=id,fx_order_items(id,fx_orders(id,fx_order_items(id,fx_products(id))))';
    expect((await get(four)).status).toBe(200);
    const five = 'fx_products?select=id,fx_order_items(id,fx_orders(id,fx_order_items(id,fx_products(id,fx_order_items(id)))))';
    const res = await get(five);
    expect(res.status).toBe(400);
    const body = (await res.json()) as Record<string, unknown>;
    expect(Object.keys(body).sort()).toEqual(['code', 'details', 'hint', 'message']);
    expect(body.code).toBe('PGRST100');
    expect(String(body.details)).toContain(`at most ${MAX_EMBED_DEPTH} levels`);
  });

  it('accepts an insert of 1,000 rows and refuses 1,001 with a PostgREST-shaped 413, inserting nothing', async () => {
    const post = (n: number) =>
      fetch(`${rest.url}/rest/v1/fx_bulk`, {
        method: 'POST',
        headers: { apikey: rest.anonKey, 'content-type': 'application/json', prefer: 'return=minimal' },
        body: JSON.stringify(Array.from({ length: n }, (_, i) => ({ n: i }))),
      });
    const big = await post(1001);
    expect(big.status).toBe(413);
    const body = (await big.json()) as Record<string, unknown>;
    expect(Object.keys(body).sort()).toEqual(['code', 'details', 'hint', 'message']);
    expect(String(body.details)).toContain('1001 rows');
    const count = async () => (await get('fx_bulk?select=id', { prefer: 'count=exact', range: '0-0' })).headers.get('content-range');
    expect(await count()).toBe('*/0');
    expect((await post(1000)).status).toBe(201);
    expect(await count()).toBe('0-0/1000');
  });

  it('LOCAL_SUPABASE_MAX_ROWS changes the cap', async () => {
    process.env.LOCAL_SUPABASE_MAX_ROWS = '7';
    let small: TestStack | undefined;
    try {
      small = await startTestStack({ migrate: false, setupSql: LIMITS_SQL });
      expect(small.stack.config.maxRows).toBe(7);
      const res = await fetch(`${small.url}/rest/v1/fx_many?select=id`, { headers: { apikey: small.anonKey, prefer: 'count=exact' } });
      expect(((await res.json()) as unknown[]).length).toBe(7);
      expect(res.headers.get('content-range')).toBe('0-6/2500');
    } finally {
      delete process.env.LOCAL_SUPABASE_MAX_ROWS;
      await small?.stop();
    }
  });

  it('keeps /health under 1 s while a heavy statement runs', async () => {
    let done = false;
    const started = Date.now();
    const heavy = fetch(`${rest.url}/rest/v1/rpc/fx_heavy`, { method: 'POST', headers: { apikey: rest.anonKey } }).then((r) => {
      done = true;
      return r.status;
    });
    const latencies: number[] = [];
    while (!done) {
      const t0 = performance.now();
      const res = await fetch(`${rest.url}/health`);
      latencies.push(performance.now() - t0);
      expect(res.status).toBe(200);
      await new Promise((r) => setTimeout(r, 25));
    }
    expect(await heavy).toBe(200);
    const heavyMs = Date.now() - started;
    // The statement ran long enough for the check to mean something, and /health never waited.
    expect(heavyMs).toBeGreaterThan(1000);
    expect(latencies.length).toBeGreaterThan(heavyMs / 1000);
    expect(Math.max(...latencies)).toBeLessThan(1000);
  });
});

describe('demo data stays local', () => {
  it('supabase/seed.sql holds the catalogue only: no accounts, passwords, addresses or orders', () => {
    const seed = fs.readFileSync(path.join(ROOT, DEFAULT_SEED_PATH), 'utf8');
    expect(seed).toContain('insert into public.products');
    for (const forbidden of [
      'auth.',
      '@demo.mx',
      'encrypted_password',
      'public.addresses',
      'public.orders',
      'public.order_items',
      'public.rewards',
      'public.coupons',
      'public.profiles',
      '$2b$',
    ]) {
      expect(seed, forbidden).not.toContain(forbidden);
    }
  });

  it('the demo accounts live in the local-only seed, generated by npm run seed and applied after the catalogue', () => {
    const seed = buildSeed();
    expect(DEMO_SEED_PATH.startsWith('supabase/local/')).toBe(true);
    expect(fs.readFileSync(path.join(ROOT, DEMO_SEED_PATH), 'utf8')).toBe(seed.demoSql);
    expect(seed.demoSql).toContain(DEMO_SHOPPER.email);
    expect(seed.demoSql).toContain(DEMO_ADMIN.email);
    const files = migrationFiles(ROOT);
    const catalogue = files.findIndex((f) => f.version === 'seed');
    const demo = files.findIndex((f) => f.path === path.join(ROOT, DEMO_SEED_PATH));
    expect(catalogue).toBeGreaterThan(0);
    expect(demo).toBeGreaterThan(catalogue);
    expect(files[demo]!.localOnly).toBe(true);
    expect(migrationFiles(ROOT, { local: false }).some((f) => f.path.includes(`${path.sep}local${path.sep}`))).toBe(false);
    expect(migrationFiles(ROOT, { seed: false }).some((f) => f.path === path.join(ROOT, DEMO_SEED_PATH))).toBe(false);
  });

  it('the local stack loads the demo accounts ready to use', async () => {
    const sb = anon(shop);
    const { data, error } = await sb.auth.signInWithPassword({ email: DEMO_SHOPPER.email, password: DEMO_SHOPPER.password });
    expect(error).toBeNull();
    const { data: orders } = await sb.from('orders').select('id').eq('user_id', data.user!.id);
    expect(orders).toHaveLength(DEMO_ORDER_COUNT);
    const admin = await anon(shop).auth.signInWithPassword({ email: DEMO_ADMIN.email, password: DEMO_ADMIN.password });
    expect(admin.error).toBeNull();
  });

  it('re-applying the demo seed on a database that already has the accounts changes nothing', async () => {
    const count = async () =>
      (await shop.stack.ctx.db.admin((tx) => tx.query<{ n: number }>('select count(*)::int as n from public.orders where user_id = $1', [DEMO_SHOPPER.id])))
        .rows[0]!.n;
    const before = await count();
    await shop.stack.ctx.db.exec(buildSeed().demoSql);
    expect(await count()).toBe(before);
  });

  it('the cached database template changes when the local demo seed changes', () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'tienda-plantilla-'));
    try {
      fs.cpSync(path.join(ROOT, 'supabase/local'), path.join(root, 'supabase/local'), { recursive: true });
      fs.cpSync(path.join(ROOT, 'supabase/migrations'), path.join(root, 'supabase/migrations'), { recursive: true });
      fs.copyFileSync(path.join(ROOT, DEFAULT_SEED_PATH), path.join(root, DEFAULT_SEED_PATH));
      const before = templateKey(root, true, undefined);
      fs.appendFileSync(path.join(root, DEMO_SEED_PATH), '\n-- cambio\n');
      expect(templateKey(root, true, undefined)).not.toBe(before);
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});
