/** The stack as a process: persistence across restarts, --reset, signals and refusing unsafe hosts. */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../../../scripts/support/net.mjs';
import { LOCAL_JWT_SECRET } from '../src/config.ts';
import { extractTar, openPglite, type Role } from '../src/db.ts';
import { openPostgres } from '../src/postgres.ts';
import { assertSafeHost, resetDataDir, StackConfigError, startStack } from '../src/index.ts';
import { resolveSettings } from '../src/start/settings.ts';

const ROOT = path.resolve(import.meta.dirname, '..', '..', '..');
const TSX = path.join(ROOT, 'node_modules', '.bin', 'tsx');
const tempDirs: string[] = [];

function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tienda-process-'));
  tempDirs.push(dir);
  return dir;
}

async function subscribe(url: string, key: string, email: string): Promise<number> {
  const res = await fetch(`${url}/rest/v1/newsletter_subscribers`, {
    method: 'POST',
    headers: { apikey: key, 'content-type': 'application/json' },
    body: JSON.stringify({ email }),
  });
  return res.status;
}

async function subscribers(url: string, serviceKey: string): Promise<string[]> {
  const res = await fetch(`${url}/rest/v1/newsletter_subscribers?select=email&email=like.*proceso.test&order=email`, {
    headers: { apikey: serviceKey, authorization: `Bearer ${serviceKey}` },
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as Array<{ email: string }>).map((r) => r.email);
}

interface Child {
  proc: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<number | null>;
}

function runCli(args: string[], env: Record<string, string>): Child {
  const proc = spawn(TSX, [path.join(ROOT, 'scripts/backend.ts'), ...args], {
    cwd: ROOT,
    env: { ...process.env, PATH: `${path.join(ROOT, 'node_modules', '.bin')}:${process.env.PATH}`, DATABASE_URL: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  proc.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  proc.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<number | null>((resolve) => proc.on('exit', (code) => resolve(code)));
  return { proc, stdout: () => out, stderr: () => err, exited };
}

async function waitFor(cond: () => boolean, ms: number, what: string): Promise<void> {
  const until = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > until) throw new Error(`Tiempo agotado esperando: ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

afterAll(() => {
  for (const d of tempDirs) fs.rmSync(d, { recursive: true, force: true });
});

describe('command line', () => {
  it('starts, serves /health, prints URL, keys and demo accounts, stops cleanly on SIGTERM, keeps data across restarts and --reset wipes it', async () => {
    const dataDir = tempDir();
    const port = await freePort();
    const child = runCli([], { LOCAL_SUPABASE_PORT: String(port), LOCAL_SUPABASE_DATA_DIR: dataDir });
    try {
      await waitFor(() => child.stdout().includes('service_role key') || child.proc.exitCode !== null, 60_000, 'arranque');
      const out = child.stdout();
      expect(out).toContain(`http://127.0.0.1:${port}`);
      expect(out).toContain('anon key');
      expect(out).toContain('cliente@demo.mx');
      expect(out).toContain('Cliente123!');
      expect(out).toContain('admin@demo.mx');
      expect(out).toContain('Admin123!');
      const health = await fetch(`http://127.0.0.1:${port}/health`);
      expect(health.status).toBe(200);
      expect(await health.json()).toEqual({ status: 'ok' });
      const unknown = await fetch(`http://127.0.0.1:${port}/no-existe`);
      expect(unknown.status).toBe(404);
      expect(await subscribe(`http://127.0.0.1:${port}`, (/anon key\s+(\S+)/.exec(out) ?? [])[1] ?? '', 'senal@proceso.test')).toBe(201);
    } finally {
      child.proc.kill('SIGTERM');
    }
    const code = await Promise.race([child.exited, new Promise<'hang'>((r) => setTimeout(() => r('hang'), 15_000))]);
    expect(code).toBe(0);
    expect(child.stdout()).toContain('cerrado');

    // The data written before SIGTERM is intact: the next start reuses the data dir.
    const again = await startStack({ dataDir, port: 0, host: '127.0.0.1', databaseUrl: '' });
    try {
      expect(again.timings.fresh).toBe(false);
      expect(await subscribers(again.url, again.config.serviceRoleKey)).toEqual(['senal@proceso.test']);
    } finally {
      await again.stop();
    }

    // --reset wipes it: a fresh, seeded database without the subscriber.
    const reset = await startStack({ dataDir, port: 0, host: '127.0.0.1', databaseUrl: '', reset: true });
    try {
      expect(reset.timings.fresh).toBe(true);
      expect(await subscribers(reset.url, reset.config.serviceRoleKey)).toEqual([]);
      const products = await fetch(`${reset.url}/rest/v1/products?select=id&limit=1`, { headers: { apikey: reset.config.anonKey } });
      expect(await products.json()).toHaveLength(1);
    } finally {
      await reset.stop();
    }
  }, 120_000);

  it('refuses a non-loopback host with the public local secret, with a clear message', async () => {
    const child = runCli([], { LOCAL_SUPABASE_HOST: '0.0.0.0', LOCAL_SUPABASE_PORT: '0', LOCAL_SUPABASE_DATA_DIR: tempDir(), SUPABASE_JWT_SECRET: '' });
    const code = await child.exited;
    expect(code).toBe(1);
    expect(child.stderr()).toContain('Se rechaza escuchar en 0.0.0.0');
    expect(child.stderr()).toContain('SUPABASE_JWT_SECRET');
  }, 60_000);

  it('refuses unknown arguments', async () => {
    const child = runCli(['--borrar-todo'], { LOCAL_SUPABASE_DATA_DIR: tempDir() });
    expect(await child.exited).toBe(2);
    expect(child.stderr()).toContain('Argumento desconocido');
  }, 60_000);

  it('--reset refuses to wipe the project, the home folder or the filesystem root', () => {
    expect(() => resetDataDir(ROOT, ROOT)).toThrow(StackConfigError);
    expect(() => resetDataDir(path.dirname(ROOT), ROOT)).toThrow(StackConfigError);
    expect(() => resetDataDir(os.homedir(), ROOT)).toThrow(StackConfigError);
    expect(() => resetDataDir('/', ROOT)).toThrow(StackConfigError);
    expect(fs.existsSync(path.join(ROOT, 'package.json'))).toBe(true);
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, 'x'), 'x');
    resetDataDir(dir, ROOT);
    expect(fs.existsSync(dir)).toBe(false);
  });

  it('allows a non-loopback host only with a private secret', () => {
    expect(() => assertSafeHost('0.0.0.0', LOCAL_JWT_SECRET)).toThrow(StackConfigError);
    expect(() => assertSafeHost('192.168.1.10', LOCAL_JWT_SECRET)).toThrow(StackConfigError);
    expect(() => assertSafeHost('0.0.0.0', 'un-secreto-privado-de-produccion-0123456789')).not.toThrow();
    expect(() => assertSafeHost('127.0.0.1', LOCAL_JWT_SECRET)).not.toThrow();
    expect(() => assertSafeHost('localhost', LOCAL_JWT_SECRET)).not.toThrow();
  });
});

describe('DATABASE_URL', () => {
  it('runs the same migrations, REST and NOTIFY on a PostgreSQL server', async () => {
    const dir = tempDir();
    // initdb and postgres refuse to run as root: use an unprivileged account when needed.
    const asUser: { uid?: number; gid?: number } = process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : {};
    if (asUser.uid !== undefined) fs.chownSync(dir, asUser.uid, asUser.gid ?? asUser.uid);
    const initdb = spawn('initdb', ['-D', path.join(dir, 'pg'), '-A', 'trust', '-U', 'postgres', '--no-sync'], { ...asUser, stdio: 'ignore' });
    expect(await new Promise((r) => initdb.on('exit', r))).toBe(0);
    const port = await freePort();
    const server = spawn('postgres', ['-D', path.join(dir, 'pg'), '-p', String(port), '-k', dir, '-c', 'listen_addresses=127.0.0.1', '-c', 'fsync=off'], {
      ...asUser,
      stdio: 'ignore',
    });
    try {
      const databaseUrl = `postgres://postgres@127.0.0.1:${port}/postgres`;
      let stack: Awaited<ReturnType<typeof startStack>> | undefined;
      const until = Date.now() + 30_000;
      while (!stack) {
        try {
          stack = await startStack({ databaseUrl, port: 0, host: '127.0.0.1', dataDir: path.join(dir, 'data') });
        } catch (err) {
          if (Date.now() > until || !/ECONNREFUSED|starting up/.test(String((err as Error).message))) throw err;
          await new Promise((r) => setTimeout(r, 200));
        }
      }
      try {
        expect(stack.ctx.db.kind).toBe('postgres');
        const res = await fetch(`${stack.url}/rest/v1/products?select=id,price&order=id&limit=2`, { headers: { apikey: stack.config.anonKey } });
        expect(res.status).toBe(200);
        const rows = (await res.json()) as Array<{ id: string; price: number }>;
        expect(rows).toHaveLength(2);
        expect(typeof rows[0]!.price).toBe('number');
        // A read with a count takes two statements; a single object asked of two rows is refused.
        const counted = await fetch(`${stack.url}/rest/v1/products?select=id&limit=2`, { headers: { apikey: stack.config.anonKey, prefer: 'count=exact' } });
        expect(counted.status).toBe(206);
        expect(counted.headers.get('content-range')).toMatch(/^0-1\/\d+$/);
        const notOne = await fetch(`${stack.url}/rest/v1/products?select=id&limit=2`, {
          headers: { apikey: stack.config.anonKey, accept: 'application/vnd.pgrst.object+json' },
        });
        expect(notOne.status).toBe(406);
        expect(await subscribe(stack.url, stack.config.anonKey, 'pg@proceso.test')).toBe(201);
        expect(await subscribers(stack.url, stack.config.serviceRoleKey)).toEqual(['pg@proceso.test']);
        const heard: string[] = [];
        const unlisten = await stack.ctx.db.listen('canal_prueba', (p) => heard.push(p));
        await stack.ctx.db.admin((tx) => tx.query("select pg_notify('canal_prueba', 'hola')"));
        await waitFor(() => heard.length > 0, 5000, 'NOTIFY');
        expect(heard).toEqual(['hola']);
        await unlisten();

        // A request's start is one script with its values quoted as literals: hostile text comes back
        // exactly as sent, and a read-only request cannot write.
        const headers = JSON.stringify({ 'x-uno': "O'Brien \\ $1 '; drop table t; -- ñ 🃏", 'x-dos': "E'\\''" });
        const seen = await stack.ctx.db.asRole(
          'authenticated',
          { sub: "u'1\\$2" },
          (tx) =>
            tx.query<{ role: string; headers: string; sub: string; ro: string }>(
              "select current_user as role, current_setting('request.headers', true) as headers, current_setting('request.jwt.claim.sub', true) as sub, current_setting('transaction_read_only') as ro",
            ),
          { readOnly: true, headers },
        );
        expect(seen.rows[0]).toEqual({ role: 'authenticated', headers, sub: "u'1\\$2", ro: 'on' });
        await expect(stack.ctx.db.asRole('service_role', {}, (tx) => tx.query('create table escrito (n int)'), { readOnly: true })).rejects.toThrow(
          /read-only/,
        );
        const writable = await stack.ctx.db.asRole('anon', {}, (tx) =>
          tx.query<{ ro: string; headers: string | null }>(
            "select current_setting('transaction_read_only') as ro, current_setting('request.headers', true) as headers",
          ),
        );
        // A pool of two: six transactions at once run on two connections at most.
        const small = await openPostgres(databaseUrl, { max: 2 });
        try {
          const pids = await Promise.all(
            Array.from({ length: 6 }, () => small.asRole('anon', {}, (tx) => tx.query<{ pid: number }>('select pg_backend_pid() as pid, pg_sleep(0.05)'))),
          );
          expect(new Set(pids.map((r) => r.rows[0]!.pid)).size).toBeLessThanOrEqual(2);
        } finally {
          await small.close();
        }
        expect(resolveSettings({ databaseUrl }, { LOCAL_SUPABASE_DB_POOL: '4' }).dbPool).toBe(4);
        expect(resolveSettings({ databaseUrl }, {}).dbPool).toBe(10);
        for (const bad of ['0', '2.5', 'muchas', '101']) {
          expect(() => resolveSettings({ databaseUrl }, { LOCAL_SUPABASE_DB_POOL: bad })).toThrow(StackConfigError);
        }

        // Without headers none are set (null, or '' on a connection an earlier request set them on).
        expect(writable.rows[0]!.ro).toBe('off');
        expect(writable.rows[0]!.headers || null).toBeNull();

        // A POST call of a function: its arguments arrive exactly as sent, it commits what it wrote,
        // and a failure leaves nothing.
        await stack.ctx.db.admin((tx) =>
          tx.query(`
            create table public.eco_escritos (t text);
            grant insert on public.eco_escritos to anon;
            create function public.eco(t text) returns text language plpgsql as $f$
            begin
              insert into public.eco_escritos values (t);
              if t = 'falla' then raise exception 'No se pudo: %', t using errcode = 'P0001', detail = 'eco_falla'; end if;
              return t || ' · ' || current_setting('request.jwt.claim.role', true);
            end $f$;
            grant execute on function public.eco(text) to anon;`),
        );
        // The schema is read again at most once a second when a request names something unknown.
        await new Promise((r) => setTimeout(r, 1100));
        const eco = (t: string) =>
          fetch(`${stack!.url}/rest/v1/rpc/eco`, {
            method: 'POST',
            headers: { apikey: stack!.config.anonKey, 'content-type': 'application/json' },
            body: JSON.stringify({ t }),
          });
        const hostile = "O'Brien \\ $1 '); drop table public.eco_escritos; -- 🃏";
        const answered = await eco(hostile);
        expect(answered.status).toBe(200);
        expect(await answered.json()).toBe(`${hostile} · anon`);
        const refused = await eco('falla');
        expect(refused.status).toBe(400);
        expect(await refused.json()).toMatchObject({ code: 'P0001', message: 'No se pudo: falla', details: 'eco_falla' });
        const written = await stack.ctx.db.admin((tx) => tx.query<{ t: string }>('select t from public.eco_escritos order by t'));
        expect(written.rows).toEqual([{ t: hostile }]);
        // Asked to roll back, the call answers and keeps nothing (it does not go as one script).
        const tried = await fetch(`${stack.url}/rest/v1/rpc/eco`, {
          method: 'POST',
          headers: { apikey: stack.config.anonKey, 'content-type': 'application/json', prefer: 'tx=rollback' },
          body: JSON.stringify({ t: 'ensayo' }),
        });
        expect(tried.status).toBe(200);
        expect(await tried.json()).toBe('ensayo · anon');
        expect((await stack.ctx.db.admin((tx) => tx.query('select t from public.eco_escritos'))).rows).toHaveLength(1);

        // One statement as one script (what an RPC call sends): the role, claims, headers and the
        // role's statement timeout hold for it; read-only holds too; a value that is not text, a
        // number or a boolean takes an ordinary transaction; a second statement is refused.
        const single = await stack.ctx.db.asRole(
          'authenticated',
          { sub: "u'9" },
          (tx) =>
            tx.query<{ role: string; sub: string; headers: string; timeout: string; ro: string; n: number; t: string; b: boolean; z: null }>(
              "select current_user as role, current_setting('request.jwt.claim.sub', true) as sub, current_setting('request.headers', true) as headers, current_setting('statement_timeout') as timeout, current_setting('transaction_read_only') as ro, $1::int as n, $2::text as t, $3::boolean as b, $4::text as z",
              [7, "a'b \\ $1", true, null],
            ),
          { headers, oneStatement: true },
        );
        expect(single.rows[0]).toEqual({ role: 'authenticated', sub: "u'9", headers, timeout: '8s', ro: 'off', n: 7, t: "a'b \\ $1", b: true, z: null });
        // Only real parameters become literals: not `$n` inside a quoted name, a string, a
        // dollar-quoted string or a comment, where a value could end the name or the comment.
        const breakout = 'a" b -- c\n; select 1 as z; --';
        const quoted = await stack.ctx.db.asRole(
          'anon',
          {},
          (tx) =>
            tx.query<Record<string, string>>(
              "select $1::text as \"$1 \"\"x\"\"\", '$2 it''s' as lit, E'\\' $2' as e, $$ $1 $$ as d, /* $2 */ $2::text as two -- $1\n",
              [breakout, "x'y"],
            ),
          { oneStatement: true },
        );
        expect(quoted.rows).toEqual([{ '$1 "x"': breakout, lit: "$2 it's", e: "' $2", d: ' $1 ', two: "x'y" }]);
        const aliased = await fetch(`${stack.url}/rest/v1/products?select=$1:id&id=eq.${encodeURIComponent(breakout)}`, {
          headers: { apikey: stack.config.anonKey },
        });
        expect(aliased.status).toBe(200);
        expect(await aliased.json()).toEqual([]);
        await expect(
          stack.ctx.db.asRole('anon', {}, (tx) => tx.query("insert into public.eco_escritos values ('solo lectura')"), { readOnly: true, oneStatement: true }),
        ).rejects.toThrow(/read-only/);
        const fallback = await stack.ctx.db.asRole('anon', {}, (tx) => tx.query<{ j: unknown }>('select $1::jsonb as j', [{ a: ["O'x"] }]), {
          oneStatement: true,
        });
        expect(fallback.rows[0]!.j).toEqual({ a: ["O'x"] });
        await expect(
          stack.ctx.db.asRole(
            'anon',
            {},
            async (tx) => {
              await tx.query("insert into public.eco_escritos values ('primera')");
              return tx.query('select 1');
            },
            { oneStatement: true },
          ),
        ).rejects.toThrow(/second statement/);
        // The first statement was its own transaction, committed before the second was refused.
        expect((await stack.ctx.db.admin((tx) => tx.query("select t from public.eco_escritos where t = 'primera'"))).rows).toHaveLength(1);
      } finally {
        await stack.stop();
      }
    } finally {
      server.kill('SIGINT');
      await new Promise((r) => server.on('exit', r));
    }
  }, 90_000);
});

describe('database layer (PGlite)', () => {
  it('runs each transaction as its role with its claims, serialised, and delivers NOTIFY', async () => {
    const db = await openPglite();
    try {
      await db.exec(`
        create role anon nologin; create role authenticated nologin; create role service_role nologin bypassrls;
        create table t (n int); grant select, insert on t to anon, authenticated, service_role;`);
      const seen = await Promise.all(
        Array.from({ length: 30 }, (_, i) => {
          const role: Role = (['anon', 'authenticated', 'service_role'] as const)[i % 3]!;
          return db.asRole(role, { sub: `user-${i}` }, async (tx) => {
            await tx.query('insert into t values ($1)', [i]);
            // Yield to the event loop: a leaking implementation would interleave here.
            await new Promise((r) => setTimeout(r, 1));
            const r = await tx.query<{ role: string; sub: string; claims: string; owner: string }>(
              "select current_user as role, current_setting('request.jwt.claim.sub', true) as sub, current_setting('request.jwt.claims', true) as claims, (select count(*) from t)::int as owner",
            );
            return { i, role, row: r.rows[0]! };
          });
        }),
      );
      for (const { i, role, row } of seen) {
        expect(row.role).toBe(role);
        expect(row.sub).toBe(`user-${i}`);
        expect(JSON.parse(row.claims)).toEqual({ sub: `user-${i}`, role });
      }
      // A failing transaction rolls back and leaves no role behind.
      await expect(
        db.asRole('anon', {}, async (tx) => {
          await tx.query('insert into t values (999)');
          throw new Error('falla');
        }),
      ).rejects.toThrow('falla');
      const after = await db.admin((tx) =>
        tx.query<{ n: number; who: string }>('select (select count(*) from t where n = 999)::int as n, current_user as who'),
      );
      expect(after.rows[0]).toEqual({ n: 0, who: 'postgres' });
      // Roles outside the three are refused before any SQL runs.
      await expect(db.asRole('postgres' as Role, {}, async () => 1)).rejects.toThrow();

      const heard: string[] = [];
      const unlisten = await db.listen('canal', (p) => heard.push(p));
      await db.admin((tx) => tx.query("select pg_notify('canal', 'uno')"));
      await waitFor(() => heard.length === 1, 5000, 'NOTIFY');
      await unlisten();
      await db.admin((tx) => tx.query("select pg_notify('canal', 'dos')"));
      await new Promise((r) => setTimeout(r, 100));
      expect(heard).toEqual(['uno']);
    } finally {
      await db.close();
    }
  }, 60_000);
});

describe('database templates', () => {
  /** A one-entry ustar archive. */
  function tarOf(name: string, body: string): Buffer {
    const header = Buffer.alloc(512);
    header.write(name, 0, 'utf8');
    header.write('0000644\0', 100);
    header.write(body.length.toString(8).padStart(11, '0') + '\0', 124);
    header.write('0', 156);
    header.write('ustar\0', 257);
    const content = Buffer.alloc(Math.ceil(body.length / 512) * 512);
    content.write(body);
    return Buffer.concat([header, content, Buffer.alloc(1024)]);
  }

  it('unpacks template archives inside the data folder only', () => {
    const dir = tempDir();
    extractTar(tarOf('/base/1/archivo', 'hola'), path.join(dir, 'db'));
    expect(fs.readFileSync(path.join(dir, 'db', 'base', '1', 'archivo'), 'utf8')).toBe('hola');
    expect(() => extractTar(tarOf('../../fuera', 'x'), path.join(dir, 'db'))).toThrow();
    expect(fs.existsSync(path.join(path.dirname(dir), 'fuera'))).toBe(false);
  });

  it('starts a fresh database from a template built on the first start', async () => {
    const templateDir = tempDir();
    const setupSql = 'create table plantilla (n int); insert into plantilla values (42);';
    const first = await startStack({ memory: true, migrate: false, setupSql, templateDir, dataDir: tempDir(), port: 0, host: '127.0.0.1', databaseUrl: '' });
    await first.stop();
    expect(first.timings.fromTemplate).toBe(false);
    expect(fs.readdirSync(templateDir).filter((f) => f.endsWith('.tar'))).toHaveLength(1);
    const second = await startStack({ migrate: false, setupSql, templateDir, dataDir: tempDir(), port: 0, host: '127.0.0.1', databaseUrl: '' });
    try {
      expect(second.timings.fromTemplate).toBe(true);
      const r = await second.ctx.db.admin((tx) => tx.query<{ n: number }>('select n from plantilla'));
      expect(r.rows).toEqual([{ n: 42 }]);
    } finally {
      await second.stop();
    }
  }, 90_000);

  it('a built database, and one started from its template, has the planner statistics of its rows', async () => {
    const templateDir = tempDir();
    // Offers of 2,000 products, five each: a page of 100 products' offers by id is what the live
    // stock of /explore reads (src/server/explore/live-changes.ts).
    const setupSql = `create table ofertas (id uuid primary key default gen_random_uuid(), producto int not null, n int not null);
      create index ofertas_producto on ofertas (producto, n);
      insert into ofertas (producto, n) select g % 2000, g % 5 from generate_series(1, 10000) g;`;
    const page = `explain select * from ofertas where producto in (${Array.from({ length: 100 }, (_, i) => i * 7).join(', ')}) order by id limit 1000`;
    const start = () => startStack({ memory: true, migrate: false, setupSql, templateDir, dataDir: tempDir(), port: 0, host: '127.0.0.1', databaseUrl: '' });
    for (const fromTemplate of [false, true]) {
      const stack = await start();
      try {
        expect(stack.timings.fromTemplate).toBe(fromTemplate);
        const stats = await stack.ctx.db.admin((tx) => tx.query<{ n: number }>(`select count(*)::int as n from pg_stats where tablename = 'ofertas'`));
        expect(stats.rows[0]!.n).toBeGreaterThan(0);
        const plan = await stack.ctx.db.admin((tx) => tx.query<{ 'QUERY PLAN': string }>(page));
        const lines = plan.rows.map((row) => row['QUERY PLAN']).join('\n');
        // The product index finds the 500 rows; not a walk of every row in primary key order.
        expect(lines).toContain('ofertas_producto');
        expect(lines).not.toContain('ofertas_pkey');
      } finally {
        await stack.stop();
      }
    }
  }, 90_000);
});
