/**
 * How a finished build reaches the served folder: an incremental one file by file, a full one as
 * a new build folder the symlink is swapped to, each carrying the replaced build's hashed assets.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MANIFEST_VERSION, readManifest, type BuildManifest } from '~/server/rebuild/incremental.ts';
import { carryAssets, publishFull, publishIncremental } from '~/server/rebuild/publish.ts';
import { clientLink, codeKeyFile, currentBuild, manifestFile, prepareOutput } from '~/server/rebuild/served-folder.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'publish-'));
  dirs.push(dir);
  return dir;
}

function write(file: string, text: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
}

const read = (file: string) => fs.readFileSync(file, 'utf8');

function manifest(fields: Partial<BuildManifest>): BuildManifest {
  return { v: MANIFEST_VERSION, mode: 'incremental', reason: null, files: {}, products: {}, render: [], removed: [], ...fields };
}

describe('carryAssets', () => {
  it("copies the hashed assets the new build lacks, and leaves the new build's own", () => {
    const root = tempDir();
    write(path.join(root, 'old', '_astro', 'a.js'), 'viejo a');
    write(path.join(root, 'old', '_astro', 'b.js'), 'viejo b');
    write(path.join(root, 'new', '_astro', 'b.js'), 'nuevo b');
    expect(carryAssets(path.join(root, 'old'), path.join(root, 'new'))).toBe(1);
    expect(read(path.join(root, 'new', '_astro', 'a.js'))).toBe('viejo a');
    expect(read(path.join(root, 'new', '_astro', 'b.js'))).toBe('nuevo b');
    expect(carryAssets(path.join(root, 'nada'), path.join(root, 'new'))).toBe(0);
  });
});

describe('publishIncremental', () => {
  it('writes the rendered files, removes the removed pages with their emptied folders, and brings the sitemap up to date', () => {
    const root = tempDir();
    const built = path.join(root, 'built');
    const served = path.join(root, 'served');
    write(path.join(built, 'product', 'nuevo', 'index.html'), 'nuevo');
    write(path.join(built, 'index.html'), 'inicio 2');
    write(path.join(built, '_astro', 'x.js'), 'x');
    write(path.join(served, 'index.html'), 'inicio 1');
    write(path.join(served, 'faq', 'index.html'), 'faq');
    write(path.join(served, 'product', 'viejo', 'index.html'), 'viejo');
    write(
      path.join(served, 'sitemap-index.xml'),
      '<?xml version="1.0" encoding="UTF-8"?><sitemapindex><sitemap><loc>https://tienda.mx/sitemap-0.xml</loc></sitemap></sitemapindex>',
    );
    write(
      path.join(served, 'sitemap-0.xml'),
      '<urlset><url><loc>https://tienda.mx/</loc></url><url><loc>https://tienda.mx/product/viejo/</loc></url></urlset>',
    );
    const previous = manifest({ files: { '/': 'a', '/faq': 'b', '/product/viejo': 'c' } });
    const next = manifest({
      files: { '/': 'a2', '/faq': 'b', '/product/nuevo': 'd' },
      render: ['/', '/product/nuevo', '/product/fantasma'],
      removed: ['/product/viejo'],
    });

    const result = publishIncremental(built, served, next, previous);
    expect(result).toEqual({ written: ['index.html', 'product/nuevo/index.html'], removed: ['product/viejo/index.html'] });
    expect(read(path.join(served, 'index.html'))).toBe('inicio 2');
    expect(read(path.join(served, 'faq', 'index.html'))).toBe('faq');
    expect(read(path.join(served, '_astro', 'x.js'))).toBe('x');
    expect(fs.existsSync(path.join(served, 'product', 'viejo'))).toBe(false);
    const sitemap = read(path.join(served, 'sitemap-0.xml'));
    expect(sitemap).toContain('https://tienda.mx/product/nuevo/');
    expect(sitemap).not.toContain('https://tienda.mx/product/viejo/');
  });
});

describe('publishFull', () => {
  it('moves the build under builds/ with its manifest and code key, swaps the symlink, and keeps the old assets', () => {
    const outDir = tempDir();
    write(path.join(outDir, 'client', 'index.html'), 'v1');
    write(path.join(outDir, 'client', '_astro', 'v1.js'), 'v1');
    const served = prepareOutput(outDir);
    const built = path.join(outDir, 'nuevo-client');
    write(path.join(built, 'index.html'), 'v2');
    const full = manifest({ mode: 'full', files: { '/': 'x' } });

    publishFull(outDir, built, served, full, 'clave-del-codigo', 60_000);
    const now = currentBuild(outDir)!;
    expect(now).not.toBe(served);
    expect(read(path.join(clientLink(outDir), 'index.html'))).toBe('v2');
    expect(read(path.join(clientLink(outDir), '_astro', 'v1.js'))).toBe('v1');
    expect(readManifest(manifestFile(now))?.files).toEqual({ '/': 'x' });
    expect(read(codeKeyFile(now))).toBe('clave-del-codigo');
    expect(fs.existsSync(built)).toBe(false);
    // The replaced build stays for the requests still reading it.
    expect(fs.existsSync(served)).toBe(true);
  });

  it('refuses a build without index.html and keeps serving the old one', () => {
    const outDir = tempDir();
    write(path.join(outDir, 'client', 'index.html'), 'v1');
    const served = prepareOutput(outDir);
    const built = path.join(outDir, 'vacio');
    fs.mkdirSync(built);
    expect(() => publishFull(outDir, built, served, null, 'k', 0)).toThrow(/sin generar index.html/);
    expect(currentBuild(outDir)).toBe(served);
  });
});
