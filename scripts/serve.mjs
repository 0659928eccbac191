// The production server: `npm run build && npm run serve` (or `npm start`, which builds and runs
// this). Serves a built shop (ASTRO_OUT_DIR or dist) at HOST/PORT with plain `node` and production
// dependencies only: the Node adapter's handler answers static files from <outDir>/client and the
// SSR pages and API; this wrapper adds gzip/brotli compression (the adapter sends answers
// uncompressed), the security headers on every answer, and catalogue rebuilds. <outDir>/client is
// a symlink that a rebuild swaps atomically (src/server/rebuild/served-folder.ts), resolved again by every
// request; the rebuild jobs live in the database (src/server/rebuild/job-queue.ts), so several
// processes can serve one output folder behind a reverse proxy: any of them may ask for a rebuild,
// one at a time builds (the others look for queued or abandoned jobs every REBUILD_POLL_MS), and
// all serve what it publishes. The shared rebuilds are registered on globalThis for
// POST /api/admin/rebuild, and a realtime subscription to product changes asks for a rebuild of
// the changed products ~2 s after the last change (each change counts once across processes).
// The TypeScript parts come compiled in <outDir>/server/runtime.mjs
// (scripts/build-server-runtime.mjs, run by `npm run build`).
// SIGTERM or SIGINT stops accepting connections, lets answers in progress finish (up to 10 s),
// stops a running rebuild and exits 0.
import { existsSync } from 'node:fs';
import http from 'node:http';
import { hostname } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';
import compression from 'compression';

// What the shop cannot run without; payment keys are optional (a provider without keys is
// unavailable, and the payments module says so in the log through the first sweep).
const REQUIRED = ['PUBLIC_SUPABASE_URL', 'PUBLIC_SUPABASE_ANON_KEY', 'SUPABASE_SERVICE_ROLE_KEY', 'SITE_URL'];
const missing = REQUIRED.filter((name) => !process.env[name]?.trim());
if (missing.length > 0) {
  fail(`missing required environment variable${missing.length > 1 ? 's' : ''} ${missing.join(', ')} (see .env.example)`);
}
for (const name of ['PUBLIC_SUPABASE_URL', 'SITE_URL']) {
  if (!/^https?:\/\/[^/\s]+/.test(process.env[name] ?? '') || !URL.canParse(process.env[name] ?? '')) {
    fail(`${name} must be an http(s) URL, got "${process.env[name]}"`);
  }
}

// A production server: libraries that read NODE_ENV when they load run their production builds
// (React's server renderer, unset, loads its development build, with its checks and warnings).
process.env.NODE_ENV ||= 'production';

const root = fileURLToPath(new URL('..', import.meta.url));
const outDir = path.resolve(root, process.env.ASTRO_OUT_DIR || 'dist');
const entry = path.join(outDir, 'server', 'entry.mjs');
const runtimeFile = path.join(outDir, 'server', 'runtime.mjs');
for (const file of [entry, runtimeFile]) {
  if (!existsSync(file)) fail(`${file} is missing; run \`npm run build\``);
}

const {
  SharedRebuilds,
  supabaseJobStore,
  registerRebuilds,
  createBuilder,
  prepareOutput,
  countPages,
  stopBuilds,
  watchProducts,
  applySecurityHeaders,
  DocumentCompression,
  rewriteServedPage,
  serverFastEditor,
  renderWarmUpPaths,
} = await import(pathToFileURL(runtimeFile).href);
const { createClient } = await import('@supabase/supabase-js');

const log = (line) => console.log(line);
prepareOutput(outDir);

const url = process.env.PUBLIC_SUPABASE_URL;
const serviceRoleKey = process.env.SUPABASE_SERVICE_ROLE_KEY;
// This process's name in the jobs table and the sweeper's lease (as src/pages/api/internal/sweep.ts
// names it), and the processes it shares rebuilds with: those that serve the same site from the
// same output folder.
const holder = `${hostname()}-${process.pid}`;
const site = `${new URL(process.env.SITE_URL).origin} ${outDir}`;
const leaseSeconds = Math.max(3, Number(process.env.REBUILD_LEASE_SECONDS || 30));
/** This server's own address once it listens (its catalogue edits are rendered through it). */
let listeningAt = null;
const jobsClient = createClient(url, serviceRoleKey, { auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false } });
// An edit's pages rendered by this server itself when it can (src/server/rebuild/fast-edit.ts);
// REBUILD_FAST_EDIT=0 leaves every edit to a build.
const fastEdit = process.env.REBUILD_FAST_EDIT === '0' ? undefined : serverFastEditor({ outDir, origin: () => listeningAt, serviceRoleKey });
const rebuilds = new SharedRebuilds(
  supabaseJobStore(jobsClient, site),
  createBuilder({
    root,
    outDir,
    keepOldMs: Number(process.env.REBUILD_KEEP_OLD_MS || 60_000),
    // Full rebuilds of a large catalogue in that many processes at once (docs/benchmarks-log.md).
    parts: Number(process.env.BUILD_PARTS || 1),
    maxHeapMb: Number(process.env.BUILD_MAX_HEAP_MB || 0),
    fastEdit,
    log: process.env.REBUILD_QUIET === '1' ? undefined : (line) => log(`[rebuild] ${line}`),
  }),
  {
    holder,
    leaseSeconds,
    // Several heartbeats fit in one lease, so a slow answer or two do not lose it.
    heartbeatMs: Math.min(2000, Math.round((leaseSeconds * 1000) / 4)),
    pollMs: Math.max(200, Number(process.env.REBUILD_POLL_MS || 2000)),
    // REBUILD_WORKER=0: this process serves and asks for rebuilds, the others build.
    builds: process.env.REBUILD_WORKER !== '0',
    // The first rebuild's progress is measured against the build being served.
    expectedPages: countPages(outDir),
    // Another process took the job over (this one stalled past its lease): stop building it.
    onLostClaim: () => stopBuilds(),
    log,
  },
);
registerRebuilds(rebuilds);
rebuilds.start();

let unwatch = null;
if (process.env.REBUILD_ON_CHANGE !== '0') {
  unwatch = watchProducts({
    url,
    serviceRoleKey,
    debounceMs: Number(process.env.REBUILD_DEBOUNCE_MS || 2000),
    onChange: (changes) => {
      // A change without a product id or a commit time asks for a full build and counts alone.
      const complete = changes.every((c) => c.productId && c.key);
      const productIds = complete ? changes.map((c) => c.productId) : null;
      const keys = complete ? changes.map((c) => c.key) : null;
      rebuilds.request('realtime', { productIds, keys }).then(
        (state) => {
          const what = productIds ? `${new Set(productIds).size} producto(s)` : 'todo el catálogo';
          log(`reconstrucción: productos cambiaron (${what}); ${state.deduplicated ? 'otro servidor ya la pidió' : `estado ${state.status}`}`);
        },
        (error) => log(`reconstrucción: no se pudo pedir (${error instanceof Error ? error.message : String(error)})`),
      );
    },
    log,
  });
} else {
  log('reconstrucción: REBUILD_ON_CHANGE=0; solo a petición del administrador');
}

// The adapter's own server would listen as soon as the entry is imported; this one wraps its
// handler instead, so answers can be compressed and carry the security headers.
process.env.ASTRO_NODE_AUTOSTART = 'disabled';
// The server's /explore reads the catalogue this output folder serves (src/server/explore/catalog.ts).
process.env.SHOP_OUT_DIR = outDir;
const { handler, options } = await import(pathToFileURL(entry).href);
// The compression package negotiates brotli (preferred when accepted), then gzip/deflate, and
// skips types that are already compressed (images, fonts, archives) and tiny bodies.
const compress = compression();
// Pages asked for again go out as a copy compressed once at brotli's best quality
// (src/server/document-compression.ts).
const documents = new DocumentCompression();
const security = {
  siteUrl: process.env.SITE_URL,
  supabaseUrl: url,
  // A product page's scripts are asked for once its first image is on screen (src/server/late-scripts.ts).
  rewriteHtml: (req, page) => rewriteServedPage(req.url, page),
  finishHtml: (req, res, page) => documents.finish(req, res, page),
};
const host = process.env.HOST || (typeof options?.host === 'string' ? options.host : 'localhost');
const port = Number(process.env.PORT || options?.port || 4321);
let stopping = false;
const server = http.createServer((req, res) => {
  // While draining, a keep-alive connection is closed as soon as its answer is done, rather than
  // after the keep-alive timeout.
  if (stopping) res.setHeader('Connection', 'close');
  res.once('finish', () => {
    if (stopping) server.closeIdleConnections();
  });
  compress(req, res, () => {
    // After compress, so the headers module sees the uncompressed HTML it hashes.
    applySecurityHeaders(req, res, security);
    handler(req, res);
  });
});
server.on('error', (error) => {
  fail(error.message);
});
server.listen(port, host, () => {
  const origin = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  listeningAt = origin;
  // The served catalogue, read now (when this process builds) rather than on the first edit.
  if (fastEdit && process.env.REBUILD_WORKER !== '0') fastEdit.warm().catch(() => {});
  log(`serve: tienda en ${origin}/ (lista en ${Math.round(performance.now())} ms)`);
  startSweeper();
  // /explore's catalogue is read and its columns made by its first search, and the unfiltered
  // page rendered and kept, then asked for again so its best-compressed copy is made: here, not
  // for a shopper.
  const explore = () => fetch(`${origin}/explore`, { headers: { 'accept-encoding': 'br' } }).then((response) => response.arrayBuffer());
  fetch(`${origin}/explore/resultados`)
    .then((response) => response.arrayBuffer())
    .then(explore)
    .then(explore)
    .then(() => warmRenders(origin))
    .then(() => documents.settled())
    .then(() => log(`serve: catálogo de /explore listo en ${Math.round(performance.now())} ms`))
    .catch((error) => log(`serve: no se pudo preparar /explore (${error instanceof Error ? error.message : String(error)}); se prepara con la primera visita`));
});

/**
 * Asks this server for each address of renderWarmUpPaths one after another (its render's code
 * compiled before shoppers come); stops at the first failure (the page reports its own to the
 * shoppers who ask).
 * @param {string} origin
 */
async function warmRenders(origin) {
  for (const address of renderWarmUpPaths()) {
    const response = await fetch(`${origin}${address}`);
    await response.arrayBuffer();
    if (!response.ok) throw new Error(`${address}: HTTP ${response.status}`);
  }
}

const DRAIN_MS = 10_000;
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => shutdown(signal));
}

/**
 * Stops accepting connections, waits for answers in progress (at most DRAIN_MS, then closes
 * what is left), stops a running rebuild and the product watcher, and exits 0.
 * @param {string} signal
 */
function shutdown(signal) {
  if (stopping) return;
  stopping = true;
  log(`serve: ${signal}; terminando las peticiones en curso (máximo ${DRAIN_MS / 1000} s)`);
  // A build stopped here is built again by another process once its lease runs out.
  rebuilds.stop();
  stopBuilds();
  let finished = false;
  const finish = async () => {
    if (finished) return;
    finished = true;
    clearTimeout(force);
    await Promise.race([
      Promise.all([
        Promise.resolve(unwatch?.()).catch(() => {}),
        // The sweeper's lease goes back, so another process sweeps next without waiting for it to run out.
        Promise.resolve(jobsClient.rpc('end_sweep', { p_holder: holder })).catch(() => {}),
      ]),
      new Promise((r) => setTimeout(r, 500)),
    ]);
    process.exit(0);
  };
  const force = setTimeout(() => {
    log('serve: quedaban peticiones después de 10 s; se cierran sus conexiones');
    server.closeAllConnections();
    void finish();
  }, DRAIN_MS);
  server.close(() => void finish());
  server.closeIdleConnections();
}

/**
 * Prints one line on stderr and exits 1 (a start-up problem the operator must fix).
 * @param {string} message
 * @returns {never}
 */
function fail(message) {
  process.stderr.write(`serve: ${message}\n`);
  process.exit(1);
}

/**
 * The payments sweeper: right after start (which also logs the payment mode) and then every
 * SWEEP_INTERVAL_MS (default one minute) this process asks its own POST /api/internal/sweep to
 * release expired reservations, cancel open provider payments of cancelled orders and retry
 * pending refunds (src/server/sweeper.ts). With several server processes a lease in the database
 * makes one of them the sweeper: it keeps the lease while it runs (each sweep renews it for about
 * two intervals), the others' sweeps do nothing, and another takes over once a stopped sweeper's
 * lease runs out.
 */
function startSweeper() {
  const key = process.env.SUPABASE_SERVICE_ROLE_KEY;
  if (!key) return;
  const every = Math.max(1000, Number(process.env.SWEEP_INTERVAL_MS || 60_000));
  const target = `http://${host.includes(':') ? `[${host}]` : host}:${port}/api/internal/sweep`;
  const sweep = async () => {
    try {
      // A JSON body, like every API call of the shop: Astro refuses body-less cross-site POSTs.
      const res = await fetch(target, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: '{}',
        signal: AbortSignal.timeout(55_000),
      });
      if (!res.ok) log(`barrido: ${res.status} ${await res.text().catch(() => '')}`);
    } catch (error) {
      log(`barrido: ${error instanceof Error ? error.message : String(error)}`);
    }
  };
  void sweep();
  setInterval(sweep, every).unref();
}
