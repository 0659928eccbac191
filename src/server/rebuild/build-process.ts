/**
 * Spawning `astro build`: one process, or with `parts` > 1 that many at once (parts.ts), each
 * with its heap limit and the environment that lets it give memory back; its output read for
 * the build's progress; the builds still running stopped when the server stops.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { API_REBUILD_BUILD_OPERATOR_TEXT } from '~/i18n/api.ts';
import { mergePart, partEnv, partOutDir } from './parts.ts';
import { updateSitemap } from './sitemap.ts';
import type { BuildProgress, ProgressReporter } from './types.ts';

/**
 * Reads one line of `astro build` output: its phase markers and the "├─ /path" line of every
 * prerendered file. Returns the progress after the line.
 */
export function readBuildLine(line: string, current: BuildProgress): BuildProgress {
  // eslint-disable-next-line no-control-regex -- strips the ANSI colour codes astro prints (ESC is \x1b)
  const plain = line.replace(/\x1b\[[0-9;]*m/g, '');
  // One line per file: '├─ /path (+3ms)', or with several pages rendered at once (Astro's
  // build.concurrency) '├─ /path' and its time on a line of its own.
  if (/[├└]─ \/\S+/.test(plain)) return { phase: 'pages', pagesWritten: current.pagesWritten + 1 };
  if (/prerendering static routes|generating static routes/i.test(plain)) return { ...current, phase: 'pages' };
  if (/\[build\] Building (server|client)/.test(plain) && current.phase !== 'pages') return { ...current, phase: 'bundling' };
  // A [vite] line before the content sync ('Re-optimizing dependencies because vite config has
  // changed', after a change of the configuration or on a fresh clone) is not bundling: taken for
  // it, the other parts of a build in parts started before part 0 had read the catalogue, and
  // each read it from the backend again instead of using part 0's copy.
  if (/\[vite\]/.test(plain) && (current.phase === 'content' || current.phase === 'bundling')) return { ...current, phase: 'bundling' };
  if (/\[content\]|\[catalog-snapshot/.test(plain) && current.phase === 'starting') return { ...current, phase: 'content' };
  return current;
}

const runningBuilds = new Set<import('node:child_process').ChildProcess>();

/** Stops builds still running (server shutdown), so no orphaned `astro build` outlives it. */
export function stopBuilds(): void {
  for (const child of runningBuilds) child.kill('SIGTERM');
}

/** Runs the build command; rejects with the last lines of its output when it fails. */
function runCommand(command: string[], cwd: string, env: NodeJS.ProcessEnv, log?: (line: string) => void, report?: ProgressReporter): Promise<void> {
  let progress: BuildProgress = { phase: 'starting', pagesWritten: 0 };
  report?.(progress);
  return new Promise((resolve, reject) => {
    const [bin, ...args] = command;
    const child = spawn(bin!, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    runningBuilds.add(child);
    const tail: string[] = [];
    const collect = (chunk: Buffer) => {
      for (const line of chunk.toString('utf8').split('\n')) {
        if (!line.trim()) continue;
        log?.(line);
        const next = readBuildLine(line, progress);
        if (next !== progress) {
          progress = next;
          report?.(progress);
        }
        tail.push(line);
        if (tail.length > 20) tail.shift();
      }
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    child.on('error', (error) => reject(new Error(API_REBUILD_BUILD_OPERATOR_TEXT.startFailed(error.message))));
    child.on('exit', (code, signal) => {
      runningBuilds.delete(child);
      if (code === 0) resolve();
      else {
        // ANSI colours make the message unreadable in JSON.
        // eslint-disable-next-line no-control-regex -- the ESC of the ANSI colour codes
        const output = tail.join('\n').replace(/\x1b\[[0-9;]*m/g, '');
        reject(new Error(`${API_REBUILD_BUILD_OPERATOR_TEXT.failed(signal ?? API_REBUILD_BUILD_OPERATOR_TEXT.exitCode(code))}\n${output}`.trim()));
      }
    });
  });
}

/** What `runBuild` needs: the project, where to build, and how. */
export interface BuildRun {
  root: string;
  /** Absolute output folder (inside the project, so the build finds node_modules). */
  outDir: string;
  /** The command that builds into $ASTRO_OUT_DIR (default: this Node running `astro build`). */
  command?: string[];
  env?: NodeJS.ProcessEnv;
  /** Processes to render a full build in (default 1: one `astro build`). */
  parts?: number;
  /**
   * Old-generation heap limit of each build process in MB (Node's --max-old-space-size); default
   * Node's own, which on a machine with plenty of memory lets garbage pile up to several GB.
   */
  maxHeapMb?: number;
  log?: (line: string) => void;
  report?: ProgressReporter;
}

/** The environment with Node's heap limit added to NODE_OPTIONS (none when mb is not a positive number). */
export function withHeapLimit(env: NodeJS.ProcessEnv, mb: number | undefined): NodeJS.ProcessEnv {
  if (!mb || !Number.isFinite(mb) || mb <= 0) return env;
  const options = (env.NODE_OPTIONS ?? '').replace(/--max-old-space-size=\S+/g, '').trim();
  return { ...env, NODE_OPTIONS: `${options} --max-old-space-size=${Math.floor(mb)}`.trim() };
}

/**
 * The young generation's semi-space of a build process, in MB (Node's --max-semi-space-size; V8's
 * own limit is 16 MB). A page's render makes tens of kilobytes of short-lived strings and
 * elements; with room for more of them, fewer survive into the old generation, whose collections
 * walk the whole catalogue the process holds. 10,000 products, three paired builds
 * (`BENCH_BUILD_ONLY=1`, 2026-12-05): 30.7 s against 33.4 s (medians), 0.82 GB against 0.78 GB.
 */
export const BUILD_SEMI_SPACE_MB = 32;

/**
 * The environment of a build process: `--expose-gc`, so the catalogue loader can drop the text it
 * read at once (src/server/snapshot/loader.ts), a larger young generation (BUILD_SEMI_SPACE_MB),
 * and mimalloc (the allocator of the bundler's and the Astro compiler's native code) told to hand
 * freed memory back to the system at once; its default waits for the next allocation, which never
 * comes once bundling is over, so a build process kept about 100 MB it no longer used until it
 * ended. Its arenas are committed as they are used rather than whole when reserved: memory of an
 * arena committed eagerly is never handed back, and a build process kept about 130 MB more of it
 * (10,000 products, paired runs, docs/benchmarks.md). Values already set are kept.
 */
export function buildProcessEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  let options = env.NODE_OPTIONS ?? '';
  if (!/(^|\s)--expose-gc(\s|$)/.test(options)) options = `${options} --expose-gc`.trim();
  if (!/(^|\s)--max-semi-space-size[=\s]/.test(options)) options = `${options} --max-semi-space-size=${BUILD_SEMI_SPACE_MB}`;
  return {
    ...env,
    NODE_OPTIONS: options,
    MIMALLOC_PURGE_DELAY: env.MIMALLOC_PURGE_DELAY ?? '0',
    MIMALLOC_ARENA_EAGER_COMMIT: env.MIMALLOC_ARENA_EAGER_COMMIT ?? '0',
  };
}

/** This Node running the project's `astro build`. */
export function astroBuildCommand(root: string): string[] {
  return [process.execPath, path.join(root, 'node_modules', 'astro', 'bin', 'astro.mjs'), 'build'];
}

/**
 * Builds into `outDir`: one `astro build`, or with `parts` > 1 that many at once, each rendering
 * its share of the product pages (parts.ts), then their output moved into `outDir` and the
 * sitemap completed with their pages. A failed part fails the build; the parts' folders are
 * always removed.
 */
export async function runBuild(run: BuildRun): Promise<void> {
  const command = run.command ?? astroBuildCommand(run.root);
  const env = buildProcessEnv(withHeapLimit({ ...(run.env ?? process.env), ASTRO_OUT_DIR: run.outDir }, run.maxHeapMb));
  const count = Math.max(1, Math.floor(run.parts ?? 1));
  if (count === 1) return runCommand(command, run.root, env, run.log, run.report);
  const written = new Array<number>(count).fill(0);
  let phase: BuildProgress['phase'] = 'starting';
  const partDirs = Array.from({ length: count - 1 }, (_, k) => partOutDir(run.outDir, k + 1));
  // Every build writes the project's generated types (.astro/) while it syncs content: the other
  // parts start once part 0 is past that, so no two write those files at once.
  let synced: () => void = () => {};
  const partZeroSynced = new Promise<void>((resolve) => (synced = resolve));
  const startedAt = new Date();
  const start = (k: number) =>
    runCommand(command, run.root, partEnv(env, run.outDir, k, count, startedAt), run.log && ((line) => run.log!(`[${k + 1}/${count}] ${line}`)), (progress) => {
      written[k] = progress.pagesWritten;
      if (k === 0) {
        phase = progress.phase;
        if (phase === 'bundling' || phase === 'pages') synced();
      }
      run.report?.({ phase, pagesWritten: written.reduce((a, b) => a + b, 0) });
    });
  try {
    const first = start(0);
    // Part 0 past its content sync, or finished: the others start. Part 0 failed first: they never do.
    const gate = await Promise.race([
      partZeroSynced.then(() => true),
      first.then(
        () => true,
        () => false,
      ),
    ]);
    const results = await Promise.allSettled([first, ...(gate ? Array.from({ length: count - 1 }, (_, k) => start(k + 1)) : [])]);
    const failed = results.find((result) => result.status === 'rejected');
    if (failed) throw failed.reason;
    const client = path.join(run.outDir, 'client');
    const pages = partDirs.flatMap((dir) => mergePart(path.join(dir, 'client'), client));
    updateSitemap(client, pages, []);
    run.log?.(API_REBUILD_BUILD_OPERATOR_TEXT.partsMerged(count, pages.length, client));
  } finally {
    for (const dir of partDirs) fs.rmSync(dir, { recursive: true, force: true });
  }
}
