/**
 * The served static folder: the client symlink and its atomic swap, the conversion of a fresh
 * build folder, the clean-up of old builds, and files replaced in one rename.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  buildsDir,
  clientLink,
  codeKeyFile,
  countPages,
  currentBuild,
  filesUnder,
  manifestFile,
  OLD_BUILD_MS,
  prepareOutput,
  removeOldBuilds,
  replaceFile,
  replaceFileAsync,
  swapLink,
} from '~/server/rebuild/served-folder.ts';
import { MANIFEST_VERSION, readManifest, type BuildManifest } from '~/server/rebuild/incremental.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function write(file: string, text: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
}

/** An output folder as `astro build` leaves it: a real client folder. */
function freshOutput(): string {
  const outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'served-folder-'));
  dirs.push(outDir);
  write(path.join(outDir, 'client', 'index.html'), 'inicio');
  write(path.join(outDir, 'client', 'faq', 'index.html'), 'faq');
  write(path.join(outDir, 'client', 'explore', 'catalog.json'), '{}');
  write(path.join(outDir, 'client', 'robots.txt'), '');
  write(path.join(outDir, 'client', '_astro', 'tienda.abc.js'), '');
  write(path.join(outDir, 'client', '_astro', 'page.html'), '');
  return outDir;
}

/** Makes a file or folder look `ms` old. */
function age(file: string, ms: number): void {
  const when = new Date(Date.now() - ms);
  fs.lutimesSync(file, when, when);
}

describe('prepareOutput', () => {
  it('turns a fresh client folder into a symlink to builds/<id>/client, serving the same files', () => {
    const outDir = freshOutput();
    expect(currentBuild(outDir)).toBeNull();
    const build = prepareOutput(outDir);
    expect(fs.lstatSync(clientLink(outDir)).isSymbolicLink()).toBe(true);
    expect(path.dirname(path.dirname(build))).toBe(buildsDir(outDir));
    expect(currentBuild(outDir)).toBe(build);
    expect(fs.readFileSync(path.join(clientLink(outDir), 'faq', 'index.html'), 'utf8')).toBe('faq');
    // A second start leaves the symlink as it is.
    expect(prepareOutput(outDir)).toBe(build);
  });

  it('refuses a client that is a file, and releases its lock', () => {
    const outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'served-folder-'));
    dirs.push(outDir);
    write(clientLink(outDir), 'no soy una carpeta');
    expect(() => prepareOutput(outDir)).toThrow(/no es una carpeta/);
    expect(fs.existsSync(path.join(outDir, '.prepare-lock'))).toBe(false);
  });
});

describe('swapLink and removeOldBuilds', () => {
  it('points the symlink at another build, and removes old builds but the served one and recent ones', () => {
    const outDir = freshOutput();
    const first = prepareOutput(outDir);
    write(path.join(buildsDir(outDir), 'b2', 'client', 'index.html'), 'nuevo');
    write(path.join(buildsDir(outDir), 'b3', 'client', 'index.html'), 'reciente');
    swapLink(outDir, path.join('builds', 'b2', 'client'));
    expect(fs.readFileSync(path.join(clientLink(outDir), 'index.html'), 'utf8')).toBe('nuevo');
    expect(fs.readdirSync(outDir).some((name) => name.startsWith('.client-'))).toBe(false);

    age(path.dirname(first), OLD_BUILD_MS + 1000);
    removeOldBuilds(outDir, OLD_BUILD_MS);
    expect(fs.readdirSync(buildsDir(outDir)).sort()).toEqual(['b2', 'b3']);
    removeOldBuilds(outDir);
    expect(fs.readdirSync(buildsDir(outDir))).toEqual(['b2']);
  });
});

describe('the files of a build', () => {
  it('counts the prerendered pages, feeds and text files, not the hashed assets', () => {
    const outDir = freshOutput();
    prepareOutput(outDir);
    expect(countPages(outDir)).toBe(4);
  });

  it("counts them from the build's manifest when it has one, without listing the folder", () => {
    const outDir = freshOutput();
    const client = prepareOutput(outDir);
    // Two catalogue files listed, though the folder holds four: the manifest is what is read.
    const manifest = {
      v: MANIFEST_VERSION,
      mode: 'full',
      reason: null,
      files: { '/': 'a', '/explore/catalog.json': 'b' },
      products: {},
      render: [],
      removed: [],
    };
    write(manifestFile(client), JSON.stringify(manifest));
    expect(countPages(outDir)).toBe(2);
    // A manifest it cannot read: the folder is listed.
    write(manifestFile(client), '{');
    expect(countPages(outDir)).toBe(4);
  });

  it('lists files in name order, entering only the folders it is allowed to, and nothing for a missing folder', () => {
    const outDir = freshOutput();
    const client = clientLink(outDir);
    const names = (files: string[]) => files.map((file) => path.relative(client, file));
    expect(names(filesUnder(client, (dir) => path.basename(dir) !== '_astro'))).toEqual(['explore/catalog.json', 'faq/index.html', 'index.html', 'robots.txt']);
    expect(filesUnder(path.join(outDir, 'nada'))).toEqual([]);
  });

  it('keeps the manifest and the code key beside the client folder', () => {
    expect(manifestFile('/out/builds/b1/client')).toBe('/out/builds/b1/catalog-manifest.json');
    expect(codeKeyFile('/out/builds/b1/client')).toBe('/out/builds/b1/code-key');
  });

  it('replaces a file in one rename, making its folder, and leaves no temporary file', () => {
    const outDir = freshOutput();
    const target = path.join(outDir, 'client', 'product', 'nuevo', 'index.html');
    replaceFile(target, 'uno');
    replaceFile(target, Buffer.from('dos'));
    expect(fs.readFileSync(target, 'utf8')).toBe('dos');
    expect(fs.readdirSync(path.dirname(target))).toEqual(['index.html']);
  });

  it('replaces a file and a manifest off the event loop the same way: one rename each, no temporary file left', async () => {
    const outDir = freshOutput();
    const target = path.join(outDir, 'client', 'product', 'otro', 'index.html');
    await replaceFileAsync(target, 'uno');
    // Two at once (the server writes one edit's files in turn, but nothing relies on it).
    await Promise.all([replaceFileAsync(target, 'dos'), replaceFileAsync(path.join(outDir, 'client', 'product', 'otro', 'b.json'), Buffer.from('{}'))]);
    expect(fs.readFileSync(target, 'utf8')).toBe('dos');
    expect(fs.readdirSync(path.dirname(target)).sort()).toEqual(['b.json', 'index.html']);
    const file = manifestFile(path.join(outDir, 'client'));
    const manifest = {
      v: MANIFEST_VERSION,
      mode: 'incremental',
      reason: null,
      files: { '/': 'f' },
      products: { a: 'd' },
      render: ['/'],
      removed: [],
    } as unknown as BuildManifest;
    await replaceFileAsync(file, JSON.stringify(manifest));
    expect(readManifest(file)).toEqual(manifest);
    expect(fs.readdirSync(outDir).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });

  it('writes a text of several megabytes, encoded in slices, byte for byte: no character cut between two slices', async () => {
    const outDir = freshOutput();
    const target = path.join(outDir, 'client', 'explore', 'catalog.json');
    // Three code units a pattern ('a', then an emoji's two halves) over several slices of 2^20:
    // a slice ends between an emoji's halves wherever its end falls there.
    const text = `{"nombre":"Pokémon ${'a😀'.repeat(2_500_000)} ñ"}`;
    await replaceFileAsync(target, text);
    const written = fs.readFileSync(target);
    expect(written.length).toBe(Buffer.byteLength(text));
    expect(written.equals(Buffer.from(text))).toBe(true);
    expect(written.includes(Buffer.from('\uFFFD'))).toBe(false);
  });

  it('writes the parts of a text one after the other, a long part in slices, as the whole text', async () => {
    const outDir = freshOutput();
    const target = path.join(outDir, 'client', 'explore', 'catalog.json');
    const parts = ['{"products":[', `"${'b😀'.repeat(1_000_000)}"`, '', ',"ñ"', ']}'];
    await replaceFileAsync(target, parts);
    expect(fs.readFileSync(target).equals(Buffer.from(parts.join('')))).toBe(true);
  });

  it('writes thousands of encoded parts, in batches, between texts, in their order', async () => {
    const outDir = freshOutput();
    const target = path.join(outDir, 'client', 'catalog-manifest.json');
    // More buffers than one batch holds (1,024), an empty one, and texts between them.
    const encoded = Array.from({ length: 2500 }, (_, i) => Buffer.from(i % 700 === 0 ? '' : `,"clave-${i}":"ñ${i}"`));
    const parts = ['{', ...encoded.slice(0, 1500), '"medio":"😀"', ...encoded.slice(1500), '}'];
    await replaceFileAsync(target, parts);
    const expected = Buffer.concat(parts.map((part) => (typeof part === 'string' ? Buffer.from(part) : part)));
    const written = fs.readFileSync(target);
    expect(written.length).toBe(expected.length);
    expect(written.equals(expected)).toBe(true);
  });
});
