// `npm start`: starts the local Supabase-compatible stack when no hosted project is configured,
// builds the site as `npm run build` does (BUILD_PARTS included) and serves it with the Node
// adapter. HOST (default localhost) and PORT (default 4321) choose where the shop listens. Ctrl-C
// stops everything it started.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

// Values already in the environment win over .env, as with `node --env-file`.
const envFile = path.join(root, '.env');
if (existsSync(envFile)) process.loadEnvFile(envFile);
// `KEY=` lines in .env mean "not set"; an empty string would fail the URL checks of astro:env.
for (const [key, value] of Object.entries(process.env)) {
  if (value === '') delete process.env[key];
}

const host = process.env.HOST || 'localhost';
const port = process.env.PORT || '4321';
// The production server refuses to start without SITE_URL; locally it is where this serves.
process.env.SITE_URL ||= `http://${host}:${port}`;

/** @type {import('node:child_process').ChildProcess[]} */
const children = [];
let stopping = false;

/**
 * Runs a command to completion with inherited output; rejects when it fails.
 * @param {string[]} args arguments for the current Node binary
 */
function run(args) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: root, stdio: 'inherit', env: process.env });
    children.push(child);
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      children.splice(children.indexOf(child), 1);
      if (code === 0) resolve(undefined);
      else reject(new Error(`${args.join(' ')} exited with ${signal ?? code}`));
    });
  });
}

/**
 * True when url answers 200 within a second.
 * @param {string} url
 */
async function answers(url) {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(1000) });
    return res.status === 200;
  } catch {
    return false;
  }
}

/**
 * Fills in the local stack's public anon key and service key unless they are already set.
 * They are deterministic (signed with the local JWT secret), so they can be derived here.
 */
async function exportLocalKeys() {
  if (process.env.PUBLIC_SUPABASE_ANON_KEY && process.env.SUPABASE_SERVICE_ROLE_KEY) return;
  try {
    const { tsImport } = await import('tsx/esm/api');
    const config = await tsImport('local-supabase/config', import.meta.url);
    const jwt = await tsImport('local-supabase/jwt', import.meta.url);
    const secret = process.env.SUPABASE_JWT_SECRET || config.LOCAL_JWT_SECRET;
    const keys = await jwt.apiKeys(secret);
    process.env.SUPABASE_JWT_SECRET ||= secret;
    process.env.PUBLIC_SUPABASE_ANON_KEY ||= keys.anonKey;
    process.env.SUPABASE_SERVICE_ROLE_KEY ||= keys.serviceRoleKey;
  } catch (error) {
    console.warn(`start: could not derive the local Supabase keys (${String(error)}); set them in .env`);
  }
}

/**
 * Starts the local Supabase-compatible stack (packages/local-supabase, through scripts/backend.ts) when PUBLIC_SUPABASE_URL
 * is not set, waits for its /health to answer 200, and points the shop at it. Does nothing when
 * a hosted project is configured or the stack is not part of this checkout.
 */
async function startBackendIfNeeded() {
  const entry = path.join(root, 'scripts', 'backend.ts');
  if (process.env.PUBLIC_SUPABASE_URL || !existsSync(entry)) return;

  const stackPort = process.env.LOCAL_SUPABASE_PORT || '54321';
  const url = `http://127.0.0.1:${stackPort}`;
  process.env.LOCAL_SUPABASE_PORT = stackPort;

  if (await answers(`${url}/health`)) {
    console.log(`start: reusing the local Supabase stack already answering on ${url}`);
  } else {
    // START_BACKEND_RESET=1 starts from an empty, freshly seeded database (the e2e tests use it).
    const args = process.env.START_BACKEND_RESET === '1' ? ['--reset'] : [];
    const stack = spawn(process.execPath, ['--import', 'tsx', entry, ...args], {
      cwd: root,
      stdio: 'inherit',
      env: process.env,
    });
    children.push(stack);
    let exited = false;
    stack.on('exit', (code, signal) => {
      exited = true;
      if (!stopping) {
        console.error(`start: the local Supabase stack stopped (${signal ?? code})`);
        shutdown(1);
      }
    });
    const deadline = Date.now() + 90_000;
    while (!(await answers(`${url}/health`))) {
      if (exited) throw new Error('the local Supabase stack exited before it was ready');
      if (Date.now() > deadline) throw new Error(`the local Supabase stack did not answer on ${url}/health`);
      await new Promise((r) => setTimeout(r, 250));
    }
    console.log(`start: local Supabase stack ready on ${url}`);
  }
  process.env.PUBLIC_SUPABASE_URL = url;
  // The embedded stack pays with the simulated provider unless PAYMENTS_MODE says otherwise.
  process.env.PAYMENTS_MODE ||= 'simulated';
  await exportLocalKeys();
}

/**
 * Stops every child this script started, then exits.
 * @param {number} code
 */
function shutdown(code) {
  if (stopping) return;
  stopping = true;
  for (const child of children) child.kill('SIGTERM');
  // serve.mjs lets answers in progress finish for up to 10 s before it exits on its own.
  const force = setTimeout(() => {
    for (const child of children) child.kill('SIGKILL');
    process.exit(code);
  }, 12_000);
  force.unref();
  const waitAll = children.map((c) => new Promise((r) => (c.exitCode !== null || c.signalCode !== null ? r(undefined) : c.once('exit', r))));
  Promise.all(waitAll).then(() => process.exit(code));
}

process.on('SIGINT', () => shutdown(130));
process.on('SIGTERM', () => shutdown(143));

try {
  await startBackendIfNeeded();
  // Always build: it takes seconds and guarantees the served pages match the sources and the env.
  // The same build as `npm run build` (scripts/build.ts: one `astro build`, or BUILD_PARTS of them
  // merged into one output folder, with BUILD_MAX_HEAP_MB), then the server runtime below.
  if (!process.env.START_SKIP_BUILD) {
    await run(['--import', 'tsx', path.join(root, 'scripts', 'build.ts')]);
  }
  // ASTRO_OUT_DIR lets two builds (e.g. parallel test runs) live side by side; see astro.config.mjs.
  const outDir = path.resolve(root, process.env.ASTRO_OUT_DIR || 'dist');
  const entry = path.join(outDir, 'server', 'entry.mjs');
  if (!existsSync(entry)) throw new Error(`${entry} is missing; run \`npm run build\``);
  // The compiled rebuild and security-header code serve.mjs loads (what `npm run build` adds
  // after `astro build`); also for a START_SKIP_BUILD of a build made without it.
  if (!process.env.START_SKIP_BUILD || !existsSync(path.join(outDir, 'server', 'runtime.mjs'))) {
    await run([path.join(root, 'scripts', 'build-server-runtime.mjs')]);
  }
  if (stopping) process.exit(130);

  // serve.mjs runs the adapter's server and adds catalogue rebuilds (POST /api/admin/rebuild).
  const server = spawn(process.execPath, [path.join(root, 'scripts', 'serve.mjs')], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, HOST: host, PORT: port },
  });
  children.push(server);
  console.log(`start: shop on http://${host}:${port}/ (pagos: modo ${process.env.PAYMENTS_MODE || 'según PUBLIC_SUPABASE_URL'})`);
  server.on('exit', (code, signal) => {
    if (!stopping) shutdown(code ?? (signal ? 1 : 0));
  });
} catch (error) {
  console.error(`start: ${error instanceof Error ? error.message : String(error)}`);
  shutdown(1);
}
