/**
 * How a finished build reaches the served folder: an incremental build file by file into the
 * served tree (each through a rename, new hashed assets first, then the sitemap), a full build as
 * a new folder under builds/ that the symlink is swapped to.
 */
import fs from 'node:fs';
import path from 'node:path';
import { API_REBUILD_BUILD_OPERATOR_TEXT } from '~/i18n/api.ts';
import { fileForPath, writeManifest, type BuildManifest } from './incremental.ts';
import { buildsDir, codeKeyFile, manifestFile, newBuildId, replaceFile, swapLink } from './served-folder.ts';
import { updateSitemap } from './sitemap.ts';

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
 * Publishes an incremental build into the served client folder, file by file: new hashed assets
 * first, then each rendered file through a temporary file and a rename (a reader gets the old file
 * or the new one, never part of one), then the removed files and the sitemap. Files the build did
 * not render are not touched. Works on the shared folder alone, so any server serving it sees the
 * new files at once.
 */
export function publishIncremental(
  builtClient: string,
  servedClient: string,
  manifest: BuildManifest,
  previous: BuildManifest,
): { written: string[]; removed: string[] } {
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
 * Publishes a full build: its client folder moves under builds/ with the manifest and the code
 * key it was built from, takes the replaced build's assets it lacks, and the symlink is swapped
 * to it; the replaced build is removed `keepOldMs` later. Refuses a build without index.html.
 */
export function publishFull(outDir: string, built: string, served: string | null, manifest: BuildManifest | null, key: string, keepOldMs: number): void {
  // A build that "succeeds" without pages would blank the shop; keep the old one instead.
  if (!fs.existsSync(path.join(built, 'index.html'))) {
    throw new Error(API_REBUILD_BUILD_OPERATOR_TEXT.noIndex);
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
}
