/**
 * The shop as several server processes behind nginx, on loopback only, for the two-server check
 * (tests/prod/cluster.test.ts) and the load run (`npm run load`): a throwaway PostgreSQL server,
 * the local Supabase-compatible stack on it, one build in an output folder all processes share,
 * `node scripts/serve.mjs` processes on their own ports, and Debian's nginx (started as a child
 * with its own configuration, pid and logs in a temp folder) balancing between them.
 */
import { execFile, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { startStack, type RunningStack } from 'local-supabase';
import { startPgServer, type PgServer } from '../../tests/db/pg-server.ts';
import { SHOP_STACK } from '../backend.ts';
import { freePort } from '../support/net.mjs';

const run = promisify(execFile);

/**
 * The stack's connections to PostgreSQL: two per core, PostgreSQL's usual sizing (LOCAL_SUPABASE_DB_POOL
 * in the environment wins). With PostgREST's default of 10 on two cores, ten backends took turns on
 * them in a drop's rush: the database's CPU in the rush was 1.1–3.0 s against 0.8–0.9 s with 4.
 */
const DB_POOL = Number(process.env.LOCAL_SUPABASE_DB_POOL) || 2 * os.availableParallelism();
export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** A free TCP port on 127.0.0.1 (the shared helper, re-exported for the load run and its tests). */
export { freePort } from '../support/net.mjs';

/** Where nginx is, or null. */
export function findNginx(): string | null {
  for (const candidate of ['/usr/sbin/nginx', '/usr/bin/nginx']) if (fs.existsSync(candidate)) return candidate;
  const which = spawnSync('sh', ['-c', 'command -v nginx'], { encoding: 'utf8' });
  return which.status === 0 && which.stdout.trim() ? which.stdout.trim() : null;
}

/** The database side: PostgreSQL server and the stack on it. */
export interface Backend {
  pg: PgServer;
  /** The in-process stack (startBackend); startBackendProcess runs it in a child process. */
  stack?: RunningStack;
  url: string;
  anonKey: string;
  serviceRoleKey: string;
  databaseUrl: string;
  stop(): Promise<void>;
}

/**
 * Starts a throwaway PostgreSQL server and the local stack on it (migrated and seeded).
 * @internal The load run starts its own in a process (startBackendProcess); the two-server check uses this one.
 */
export async function startBackend(siteUrl: string, dataDir: string): Promise<Backend> {
  const pg = await startPgServer();
  const databaseUrl = pg.socketUrl;
  try {
    const stack = await startStack({
      ...SHOP_STACK,
      port: 0,
      host: '127.0.0.1',
      dataDir,
      databaseUrl,
      dbPool: DB_POOL,
      siteUrl,
      autoconfirm: true,
      verbose: false,
    });
    return {
      pg,
      stack,
      url: stack.url,
      anonKey: stack.config.anonKey,
      serviceRoleKey: stack.config.serviceRoleKey,
      databaseUrl,
      async stop() {
        await stack.stop().catch(() => undefined);
        await pg.stop();
      },
    };
  } catch (error) {
    await pg.stop();
    throw error;
  }
}

/**
 * The same backend with the stack in a process of its own (`scripts/backend.ts`), so a load
 * generator in this process does not share its event loop. Auth rate limits are off: every
 * simulated shopper comes from 127.0.0.1.
 */
export async function startBackendProcess(siteUrl: string, dataDir: string): Promise<Backend & { child: ChildProcess }> {
  const pg = await startPgServer();
  const databaseUrl = pg.socketUrl;
  const port = await freePort();
  const output: string[] = [];
  const child = spawn(path.join(ROOT, 'node_modules', '.bin', 'tsx'), [path.join('scripts', 'backend.ts')], {
    cwd: ROOT,
    detached: true,
    env: {
      ...process.env,
      LOCAL_SUPABASE_HOST: '127.0.0.1',
      LOCAL_SUPABASE_PORT: String(port),
      LOCAL_SUPABASE_DATA_DIR: dataDir,
      LOCAL_SUPABASE_RATE_LIMITS: 'off',
      LOCAL_SUPABASE_AUTOCONFIRM: 'true',
      LOCAL_SUPABASE_CORS_ORIGINS: siteUrl,
      SITE_URL: siteUrl,
      DATABASE_URL: databaseUrl,
      LOCAL_SUPABASE_DB_POOL: String(DB_POOL),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (chunk) => output.push(String(chunk)));
  child.stderr!.on('data', (chunk) => output.push(String(chunk)));
  const url = `http://127.0.0.1:${port}`;
  const stopChild = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGTERM');
    const timer = setTimeout(() => {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // gone
      }
    }, 10_000);
    await exited;
    clearTimeout(timer);
  };
  try {
    const deadline = Date.now() + 120_000;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`the local stack exited (${child.exitCode}): ${output.join('')}`);
      const ok = await fetch(`${url}/rest/v1/`, { signal: AbortSignal.timeout(2000) }).then(
        (r) => r.status < 500,
        () => false,
      );
      if (ok) break;
      if (Date.now() > deadline) throw new Error(`the local stack did not answer: ${output.join('')}`);
      await new Promise((r) => setTimeout(r, 200));
    }
    const { LOCAL_JWT_SECRET } = await import('local-supabase/config');
    const { apiKeys } = await import('local-supabase/jwt');
    const keys = await apiKeys(LOCAL_JWT_SECRET);
    return {
      pg,
      child,
      url,
      anonKey: keys.anonKey,
      serviceRoleKey: keys.serviceRoleKey,
      databaseUrl,
      async stop() {
        await stopChild();
        await pg.stop();
      },
    };
  } catch (error) {
    await stopChild();
    await pg.stop();
    throw error;
  }
}

/** An output folder inside the project (the built server imports the project's packages). */
export function outputFolder(name: string): { relative: string; absolute: string; remove(): void } {
  const relative = path.join('node_modules', '.cache', `${name}-${process.pid}-${Date.now().toString(36)}`);
  const absolute = path.join(ROOT, relative);
  return {
    relative,
    absolute,
    remove() {
      for (const dir of [absolute, `${absolute}-rebuild`, path.join(ROOT, 'node_modules', `.astro-${relative.replace(/[^\w-]/g, '_')}`)]) {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

/** `astro build` and the server runtime into outDir (relative to the project), for siteUrl. */
export async function buildShop(outDir: string, backend: Backend, siteUrl: string): Promise<void> {
  const env = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? os.tmpdir(),
    PUBLIC_SUPABASE_URL: backend.url,
    PUBLIC_SUPABASE_ANON_KEY: backend.anonKey,
    SITE_URL: siteUrl,
    ASTRO_OUT_DIR: outDir,
    ASTRO_TELEMETRY_DISABLED: '1',
  };
  await run(process.execPath, [path.join('node_modules', 'astro', 'bin', 'astro.mjs'), 'build'], { cwd: ROOT, env, maxBuffer: 64 * 1024 * 1024 });
  await run(process.execPath, [path.join('scripts', 'build-server-runtime.mjs')], { cwd: ROOT, env, maxBuffer: 16 * 1024 * 1024 });
}

/** One `node scripts/serve.mjs` process. */
export interface Instance {
  name: string;
  port: number;
  url: string;
  child: ChildProcess;
  output: string[];
  /** Kills the process and everything it started (a crashed machine), at once. */
  kill(): void;
  /** SIGTERM, then waits for the exit. */
  stop(): Promise<void>;
}

/** Starts serve.mjs on port with outDir, waiting until it answers `/`. */
export async function startInstance(options: {
  name: string;
  port: number;
  outDir: string;
  backend: Backend;
  siteUrl: string;
  env?: Record<string, string>;
}): Promise<Instance> {
  const { name, port, backend } = options;
  const output: string[] = [];
  const child = spawn(process.execPath, [path.join('scripts', 'serve.mjs')], {
    cwd: ROOT,
    // Its own process group, so a kill takes its running build with it.
    detached: true,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? os.tmpdir(),
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: String(port),
      SITE_URL: options.siteUrl,
      ASTRO_OUT_DIR: options.outDir,
      ASTRO_TELEMETRY_DISABLED: '1',
      PUBLIC_SUPABASE_URL: backend.url,
      PUBLIC_SUPABASE_ANON_KEY: backend.anonKey,
      SUPABASE_SERVICE_ROLE_KEY: backend.serviceRoleKey,
      PAYMENTS_MODE: 'simulated',
      REBUILD_QUIET: '1',
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (chunk) => output.push(String(chunk)));
  child.stderr!.on('data', (chunk) => output.push(String(chunk)));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${name} exited (${child.exitCode}): ${output.join('')}`);
    const ok = await fetch(`${url}/`, { signal: AbortSignal.timeout(2000) }).then(
      (r) => r.status === 200,
      () => false,
    );
    if (ok) break;
    if (Date.now() > deadline) throw new Error(`${name} did not answer: ${output.join('')}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  const exited = new Promise<void>((resolve) => (child.exitCode !== null ? resolve() : child.once('exit', () => resolve())));
  const killGroup = () => {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      // already gone
    }
  };
  return {
    name,
    port,
    url,
    child,
    output,
    kill: killGroup,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        const timer = setTimeout(killGroup, 15_000);
        await exited;
        clearTimeout(timer);
      }
      // Whatever it started (a build) goes too.
      killGroup();
    },
  };
}

/** nginx in front of the instances. */
export interface Proxy {
  url: string;
  port: number;
  dir: string;
  child: ChildProcess;
  output: string[];
  stop(): Promise<void>;
}

/**
 * The nginx locations in front of the shop. `location /` passes everything to the upstreams;
 * with `cache`, pages and files that are the same for every visitor (all but /api/ and
 * /checkout/, and never an answer that sets a cookie) are kept for one second (a micro-cache):
 * under load each page is asked of the shop about once a second (in the background, while the
 * others get the kept copy) with the shop's own headers (security
 * headers, ETag, Vary: Accept-Encoding, one copy per encoding). After a rebuild the new page is
 * served within about a second. `X-Cache` says HIT, MISS, EXPIRED, UPDATING or nothing (not cached).
 */
export function nginxLocations(options: { cache: boolean }): string {
  const pass = `      proxy_pass http://shop;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $http_host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_set_header X-Forwarded-Proto $scheme;
      proxy_next_upstream error timeout http_502 http_503;
      proxy_connect_timeout 2s;
      proxy_read_timeout 60s;
      add_header X-Upstream $upstream_addr always;`;
  if (!options.cache) return `    location / {\n${pass}\n    }`;
  const cached = `${pass}
      proxy_cache pages;
      # The shop marks static pages 'max-age=0' (revalidate every time); here one second is enough.
      proxy_ignore_headers Cache-Control Expires;
      proxy_cache_valid 200 301 302 404 1s;
      # No proxy_cache_lock: nginx looks at the lock every 500 ms, so the shoppers queued behind
      # the first request for a page not kept yet waited half a second; the shop answers them all
      # in a few milliseconds instead.
      proxy_cache_use_stale updating error timeout http_502 http_503;
      proxy_cache_background_update on;
      proxy_cache_revalidate on;
      add_header X-Cache $upstream_cache_status always;`;
  return [`    location / {\n${cached}\n    }`, `    location /api/ {\n${pass}\n    }`, `    location /checkout/ {\n${pass}\n    }`].join('\n');
}

/**
 * Starts nginx (`nginx -p dir -c conf -g 'daemon off;'`) on 127.0.0.1:port, balancing between the
 * upstream ports (least connections; a refused or failed connection is retried on the next one),
 * with keep-alive connections to them and an `X-Upstream` header naming the one that answered;
 * `cache` adds the micro-cache of `nginxLocations`.
 */
export async function startNginx(options: { port: number; upstreams: number[]; dir: string; cache?: boolean }): Promise<Proxy> {
  const nginx = findNginx();
  if (!nginx) throw new Error('nginx is missing: apt-get install -y nginx');
  const { dir, port } = options;
  fs.mkdirSync(path.join(dir, 'logs'), { recursive: true });
  fs.mkdirSync(path.join(dir, 'temp'), { recursive: true });
  const asRoot = process.getuid?.() === 0;
  const conf = `# Written by scripts/load/cluster.ts for one run.
${asRoot ? 'user root;\n' : ''}worker_processes 1;
pid ${path.join(dir, 'nginx.pid')};
error_log ${path.join(dir, 'logs', 'error.log')} warn;
events { worker_connections 4096; }
http {
  access_log off;
  client_body_temp_path ${path.join(dir, 'temp', 'body')};
  proxy_temp_path ${path.join(dir, 'temp', 'proxy')};
  fastcgi_temp_path ${path.join(dir, 'temp', 'fastcgi')};
  uwsgi_temp_path ${path.join(dir, 'temp', 'uwsgi')};
  scgi_temp_path ${path.join(dir, 'temp', 'scgi')};
${options.cache ? `  proxy_cache_path ${path.join(dir, 'cache')} levels=1:2 keys_zone=pages:16m max_size=512m inactive=10m use_temp_path=off;\n` : ''}  upstream shop {
    least_conn;
${options.upstreams.map((p) => `    server 127.0.0.1:${p} max_fails=1 fail_timeout=5s;`).join('\n')}
    keepalive 64;
  }
  server {
    listen 127.0.0.1:${port};
${nginxLocations({ cache: Boolean(options.cache) })}
  }
}
`;
  const confFile = path.join(dir, 'nginx.conf');
  fs.writeFileSync(confFile, conf);
  const output: string[] = [];
  const child = spawn(nginx, ['-p', dir, '-e', path.join(dir, 'logs', 'error.log'), '-c', confFile, '-g', 'daemon off;'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (chunk) => output.push(String(chunk)));
  child.stderr!.on('data', (chunk) => output.push(String(chunk)));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 15_000;
  for (;;) {
    if (child.exitCode !== null) {
      const log = fs.existsSync(path.join(dir, 'logs', 'error.log')) ? fs.readFileSync(path.join(dir, 'logs', 'error.log'), 'utf8') : '';
      throw new Error(`nginx exited (${child.exitCode}): ${output.join('')} ${log}`);
    }
    const ok = await fetch(`${url}/`, { signal: AbortSignal.timeout(2000) }).then(
      (r) => r.status === 200,
      () => false,
    );
    if (ok) break;
    if (Date.now() > deadline) throw new Error(`nginx did not answer: ${output.join('')}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    port,
    dir,
    child,
    output,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      // QUIT: graceful stop of the master and its worker.
      child.kill('SIGQUIT');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    },
  };
}
