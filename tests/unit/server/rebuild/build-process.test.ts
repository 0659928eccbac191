/**
 * Spawning the build: its progress read from `astro build`'s output, the environment each build
 * process gets, and a build command that succeeds, reports and fails (a small Node script stands
 * in for `astro build`).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { astroBuildCommand, BUILD_SEMI_SPACE_MB, buildProcessEnv, readBuildLine, runBuild, withHeapLimit } from '~/server/rebuild/build-process.ts';
import type { BuildProgress } from '~/server/rebuild/types.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

describe('build progress from astro build output', () => {
  it('follows the phases and counts every prerendered file', () => {
    const lines = [
      '20:29:09 [@astrojs/node] Enabling sessions with filesystem storage',
      // After a change of the configuration or on a fresh clone: not bundling yet (the content
      // sync, which reads the catalogue, comes after it).
      '20:29:09 [vite] Re-optimizing dependencies because vite config has changed',
      '20:29:10 [content] Syncing content',
      '20:29:10 [build] Building server entrypoints...',
      '20:29:10 [vite] ✓ built in 421ms',
      ' prerendering static routes ',
      '20:29:11   ├─ /404.html (+21ms) ',
      '\x1b[2m20:29:11\x1b[22m   ├─ /account/index.html (+9ms) ',
      '20:29:11   └─ /explore/catalog.json (+4ms) ',
      // Several pages at once (build.concurrency): the time on a line of its own, not counted.
      '20:29:11   ├─ /product/a/index.html',
      ' (+215ms) ',
      '20:29:11   └─ /product/b/index.html',
      ' (+30ms) ',
      '20:29:12 ✓ Completed in 936ms.',
    ];
    let progress = { phase: 'starting' as const, pagesWritten: 0 } as ReturnType<typeof readBuildLine>;
    const phases: string[] = [];
    for (const line of lines) {
      progress = readBuildLine(line, progress);
      if (phases.at(-1) !== progress.phase) phases.push(progress.phase);
    }
    expect(phases).toEqual(['starting', 'content', 'bundling', 'pages']);
    expect(progress.pagesWritten).toBe(5);
  });
});

describe('heap limit of the build processes', () => {
  it('adds or replaces --max-old-space-size in NODE_OPTIONS, and leaves the rest', () => {
    expect(withHeapLimit({ NODE_OPTIONS: '--enable-source-maps --max-old-space-size=4096' }, 768).NODE_OPTIONS).toBe(
      '--enable-source-maps --max-old-space-size=768',
    );
    expect(withHeapLimit({}, 512.7).NODE_OPTIONS).toBe('--max-old-space-size=512');
    for (const none of [undefined, 0, -1, Number.NaN]) expect(withHeapLimit({ NODE_OPTIONS: '--x' }, none)).toEqual({ NODE_OPTIONS: '--x' });
  });

  it("lets each build process collect garbage on request, with a larger young generation, and return the native allocator's freed memory at once", () => {
    const env = buildProcessEnv({ NODE_OPTIONS: '--max-old-space-size=1024', PATH: '/bin' });
    expect(env.NODE_OPTIONS).toBe(`--max-old-space-size=1024 --expose-gc --max-semi-space-size=${BUILD_SEMI_SPACE_MB}`);
    expect(env.MIMALLOC_PURGE_DELAY).toBe('0');
    expect(env.MIMALLOC_ARENA_EAGER_COMMIT).toBe('0');
    expect(env.PATH).toBe('/bin');
    // Applied twice, nothing doubles; a value already set stays.
    expect(buildProcessEnv(env).NODE_OPTIONS).toBe(`--max-old-space-size=1024 --expose-gc --max-semi-space-size=${BUILD_SEMI_SPACE_MB}`);
    expect(buildProcessEnv({ NODE_OPTIONS: '--max-semi-space-size=8' }).NODE_OPTIONS).toBe('--max-semi-space-size=8 --expose-gc');
    expect(buildProcessEnv({ MIMALLOC_PURGE_DELAY: '10' }).MIMALLOC_PURGE_DELAY).toBe('10');
    expect(buildProcessEnv({ MIMALLOC_ARENA_EAGER_COMMIT: '1' }).MIMALLOC_ARENA_EAGER_COMMIT).toBe('1');
    expect(buildProcessEnv({}).NODE_OPTIONS).toBe(`--expose-gc --max-semi-space-size=${BUILD_SEMI_SPACE_MB}`);
  });
});

describe('runBuild', () => {
  it("runs the command in the project with ASTRO_OUT_DIR and the build's environment, reporting its pages", async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'build-process-'));
    dirs.push(root);
    const outDir = path.join(root, 'dist');
    const script = [
      "const fs = require('node:fs');",
      'fs.mkdirSync(process.env.ASTRO_OUT_DIR, { recursive: true });',
      "fs.writeFileSync(require('node:path').join(process.env.ASTRO_OUT_DIR, 'env.json'), JSON.stringify({ cwd: process.cwd(), options: process.env.NODE_OPTIONS }));",
      "console.log(' prerendering static routes ');",
      "console.log('20:29:11   ├─ /index.html (+2ms)');",
      "console.log('20:29:11   └─ /faq/index.html (+2ms)');",
    ].join('\n');
    const reports: BuildProgress[] = [];
    await runBuild({
      root,
      outDir,
      command: [process.execPath, '-e', script],
      env: { PATH: process.env.PATH },
      maxHeapMb: 256,
      report: (p) => reports.push(p),
    });
    const seen = JSON.parse(fs.readFileSync(path.join(outDir, 'env.json'), 'utf8')) as { cwd: string; options: string };
    expect(fs.realpathSync(seen.cwd)).toBe(fs.realpathSync(root));
    expect(seen.options).toBe(`--max-old-space-size=256 --expose-gc --max-semi-space-size=${BUILD_SEMI_SPACE_MB}`);
    expect(reports[0]).toEqual({ phase: 'starting', pagesWritten: 0 });
    expect(reports.at(-1)).toEqual({ phase: 'pages', pagesWritten: 2 });
  });

  it('rejects with the last lines of the output when the command fails', async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'build-process-'));
    dirs.push(root);
    const script = "console.error('[build] algo salió mal'); process.exit(3);";
    await expect(
      runBuild({ root, outDir: path.join(root, 'dist'), command: [process.execPath, '-e', script], env: { PATH: process.env.PATH } }),
    ).rejects.toThrow(/algo salió mal/);
  });

  it("runs this Node with the project's astro by default", () => {
    expect(astroBuildCommand('/proyecto')).toEqual([process.execPath, path.join('/proyecto', 'node_modules', 'astro', 'bin', 'astro.mjs'), 'build']);
  });
});
