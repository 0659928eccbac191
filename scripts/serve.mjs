// Serves a built shop (ASTRO_OUT_DIR or dist) at HOST/PORT with catalogue rebuilds: the Node
// adapter's standalone server serves the static files from <outDir>/client, which this script
// turns into a symlink that a rebuild swaps atomically (src/server/rebuild/output.ts). The
// rebuild manager is registered on globalThis for POST /api/admin/rebuild, and a realtime
// subscription to product changes asks for a rebuild ~2 s after the last change.
// `npm start` runs this after building; `node scripts/serve.mjs` serves an existing build.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { RebuildManager, registerRebuilds } from '../src/server/rebuild/manager.ts';
import { createBuilder, prepareOutput, stopBuilds } from '../src/server/rebuild/output.ts';
import { watchProducts } from '../src/server/rebuild/realtime.ts';

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

// The adapter starts listening on HOST/PORT as soon as the entry is imported.
await import(pathToFileURL(entry).href);
