/**
 * The served static folder and how a new build replaces it. `<outDir>/client` (where the Node
 * adapter's static handler looks) is a symlink to `<outDir>/builds/<id>/client`; a rebuild writes
 * a complete build into a staging folder, moves its client folder under builds/, and swaps the
 * symlink with rename(2), which is atomic: a request sees either the old tree or the new one,
 * never a half-written one. A failed build never touches the symlink.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { BuildChanges, BuildProgress, ProgressReporter } from './types.ts';
import { DEFAULT_MAX_CHANGED, fileForPath, readManifest, writeManifest, type BuildManifest } from './incremental.ts';
import { mergePart, partEnv, partOutDir } from './parts.ts';

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
  /** More changed products than this and a rebuild is a full one (default 500). */
  maxChanged?: number;
  /** Identifies the code a build was made from (default: a hash of src/, astro.config.mjs and package-lock.json). */
  codeKey?: () => string;
  /** Processes a full build renders in (parts.ts); default 1. Incremental builds use one. */
  parts?: number;
  /** Heap limit of each build process in MB (see BuildRun); default Node's. */
  maxHeapMb?: number;
}

/** What the last build did, for logs and tests. */
export interface PublishResult {
  mode: 'full' | 'incremental';
  /** Why a full build was made although changes were named, else null. */
  reason: string | null;
  /** Static files written into the served folder (incremental builds). */
  written: string[];
  /** Static files removed from the served folder (incremental builds). */
  removed: string[];
}

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

/** How long a start waits for another process that is preparing the same output folder. */
const PREPARE_WAIT_MS = 30_000;
/** A preparation lock older than this was left by a process that died holding it. */
const STALE_LOCK_MS = 60_000;
/**
 * Build folders younger than this are never removed at start: another process may have just moved
 * a finished build there and be about to swap the symlink, or still serve the replaced one.
 */
export const OLD_BUILD_MS = 10 * 60_000;

function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/**
 * Turns a freshly built `<outDir>/client` folder into a symlink to `builds/<id>/client`, so later
 * builds can be swapped in. Runs once at server start, before the server serves anything; builds
 * left over from an earlier run are removed once they are older than OLD_BUILD_MS. Processes that
 * start at the same time on a fresh folder take turns (an exclusive lock folder,
 * `<outDir>/.prepare-lock`): the first converts, the others wait for it and find the symlink.
 */
export function prepareOutput(outDir: string): string {
  const lock = path.join(outDir, '.prepare-lock');
  const deadline = Date.now() + PREPARE_WAIT_MS;
  for (;;) {
    try {
      fs.mkdirSync(lock);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const age = Date.now() - (fs.statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
      if (age > STALE_LOCK_MS) fs.rmSync(lock, { recursive: true, force: true });
      else if (Date.now() > deadline) throw new Error(`${lock}: otro proceso prepara la carpeta desde hace más de ${PREPARE_WAIT_MS / 1000} s`, { cause: error });
      else sleepSync(50);
    }
  }
  try {
    const link = clientLink(outDir);
    const stat = fs.lstatSync(link);
    if (!stat.isSymbolicLink()) {
      if (!stat.isDirectory()) throw new Error(`${link} no es una carpeta`);
      const id = newBuildId();
      fs.mkdirSync(path.join(buildsDir(outDir), id), { recursive: true });
      fs.renameSync(link, path.join(buildsDir(outDir), id, 'client'));
      swapLink(outDir, path.join('builds', id, 'client'));
    }
  } finally {
    fs.rmSync(lock, { recursive: true, force: true });
  }
  removeOldBuilds(outDir, OLD_BUILD_MS);
  return currentBuild(outDir)!;
}

/**
 * The prerendered files of a served build (pages, JSON feeds, robots.txt), about what
 * `astro build` lists while prerendering: what the first rebuild's progress is measured against.
 */
export function countPages(outDir: string): number {
  const root = currentBuild(outDir) ?? clientLink(outDir);
  return filesUnder(root, (dir) => path.basename(dir) !== '_astro').filter((file) => /\.(html|json|txt)$/.test(file)).length;
}

/**
 * Every file below `dir` (descending only into folders `enter` accepts), in name order, so a
 * hash over them is stable; a folder that cannot be read contributes nothing.
 */
function filesUnder(dir: string, enter: (dir: string) => boolean = () => true): string[] {
  let entries: fs.Dirent[] = [];
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  return entries
    .sort((a, b) => (a.name < b.name ? -1 : 1))
    .flatMap((entry) => {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) return enter(full) ? filesUnder(full, enter) : [];
      return entry.isFile() ? [full] : [];
    });
}

/**
 * Deletes every build folder except the one being served and those changed less than `minAgeMs`
 * ago (a build another process is publishing, or the one it just replaced).
 */
export function removeOldBuilds(outDir: string, minAgeMs = 0): void {
  const current = currentBuild(outDir);
  const keep = current ? path.basename(path.dirname(current)) : null;
  let entries: string[] = [];
  try {
    entries = fs.readdirSync(buildsDir(outDir));
  } catch {
    return;
  }
  const now = Date.now();
  const old = (file: string) => now - (fs.lstatSync(file, { throwIfNoEntry: false })?.mtimeMs ?? 0) >= minAgeMs;
  for (const entry of entries) {
    const folder = path.join(buildsDir(outDir), entry);
    if (entry !== keep && old(folder)) fs.rmSync(folder, { recursive: true, force: true });
  }
  for (const entry of fs.readdirSync(outDir)) {
    // Leftovers of a swap interrupted between symlink() and rename().
    const file = path.join(outDir, entry);
    if (entry.startsWith('.client-') && old(file)) fs.rmSync(file, { force: true });
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
 * The environment of a build process: `--expose-gc`, so the catalogue loader can drop the text it
 * read at once (src/server/snapshot/loader.ts), and mimalloc (the allocator of the bundler's and
 * the Astro compiler's native code) told to hand freed memory back to the system at once; its
 * default waits for the next allocation, which never comes once bundling is over, so a build
 * process kept about 100 MB it no longer used until it ended. Values already set are kept.
 */
export function buildProcessEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const options = env.NODE_OPTIONS ?? '';
  return {
    ...env,
    NODE_OPTIONS: /(^|\s)--expose-gc(\s|$)/.test(options) ? options : `${options} --expose-gc`.trim(),
    MIMALLOC_PURGE_DELAY: env.MIMALLOC_PURGE_DELAY ?? '0',
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
    const gate = await Promise.race([partZeroSynced.then(() => true), first.then(() => true, () => false)]);
    const results = await Promise.allSettled([first, ...(gate ? Array.from({ length: count - 1 }, (_, k) => start(k + 1)) : [])]);
    const failed = results.find((result) => result.status === 'rejected');
    if (failed) throw failed.reason;
    const client = path.join(run.outDir, 'client');
    const pages = partDirs.flatMap((dir) => mergePart(path.join(dir, 'client'), client));
    updateSitemap(client, pages, []);
    run.log?.(`Compilación en ${count} partes: ${pages.length} páginas de las otras partes movidas a ${client}.`);
  } finally {
    for (const dir of partDirs) fs.rmSync(dir, { recursive: true, force: true });
  }
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

/** The manifest a build leaves next to its client folder (builds/<id>/catalog-manifest.json). */
export function manifestFile(buildClient: string): string {
  return path.join(path.dirname(buildClient), 'catalog-manifest.json');
}

function codeKeyFile(buildClient: string): string {
  return path.join(path.dirname(buildClient), 'code-key');
}

/** A hash of what decides the built code: src/, astro.config.mjs and package-lock.json. */
export function sourceCodeKey(root: string): string {
  const hash = createHash('sha1');
  const add = (file: string) => {
    try {
      hash.update(path.relative(root, file)).update('\0').update(fs.readFileSync(file)).update('\0');
    } catch {
      // A missing file is simply not part of the key.
    }
  };
  for (const file of filesUnder(path.join(root, 'src'))) add(file);
  add(path.join(root, 'astro.config.mjs'));
  add(path.join(root, 'package-lock.json'));
  return hash.digest('hex');
}

/** Writes `data` to `target` with a temporary file in the same folder and one rename. */
function replaceFile(target: string, data: Buffer | string): void {
  fs.mkdirSync(path.dirname(target), { recursive: true });
  const temp = path.join(path.dirname(target), `.${path.basename(target)}.${process.pid}.${Math.random().toString(36).slice(2, 8)}.tmp`);
  fs.writeFileSync(temp, data);
  fs.renameSync(temp, target);
}

const SITEMAP_LIMIT = 50_000;
const URLSET_OPEN =
  '<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:news="http://www.google.com/schemas/sitemap-news/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml" xmlns:image="http://www.google.com/schemas/sitemap-image/1.1" xmlns:video="http://www.google.com/schemas/sitemap-video/1.1">';

const escapeXml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const unescapeXml = (text: string) => text.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');

/**
 * Brings the served sitemap up to date after an incremental build: URLs of pages that appeared
 * are added, of pages that went away removed, in files of at most 50,000 URLs under
 * sitemap-index.xml, as @astrojs/sitemap writes them in a full build. Pages first, index last.
 */
export function updateSitemap(client: string, added: string[], removed: string[]): void {
  const pages = (paths: string[]) => paths.filter((urlPath) => !/\.[a-z0-9]+$/i.test(urlPath));
  const add = pages(added);
  const drop = pages(removed);
  if (add.length === 0 && drop.length === 0) return;
  const index = path.join(client, 'sitemap-index.xml');
  let indexXml = '';
  try {
    indexXml = fs.readFileSync(index, 'utf8');
  } catch {
    return;
  }
  const locs = (xml: string) => [...xml.matchAll(/<loc>([^<]*)<\/loc>/g)].map((match) => unescapeXml(match[1]!));
  const parts = locs(indexXml);
  if (parts.length === 0) return;
  const origin = new URL(parts[0]!).origin;
  const urls = new Set<string>();
  for (const part of parts) {
    try {
      for (const loc of locs(fs.readFileSync(path.join(client, new URL(part).pathname), 'utf8'))) urls.add(loc);
    } catch {
      // A part that is gone has no URLs to keep.
    }
  }
  const toUrl = (urlPath: string) => `${origin}${urlPath === '/' ? '/' : `${urlPath}/`}`;
  for (const urlPath of drop) urls.delete(toUrl(urlPath));
  for (const urlPath of add) urls.add(toUrl(urlPath));
  const sorted = [...urls].sort();
  const count = Math.max(1, Math.ceil(sorted.length / SITEMAP_LIMIT));
  for (let n = 0; n < count; n++) {
    const chunk = sorted.slice(n * SITEMAP_LIMIT, (n + 1) * SITEMAP_LIMIT);
    replaceFile(path.join(client, `sitemap-${n}.xml`), `${URLSET_OPEN}${chunk.map((url) => `<url><loc>${escapeXml(url)}</loc></url>`).join('')}</urlset>`);
  }
  const names = Array.from({ length: count }, (_, n) => `<sitemap><loc>${escapeXml(`${origin}/sitemap-${n}.xml`)}</loc></sitemap>`);
  replaceFile(index, `<?xml version="1.0" encoding="UTF-8"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${names.join('')}</sitemapindex>`);
  for (let n = count; fs.existsSync(path.join(client, `sitemap-${n}.xml`)); n++) fs.rmSync(path.join(client, `sitemap-${n}.xml`), { force: true });
}

/**
 * Publishes an incremental build into the served client folder, file by file: new hashed assets
 * first, then each rendered file through a temporary file and a rename (a reader gets the old file
 * or the new one, never part of one), then the removed files and the sitemap. Files the build did
 * not render are not touched. Works on the shared folder alone, so any server serving it sees the
 * new files at once.
 */
export function publishIncremental(builtClient: string, servedClient: string, manifest: BuildManifest, previous: BuildManifest): { written: string[]; removed: string[] } {
  carryAssets(builtClient, servedClient);
  const written: string[] = [];
  for (const urlPath of manifest.render) {
    const file = fileForPath(urlPath);
    const source = path.join(builtClient, file);
    if (!fs.existsSync(source)) continue;
    replaceFile(path.join(servedClient, file), fs.readFileSync(source));
    written.push(file);
  }
  const removed: string[] = [];
  for (const urlPath of manifest.removed) {
    const file = path.join(servedClient, fileForPath(urlPath));
    if (!fs.existsSync(file)) continue;
    fs.rmSync(file, { force: true });
    removed.push(fileForPath(urlPath));
    // An emptied page folder (product/<id>/) goes too.
    try {
      fs.rmdirSync(path.dirname(file));
    } catch {
      // Not empty, or the client folder itself.
    }
  }
  const added = Object.keys(manifest.files).filter((urlPath) => !(urlPath in previous.files));
  updateSitemap(servedClient, added, manifest.removed);
  return { written, removed };
}

/**
 * A build function for the rebuild manager. With changed product ids and a served build that left
 * a manifest from the same code, it runs an incremental build (only the files those products
 * decide are rendered, see incremental.ts) and publishes them into the served folder; otherwise,
 * or when the build itself finds too many changes, it builds everything into `<outDir>-rebuild`,
 * checks the result, publishes its client folder by swapping the symlink and schedules removal of
 * the replaced one. `onPublished` hears what each successful build did.
 */
export function createBuilder(
  options: OutputOptions,
  onPublished?: (result: PublishResult) => void,
): (report?: ProgressReporter, changes?: BuildChanges | null) => Promise<void> {
  const outDir = path.resolve(options.outDir);
  const staging = `${outDir}-rebuild`;
  const command = options.command ?? astroBuildCommand(options.root);
  const keepOldMs = options.keepOldMs ?? 60_000;
  const maxChanged = options.maxChanged ?? DEFAULT_MAX_CHANGED;
  const codeKey = options.codeKey ?? (() => sourceCodeKey(options.root));
  return async (report?: ProgressReporter, changes?: BuildChanges | null) => {
    fs.rmSync(staging, { recursive: true, force: true });
    let pages = 0;
    const track: ProgressReporter = (progress) => {
      pages = progress.pagesWritten;
      report?.(progress);
    };
    const key = codeKey();
    const served = currentBuild(outDir);
    const previous = served ? readManifest(manifestFile(served)) : null;
    let servedKey: string | null = null;
    try {
      servedKey = served ? fs.readFileSync(codeKeyFile(served), 'utf8') : null;
    } catch {
      servedKey = null;
    }
    const ids = changes?.productIds ?? [];
    const incremental = served !== null && previous !== null && servedKey === key && ids.length > 0 && ids.length <= maxChanged;
    const reason = ids.length === 0 ? null : !previous ? 'no hay manifiesto de la compilación servida' : servedKey !== key ? 'el código cambió' : ids.length > maxChanged ? `${ids.length} productos cambiaron` : null;
    const newManifest = path.join(staging, 'catalog-manifest.json');
    const env: NodeJS.ProcessEnv = { ...(options.env ?? process.env), ASTRO_OUT_DIR: staging, CATALOG_BUILD_MANIFEST: newManifest };
    delete env.CATALOG_PREVIOUS_MANIFEST;
    delete env.CATALOG_CHANGED_IDS;
    if (incremental) {
      env.CATALOG_PREVIOUS_MANIFEST = manifestFile(served!);
      env.CATALOG_CHANGED_IDS = ids.join(',');
      env.CATALOG_MAX_CHANGED = String(maxChanged);
    }
    try {
      await runBuild({ root: options.root, outDir: staging, command, env, parts: incremental ? 1 : options.parts, maxHeapMb: options.maxHeapMb, log: options.log, report: track });
      report?.({ phase: 'publishing', pagesWritten: pages });
      const built = path.join(staging, 'client');
      const manifest = readManifest(newManifest);
      if (incremental && manifest?.mode === 'incremental') {
        const result = publishIncremental(built, served!, manifest, previous!);
        writeManifest(manifestFile(served!), manifest);
        onPublished?.({ mode: 'incremental', reason: null, ...result });
        return;
      }
      // A build that "succeeds" without pages would blank the shop; keep the old one instead.
      if (!fs.existsSync(path.join(built, 'index.html'))) {
        throw new Error('La compilación terminó sin generar index.html; se conserva el sitio anterior.');
      }
      const id = newBuildId();
      const target = path.join(buildsDir(outDir), id);
      fs.mkdirSync(target, { recursive: true });
      fs.renameSync(built, path.join(target, 'client'));
      if (manifest) writeManifest(manifestFile(path.join(target, 'client')), manifest);
      fs.writeFileSync(codeKeyFile(path.join(target, 'client')), key);
      if (served) carryAssets(served, path.join(target, 'client'));
      swapLink(outDir, path.join('builds', id, 'client'));
      if (served) {
        // Requests that already opened files of the old tree finish reading them first.
        const timer = setTimeout(() => fs.rmSync(path.dirname(served), { recursive: true, force: true }), keepOldMs);
        timer.unref();
      }
      onPublished?.({ mode: 'full', reason: manifest?.reason ?? reason, written: [], removed: [] });
    } finally {
      fs.rmSync(staging, { recursive: true, force: true });
    }
  };
}
