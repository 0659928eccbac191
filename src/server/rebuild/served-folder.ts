/**
 * The served static folder. `<outDir>/client` (where the Node adapter's static handler looks) is a
 * symlink to `<outDir>/builds/<id>/client`; a full rebuild moves its client folder under builds/
 * and swaps the symlink with rename(2), which is atomic: a request sees either the old tree or the
 * new one, never a half-written one. A failed build never touches the symlink.
 *
 * This module owns that folder: the symlink, the build folders under builds/ (with the manifest
 * and code key each build leaves beside its client folder), the lock that lets processes starting
 * at once on a fresh folder take turns, the clean-up of old builds, and writing one file into the
 * served tree atomically.
 */
import fs from 'node:fs';
import path from 'node:path';
// Relative, not `~/`: a test loads this module in plain Node, where the alias does not resolve.
import { API_REBUILD_BUILD_OPERATOR_TEXT } from '../../i18n/api.ts';

/** The symlink the static handler serves from. */
export function clientLink(outDir: string): string {
  return path.join(outDir, 'client');
}

export function buildsDir(outDir: string): string {
  return path.join(outDir, 'builds');
}

export function newBuildId(): string {
  return `${new Date().toISOString().replace(/[:.]/g, '-')}-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
}

/** Points the client symlink at target (relative to outDir) with one atomic rename. */
export function swapLink(outDir: string, target: string): void {
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
      else if (Date.now() > deadline) throw new Error(API_REBUILD_BUILD_OPERATOR_TEXT.folderBusy(lock, PREPARE_WAIT_MS / 1000), { cause: error });
      else sleepSync(50);
    }
  }
  try {
    const link = clientLink(outDir);
    const stat = fs.lstatSync(link);
    if (!stat.isSymbolicLink()) {
      if (!stat.isDirectory()) throw new Error(API_REBUILD_BUILD_OPERATOR_TEXT.notAFolder(link));
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
 * Counted from the build's manifest when it has one (its catalogue files: all but a few fixed
 * pages), which is one file to read where the folder is one directory read per page: at 100,000
 * products 0.2 s against 1.4–2.8 s on an idle machine and 17 s on a busy one, before the server
 * could listen (docs/benchmarks.md).
 */
export function countPages(outDir: string): number {
  const root = currentBuild(outDir) ?? clientLink(outDir);
  const listed = manifestFileCount(manifestFile(root));
  if (listed !== null) return listed;
  return filesUnder(root, (dir) => path.basename(dir) !== '_astro').filter((file) => /\.(html|json|txt)$/.test(file)).length;
}

/**
 * How many files a build's manifest lists (./incremental.ts BuildManifest `files`), or null
 * without a readable one. Read here rather than through incremental.ts, whose imports need the
 * project's aliases: this module also runs in plain Node before the server starts.
 */
function manifestFileCount(file: string): number | null {
  try {
    const { files } = JSON.parse(fs.readFileSync(file, 'utf8')) as { files?: unknown };
    return typeof files === 'object' && files !== null ? Object.keys(files).length : null;
  } catch {
    return null;
  }
}

/**
 * Every file below `dir` (descending only into folders `enter` accepts), in name order, so a
 * hash over them is stable; a folder that cannot be read contributes nothing.
 */
export function filesUnder(dir: string, enter: (dir: string) => boolean = () => true): string[] {
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

/** The manifest a build leaves next to its client folder (builds/<id>/catalog-manifest.json). */
export function manifestFile(buildClient: string): string {
  return path.join(path.dirname(buildClient), 'catalog-manifest.json');
}

export function codeKeyFile(buildClient: string): string {
  return path.join(path.dirname(buildClient), 'code-key');
}

/** Writes `data` to `target` with a temporary file in the same folder and one rename. */
export function replaceFile(target: string, data: Buffer | string): void {
  fs.mkdirSync(path.dirname(target), { recursive: true });
  const temp = tempFor(target);
  fs.writeFileSync(temp, data);
  fs.renameSync(temp, target);
}

/** replaceFile with the writing off the event loop: the running server answers shoppers meanwhile (its edits, fast-edit.ts). */
export async function replaceFileAsync(target: string, data: Buffer | string | ReadonlyArray<string | Buffer>): Promise<void> {
  await fs.promises.mkdir(path.dirname(target), { recursive: true });
  const temp = tempFor(target);
  const file = await fs.promises.open(temp, 'w');
  try {
    // Each slice in one write where the system allows (writeFile writes a big file in many small
    // ones); bytes given already encoded, many at a time (the manifest's hundreds of slices).
    for (const batch of writeBatches(data)) await writeAll(file, batch);
  } finally {
    await file.close();
  }
  await fs.promises.rename(temp, target);
}

/** Most buffers handed to one writev (the system's IOV_MAX is 1,024 on Linux). */
const BATCH_BUFFERS = 1024;

/**
 * The data to write as batches of buffers: bytes given encoded go together (up to BATCH_BUFFERS),
 * a string's slices one at a time, each encoded just before it is written.
 */
function* writeBatches(data: Buffer | string | ReadonlyArray<string | Buffer>): Generator<Buffer[]> {
  const parts = typeof data === 'string' || Buffer.isBuffer(data) ? [data] : data;
  let batch: Buffer[] = [];
  for (const part of parts) {
    if (Buffer.isBuffer(part)) {
      batch.push(part);
      if (batch.length < BATCH_BUFFERS) continue;
    }
    if (batch.length > 0) yield batch;
    batch = [];
    if (typeof part === 'string') for (const bytes of encodedSlices(part)) yield [bytes];
  }
  if (batch.length > 0) yield batch;
}

/** Writes `buffers` in order at the file's position, in one writev unless the system writes less. */
async function writeAll(file: fs.promises.FileHandle, buffers: Buffer[]): Promise<void> {
  let { bytesWritten } = buffers.length === 1 ? await file.write(buffers[0]!) : await file.writev(buffers);
  for (const bytes of buffers) {
    if (bytesWritten >= bytes.length) {
      bytesWritten -= bytes.length;
      continue;
    }
    // The rest of a short write, buffer by buffer.
    for (let at = bytesWritten; at < bytes.length;) at += (await file.write(bytes, at)).bytesWritten;
    bytesWritten = 0;
  }
}

/**
 * Characters of a string encoded at a time. Encoding /explore's 47 MB catalogue at once held the
 * event loop for 79–97 ms at 100,000 products (a script, 2026-12-01); a slice takes 3–5 ms, and
 * the loop runs between two writes.
 */
const SLICE_CHARS = 1 << 20;

/** A string as UTF-8, a slice at a time, never splitting a surrogate pair. */
function* encodedSlices(data: string): Generator<Buffer> {
  for (let start = 0; start < data.length;) {
    let end = Math.min(start + SLICE_CHARS, data.length);
    // A high surrogate ending the slice goes with its low half, in the next.
    const last = data.charCodeAt(end - 1);
    if (end < data.length && last >= 0xd800 && last <= 0xdbff) end -= 1;
    yield Buffer.from(data.slice(start, end));
    start = end;
  }
}

function tempFor(target: string): string {
  return path.join(path.dirname(target), `.${path.basename(target)}.${process.pid}.${Math.random().toString(36).slice(2, 8)}.tmp`);
}
