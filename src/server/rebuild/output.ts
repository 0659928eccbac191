/**
 * The served static folder and how a new build replaces it. `<outDir>/client` (where the Node
 * adapter's static handler looks) is a symlink to `<outDir>/builds/<id>/client`; a rebuild writes
 * a complete build into a staging folder, moves its client folder under builds/, and swaps the
 * symlink with rename(2), which is atomic: a request sees either the old tree or the new one,
 * never a half-written one. A failed build never touches the symlink.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/** Where a server's output lives and how it rebuilds it. */
export interface OutputOptions {
  /** Project root (where astro.config.mjs is). */
  root: string;
  /** Absolute output folder the server was built into (ASTRO_OUT_DIR or dist). */
  outDir: string;
  /** Command that builds into $ASTRO_OUT_DIR; default: this Node running `astro build`. */
  command?: string[];
  /** Environment for the build; default process.env. */
  env?: NodeJS.ProcessEnv;
  /** How long a replaced build stays on disk for requests still reading it. */
  keepOldMs?: number;
  /** Receives the build's output lines. */
  log?: (line: string) => void;
}

/** Where a running build is, read from `astro build`'s own output. */
export interface BuildProgress {
  /** starting → content (catalogue snapshot) → bundling → pages → publishing. */
  phase: 'starting' | 'content' | 'bundling' | 'pages' | 'publishing';
  /** Static files written so far (pages, feeds, the search index). */
  pagesWritten: number;
}

/** Called as a build advances. */
export type ProgressReporter = (progress: BuildProgress) => void;

/**
 * Reads one line of `astro build` output: its phase markers and the "├─ /path (+3ms)" line of
 * every prerendered file. Returns the progress after the line.
 */
export function readBuildLine(line: string, current: BuildProgress): BuildProgress {
  // eslint-disable-next-line no-control-regex -- strips the ANSI colour codes astro prints (ESC is \x1b)
  const plain = line.replace(/\x1b\[[0-9;]*m/g, '');
  if (/[├└]─ \/\S+ \(\+/.test(plain)) return { phase: 'pages', pagesWritten: current.pagesWritten + 1 };
  if (/prerendering static routes|generating static routes/i.test(plain)) return { ...current, phase: 'pages' };
  if (/\[build\] Building (server|client)|\[vite\]/.test(plain) && current.phase !== 'pages') return { ...current, phase: 'bundling' };
  if (/\[content\]|\[catalog-snapshot/.test(plain) && current.phase === 'starting') return { ...current, phase: 'content' };
  return current;
}

/** The symlink the static handler serves from. */
export function clientLink(outDir: string): string {
  return path.join(outDir, 'client');
}

function buildsDir(outDir: string): string {
  return path.join(outDir, 'builds');
}

function newBuildId(): string {
  return `${new Date().toISOString().replace(/[:.]/g, '-')}-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
}

/** Points the client symlink at target (relative to outDir) with one atomic rename. */
function swapLink(outDir: string, target: string): void {
  const tmp = path.join(outDir, `.client-${newBuildId()}`);
  fs.symlinkSync(target, tmp, 'dir');
  fs.renameSync(tmp, clientLink(outDir));
}

/** The build folder the symlink points at (absolute), or null when client is not a symlink. */
export function currentBuild(outDir: string): string | null {
  try {
    const target = fs.readlinkSync(clientLink(outDir));
    return path.resolve(outDir, target);
  } catch {
    return null;
  }
}

/**
 * Turns a freshly built `<outDir>/client` folder into a symlink to `builds/<id>/client`, so later
 * builds can be swapped in. Runs once at server start, before the server serves anything; builds
 * left over from an earlier run are removed.
 */
export function prepareOutput(outDir: string): string {
  const link = clientLink(outDir);
  const stat = fs.lstatSync(link);
  if (!stat.isSymbolicLink()) {
    if (!stat.isDirectory()) throw new Error(`${link} no es una carpeta`);
    const id = newBuildId();
    fs.mkdirSync(path.join(buildsDir(outDir), id), { recursive: true });
    fs.renameSync(link, path.join(buildsDir(outDir), id, 'client'));
    swapLink(outDir, path.join('builds', id, 'client'));
  }
  removeOldBuilds(outDir);
  return currentBuild(outDir)!;
}

/**
 * The prerendered files of a served build (pages, JSON feeds, robots.txt), about what
 * `astro build` lists while prerendering: what the first rebuild's progress is measured against.
 */
export function countPages(outDir: string): number {
  const root = currentBuild(outDir) ?? clientLink(outDir);
  let count = 0;
  const walk = (dir: string) => {
    let entries: fs.Dirent[] = [];
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      if (entry.isDirectory()) {
        if (entry.name !== '_astro') walk(path.join(dir, entry.name));
      } else if (/\.(html|json|txt)$/.test(entry.name)) {
        count += 1;
      }
    }
  };
  walk(root);
  return count;
}

/** Deletes every build folder except the one being served. */
export function removeOldBuilds(outDir: string): void {
  const current = currentBuild(outDir);
  const keep = current ? path.basename(path.dirname(current)) : null;
  let entries: string[] = [];
  try {
    entries = fs.readdirSync(buildsDir(outDir));
  } catch {
    return;
  }
  for (const entry of entries) {
    if (entry !== keep) fs.rmSync(path.join(buildsDir(outDir), entry), { recursive: true, force: true });
  }
  for (const entry of fs.readdirSync(outDir)) {
    // Leftovers of a swap interrupted between symlink() and rename().
    if (entry.startsWith('.client-')) fs.rmSync(path.join(outDir, entry), { force: true });
  }
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
    child.on('error', (error) => reject(new Error(`No se pudo iniciar la compilación: ${error.message}`)));
    child.on('exit', (code, signal) => {
      runningBuilds.delete(child);
      if (code === 0) resolve();
      else {
        // ANSI colours make the message unreadable in JSON.
        // eslint-disable-next-line no-control-regex -- the ESC of the ANSI colour codes
        const output = tail.join('\n').replace(/\x1b\[[0-9;]*m/g, '');
        reject(new Error(`La compilación falló (${signal ?? `código ${code}`}).\n${output}`.trim()));
      }
    });
  });
}

/**
 * Copies the hashed assets (`_astro/*`) of the build being replaced into the new one when it lacks
 * them, before the new one is published: a page loaded before the swap, and the server-rendered
 * pages (the server bundle is not rebuilt), still load the scripts and styles they name. Assets
 * are content-hashed, so a name never means two different files.
 */
export function carryAssets(fromClient: string, toClient: string): number {
  const from = path.join(fromClient, '_astro');
  const to = path.join(toClient, '_astro');
  let carried = 0;
  let names: string[] = [];
  try {
    names = fs.readdirSync(from);
  } catch {
    return 0;
  }
  fs.mkdirSync(to, { recursive: true });
  for (const name of names) {
    const target = path.join(to, name);
    if (fs.existsSync(target)) continue;
    const source = path.join(from, name);
    if (!fs.statSync(source).isFile()) continue;
    try {
      fs.linkSync(source, target);
    } catch {
      fs.copyFileSync(source, target);
    }
    carried += 1;
  }
  return carried;
}

/**
 * A build function for the rebuild manager: builds into `<outDir>-rebuild`, checks the result,
 * publishes its client folder and schedules removal of the replaced one.
 */
export function createBuilder(options: OutputOptions): (report?: ProgressReporter) => Promise<void> {
  const outDir = path.resolve(options.outDir);
  const staging = `${outDir}-rebuild`;
  const command = options.command ?? [process.execPath, path.join(options.root, 'node_modules', 'astro', 'bin', 'astro.mjs'), 'build'];
  const keepOldMs = options.keepOldMs ?? 60_000;
  return async (report?: ProgressReporter) => {
    fs.rmSync(staging, { recursive: true, force: true });
    let pages = 0;
    const track: ProgressReporter = (progress) => {
      pages = progress.pagesWritten;
      report?.(progress);
    };
    try {
      await runCommand(command, options.root, { ...(options.env ?? process.env), ASTRO_OUT_DIR: staging }, options.log, track);
      report?.({ phase: 'publishing', pagesWritten: pages });
      const built = path.join(staging, 'client');
      // A build that "succeeds" without pages would blank the shop; keep the old one instead.
      if (!fs.existsSync(path.join(built, 'index.html'))) {
        throw new Error('La compilación terminó sin generar index.html; se conserva el sitio anterior.');
      }
      const id = newBuildId();
      const target = path.join(buildsDir(outDir), id);
      fs.mkdirSync(target, { recursive: true });
      fs.renameSync(built, path.join(target, 'client'));
      const previous = currentBuild(outDir);
      if (previous) carryAssets(previous, path.join(target, 'client'));
      swapLink(outDir, path.join('builds', id, 'client'));
      if (previous) {
        // Requests that already opened files of the old tree finish reading them first.
        const timer = setTimeout(() => fs.rmSync(path.dirname(previous), { recursive: true, force: true }), keepOldMs);
        timer.unref();
      }
    } finally {
      fs.rmSync(staging, { recursive: true, force: true });
    }
  };
}
