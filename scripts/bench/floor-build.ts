/**
 * Builds the floor site (scripts/bench/floor/: FLOOR_PAGES one-template pages) with this project's
 * Astro into FLOOR_OUT_DIR, its cache beside it, so nothing is written into the source tree. The
 * site bench runs it in a process of its own and times it like the shop's build.
 *
 *   FLOOR_PAGES=10000 FLOOR_OUT_DIR=/tmp/floor npx tsx scripts/bench/floor-build.ts
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'astro';

process.env.ASTRO_TELEMETRY_DISABLED = '1';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), 'floor');
const outDir = path.resolve(process.env.FLOOR_OUT_DIR || path.join(root, '..', '..', '..', 'dist-floor'));

await build({
  root,
  outDir,
  cacheDir: path.join(outDir, '.cache'),
  output: 'static',
  logLevel: 'warn',
  // The shop builds four pages at once (astro.config.mjs); the floor does the same.
  build: { concurrency: 4 },
  vite: { cacheDir: path.join(outDir, '.vite') },
});
