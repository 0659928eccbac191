/**
 * Builds the floor site (scripts/bench/floor/: FLOOR_PAGES one-template pages) with this project's
 * Astro into FLOOR_OUT_DIR. The fixture is built from a copy under node_modules/ (where this
 * project's packages resolve, and which no linter or type check reads), since Astro writes its
 * generated types into the root it builds; the copy and the caches go when the build ends. The
 * site bench runs it in a process of its own and times it like the shop's build.
 *
 *   FLOOR_PAGES=10000 FLOOR_OUT_DIR=/tmp/floor npx tsx scripts/bench/floor-build.ts
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'astro';

process.env.ASTRO_TELEMETRY_DISABLED = '1';

const fixture = path.join(path.dirname(fileURLToPath(import.meta.url)), 'floor');
const project = path.resolve(fixture, '..', '..', '..');
const root = path.join(project, 'node_modules', `.bench-floor-${process.pid}`);
const outDir = path.resolve(process.env.FLOOR_OUT_DIR || path.join(project, 'dist-floor'));

fs.rmSync(root, { recursive: true, force: true });
fs.cpSync(path.join(fixture, 'src'), path.join(root, 'src'), { recursive: true });
try {
  await build({
    root,
    outDir,
    cacheDir: path.join(root, '.cache'),
    output: 'static',
    logLevel: 'warn',
    // The shop builds four pages at once (astro.config.mjs); the floor does the same.
    build: { concurrency: 4 },
    vite: { cacheDir: path.join(root, '.vite') },
  });
} finally {
  fs.rmSync(root, { recursive: true, force: true });
}
