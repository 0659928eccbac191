/**
 * `npm run build`'s site build: `astro build` into ASTRO_OUT_DIR (default dist), or with
 * BUILD_PARTS=n (for large catalogues, one per core) n of them at once, each rendering its share
 * of the product pages, merged into one output folder (src/server/rebuild/parts.ts).
 * BUILD_MAX_HEAP_MB limits each build process's heap (Node's --max-old-space-size).
 * BUILD_NODE_ARGS='--cpu-prof --cpu-prof-dir=DIR' gives each build process more Node and V8
 * options (those NODE_OPTIONS refuses: a CPU profile per process, --trace-gc, …).
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { astroBuildCommand, runBuild } from '~/server/rebuild/build-process.ts';
import { SERVER_CODE_KEY_FILE, sourceCodeKey } from '~/server/rebuild/builder.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const outDir = path.resolve(root, process.env.ASTRO_OUT_DIR || 'dist');
const parts = Number(process.env.BUILD_PARTS || 1);
const maxHeapMb = Number(process.env.BUILD_MAX_HEAP_MB || 0);
const nodeArgs = (process.env.BUILD_NODE_ARGS ?? '').split(/\s+/).filter(Boolean);
const [node, ...astro] = astroBuildCommand(root);
if (!Number.isInteger(parts) || parts < 1) {
  console.error(`BUILD_PARTS must be a whole number of at least 1, got "${process.env.BUILD_PARTS}"`);
  process.exit(1);
}
try {
  // The code the server bundle is made from, read before the build so that an edit made while it
  // runs is not taken for built: the running server renders catalogue edits itself only into a
  // served build made from the same code (src/server/rebuild/fast-edit.ts).
  const key = sourceCodeKey(root);
  await runBuild({ root, outDir, parts, maxHeapMb, command: [node!, ...nodeArgs, ...astro], log: (line) => console.log(line) });
  fs.writeFileSync(path.join(outDir, SERVER_CODE_KEY_FILE), key);
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
}
