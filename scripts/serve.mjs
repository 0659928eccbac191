// Serves a built shop (ASTRO_OUT_DIR or dist) at HOST/PORT with catalogue rebuilds: the Node
// adapter's standalone handler serves the static files from <outDir>/client, which this script
// turns into a symlink that a rebuild swaps atomically (src/server/rebuild/output.ts), and the
// answers are gzip-compressed (the adapter sends them uncompressed). The
// rebuild manager is registered on globalThis for POST /api/admin/rebuild, and a realtime
// subscription to product changes asks for a rebuild ~2 s after the last change.
// `npm start` runs this after building; `node scripts/serve.mjs` serves an existing build.
import { existsSync } from 'node:fs';
import http from 'node:http';
import compression from 'compression';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { tsImport } from 'tsx/esm/api';

// Through tsx, so the server also starts on a Node without built-in TypeScript support.
const { RebuildManager, registerRebuilds } = await tsImport('../src/server/rebuild/manager.ts', import.meta.url);
const { createBuilder, prepareOutput, stopBuilds } = await tsImport('../src/server/rebuild/output.ts', import.meta.url);
const { watchProducts } = await tsImport('../src/server/rebuild/realtime.ts', import.meta.url);

const root = fileURLToPath(new URL('..', import.meta.url));
const outDir = path.resolve(root, process.env.ASTRO_OUT_DIR || 'dist');
const entry = path.join(outDir, 'server', 'entry.mjs');
if (!existsSync(entry)) {
  console.error(`serve: ${entry} is missing; run \`npm run build\``);
  process.exit(1);
}

const log = (line) => console.log(line);
prepareOutput(outDir);

const manager = new RebuildManager(
  createBuilder({
    root,
    outDir,
    keepOldMs: Number(process.env.REBUILD_KEEP_OLD_MS || 60_000),
    log: process.env.REBUILD_QUIET === '1' ? undefined : (line) => log(`[rebuild] ${line}`),
  }),
);
registerRebuilds(manager);

const url = process.env.PUBLIC_SUPABASE_URL;
const serviceRoleKey = process.env.SUPABASE_SERVICE_ROLE_KEY;
let unwatch = null;
if (url && serviceRoleKey && process.env.REBUILD_ON_CHANGE !== '0') {
  unwatch = watchProducts({
    url,
    serviceRoleKey,
    debounceMs: Number(process.env.REBUILD_DEBOUNCE_MS || 2000),
    onChange: () => {
      const state = manager.request('realtime');
      log(`reconstrucción: productos cambiaron; estado ${state.status}`);
    },
    log,
  });
} else {
  log('reconstrucción: sin PUBLIC_SUPABASE_URL o SUPABASE_SERVICE_ROLE_KEY; solo a petición del administrador');
}

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    stopBuilds();
    void Promise.race([unwatch?.(), new Promise((r) => setTimeout(r, 500))]).finally(() => process.exit(0));
  });
}

// The adapter's own server would listen as soon as the entry is imported; this one wraps its
// handler instead, so responses can be compressed.
process.env.ASTRO_NODE_AUTOSTART = 'disabled';
const { handler, options } = await import(pathToFileURL(entry).href);
const compress = compression();
const host = process.env.HOST || (typeof options?.host === 'string' ? options.host : 'localhost');
const port = Number(process.env.PORT || options?.port || 4321);
const server = http.createServer((req, res) => {
  compress(req, res, () => handler(req, res));
});
server.on('error', (error) => {
  console.error(`serve: ${error.message}`);
  process.exit(1);
});
server.listen(port, host, () => {
  log(`serve: tienda en http://${host}:${port}/`);
  startSweeper();
});

/**
 * The payments sweeper: right after start (which also logs the payment mode) and then every
 * SWEEP_INTERVAL_MS (default one minute) this process asks its own POST /api/internal/sweep to
 * release expired reservations, cancel open provider payments of cancelled orders and retry
 * pending refunds (src/server/sweeper.ts). With several server processes a lease in the database
 * lets only one of them sweep at a time.
 */
function startSweeper() {
  const key = process.env.SUPABASE_SERVICE_ROLE_KEY;
  if (!key) return;
  const every = Math.max(1000, Number(process.env.SWEEP_INTERVAL_MS || 60_000));
  const target = `http://${host.includes(':') ? `[${host}]` : host}:${port}/api/internal/sweep`;
  const sweep = async () => {
    try {
      const res = await fetch(target, { method: 'POST', headers: { authorization: `Bearer ${key}` }, signal: AbortSignal.timeout(55_000) });
      if (!res.ok) log(`barrido: ${res.status} ${await res.text().catch(() => '')}`);
    } catch (error) {
      log(`barrido: ${error instanceof Error ? error.message : String(error)}`);
    }
  };
  void sweep();
  setInterval(sweep, every).unref();
}
