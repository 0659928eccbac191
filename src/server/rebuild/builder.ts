/**
 * The build function the server's rebuilds run: it decides between an incremental and a full
 * build (build-mode.ts), runs `astro build` into a staging folder (build-process.ts) and publishes
 * the result into the served folder (publish.ts), or fails and leaves the shop as it was.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { decideBuildMode } from './build-mode.ts';
import { astroBuildCommand, runBuild } from './build-process.ts';
import { DEFAULT_MAX_CHANGED, readManifest, writeManifest } from './incremental.ts';
import { publishFull, publishIncremental } from './publish.ts';
import { codeKeyFile, currentBuild, filesUnder, manifestFile } from './served-folder.ts';
import type { BuildChanges, ProgressReporter } from './types.ts';
import type { FastEditResult } from './fast-edit.ts';
import { API_FAST_EDIT_OPERATOR_TEXT } from '~/i18n/api.ts';

/** Where `npm run build` records the code its server bundle was made from, under the output folder. */
export const SERVER_CODE_KEY_FILE = path.join('server', 'code-key');

/** The running server's own publishing of an edit (fast-edit.ts, through its internal endpoint). */
export interface FastEditor {
  /** The code key of the server bundle that renders the pages (SERVER_CODE_KEY_FILE). */
  codeKey: string;
  /** Publishes the edit of these products, or answers why a build must. */
  publish(productIds: string[]): Promise<FastEditResult>;
  /** Reads the served catalogue ahead of the next edit (after a build publishes, and at start). */
  warm?(): Promise<void>;
  /** Takes the build that wrote an edit's search files as the catalogue it keeps, without reading it again. */
  adopt?(): Promise<void>;
}

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
  /**
   * The running server, which publishes an edit itself when the served build, the sources and
   * its own bundle are of the same code; an incremental build does what it cannot.
   */
  fastEdit?: FastEditor;
}

/** What the last build did, for logs and tests. */
export interface PublishResult {
  /** 'fast': published by the running server without a build (fast-edit.ts). */
  mode: 'full' | 'incremental' | 'fast';
  /** Why a full build was made although changes were named, else null. */
  reason: string | null;
  /** Static files written into the served folder (incremental builds and fast edits). */
  written: string[];
  /** Static files removed from the served folder (incremental builds). */
  removed: string[];
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

/**
 * A build function for the server's rebuilds (SharedRebuilds). With changed product ids and a
 * served build that left a manifest from the same code, it runs an incremental build (only the
 * files those products decide are rendered, see incremental.ts) and publishes them into the
 * served folder; otherwise, or when the build itself finds too many changes, it builds everything
 * into `<outDir>-rebuild`, checks the result, publishes its client folder by swapping the symlink
 * and schedules removal of the replaced one. `onPublished` hears what each successful build did.
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
    let servedKey: string | null = null;
    try {
      servedKey = served ? fs.readFileSync(codeKeyFile(served), 'utf8') : null;
    } catch {
      servedKey = null;
    }
    const ids = changes?.productIds ?? [];
    const decide = (servedManifest: boolean) => decideBuildMode({ servedManifest, servedCodeKey: servedKey, codeKey: key, changedIds: ids, maxChanged });
    // The server's edit reads the served manifest itself (it keeps it between edits): here it is
    // parsed only for a build, not before every edit (15 MB at 100,000 products: 0.4–0.8 s).
    let { mode, reason } = decide(served !== null && fs.existsSync(manifestFile(served)));
    let followsEdit = false;
    if (mode === 'incremental' && options.fastEdit && options.fastEdit.codeKey === key) {
      const published = await publishFast(options.fastEdit, ids, options.log);
      if (published) {
        report?.({ phase: 'publishing', pagesWritten: published.result.written.length });
        onPublished?.(published.result);
        // The edit is on its pages; the header search's files, when they change, follow with a build.
        if (!published.searchFollows) return;
        options.log?.(API_FAST_EDIT_OPERATOR_TEXT.searchFollows);
        followsEdit = true;
      }
    }
    const previous = mode === 'incremental' ? readManifest(manifestFile(served!)) : null;
    if (mode === 'incremental' && !previous) ({ mode, reason } = decide(false));
    const incremental = mode === 'incremental';
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
      await runBuild({
        root: options.root,
        outDir: staging,
        command,
        env,
        parts: incremental ? 1 : options.parts,
        maxHeapMb: options.maxHeapMb,
        log: options.log,
        report: track,
      });
      report?.({ phase: 'publishing', pagesWritten: pages });
      const built = path.join(staging, 'client');
      const manifest = readManifest(newManifest);
      if (incremental && manifest?.mode === 'incremental') {
        const result = publishIncremental(built, served!, manifest, previous!);
        writeManifest(manifestFile(served!), manifest);
        onPublished?.({ mode: 'incremental', reason: null, ...result });
        // The build that wrote an edit's search files rendered the catalogue the server keeps.
        if (followsEdit && options.fastEdit?.adopt) {
          void options.fastEdit.adopt().catch(() => undefined);
          return;
        }
      } else {
        publishFull(outDir, built, served, manifest, key, keepOldMs);
        onPublished?.({ mode: 'full', reason: manifest?.reason ?? reason, written: [], removed: [] });
      }
      // The server reads the catalogue just published now rather than on the next edit.
      if (options.fastEdit?.warm && options.fastEdit.codeKey === key) void options.fastEdit.warm().catch(() => undefined);
    } finally {
      fs.rmSync(staging, { recursive: true, force: true });
    }
  };
}

/** The server's publishing of an edit, or null when a build must do it (its reason logged). */
async function publishFast(editor: FastEditor, ids: string[], log?: (line: string) => void): Promise<{ result: PublishResult; searchFollows: boolean } | null> {
  try {
    const result = await editor.publish(ids);
    if (result.mode === 'fast') {
      const steps = Object.entries(result.steps)
        .map(([step, ms]) => `${step} ${ms}`)
        .join(', ');
      log?.(API_FAST_EDIT_OPERATOR_TEXT.published(result.written.length, result.ms, steps));
      return { result: { mode: 'fast', reason: null, written: result.written, removed: result.removed }, searchFollows: result.searchFollows };
    }
    log?.(API_FAST_EDIT_OPERATOR_TEXT.fallback(result.reason));
  } catch (error) {
    log?.(API_FAST_EDIT_OPERATOR_TEXT.failed(error instanceof Error ? error.message : String(error)));
  }
  return null;
}
