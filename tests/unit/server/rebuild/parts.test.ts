import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FIRST_PART_SHARE, mergePart, parsePart, partEnv, partOutDir, partRenders } from '~/server/rebuild/parts.ts';
import { runBuild } from '~/server/rebuild/build-process.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});
function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parts-'));
  dirs.push(dir);
  return dir;
}
function write(file: string, text: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
}

describe('a build in parts', () => {
  it('reads "k/n" and nothing else', () => {
    expect(parsePart('1/2')).toEqual({ index: 1, count: 2 });
    expect(parsePart(' 0/3 ')).toEqual({ index: 0, count: 3 });
    for (const bad of [undefined, '', '2/2', '0/1', 'a/b', '1-2', '-1/2']) expect(parsePart(bad), String(bad)).toBeNull();
  });

  it('gives every product page to exactly one part (part 0 a smaller share), and everything else to part 0', () => {
    const ids = Array.from({ length: 6000 }, (_, i) => `pk-producto-${i}`);
    for (const count of [2, 3, 4]) {
      const perPart = new Array<number>(count).fill(0);
      for (const id of ids) {
        const owners = Array.from({ length: count }, (_, index) => index).filter((index) => partRenders({ index, count }, `/product/${id}`));
        expect(owners, id).toHaveLength(1);
        perPart[owners[0]!]!++;
      }
      const firstShare = FIRST_PART_SHARE / count;
      const otherShare = (1 - firstShare) / (count - 1);
      expect(Math.abs(perPart[0]! / ids.length - firstShare), `part 0 of ${count}`).toBeLessThan(0.03);
      for (const n of perPart.slice(1)) expect(Math.abs(n / ids.length - otherShare), `a part of ${count}`).toBeLessThan(0.03);
    }
    for (const file of ['/', '/franchise/pokemon/expansions/sv1/products', '/search/pi.json', '/explore/catalog.json']) {
      expect(partRenders({ index: 0, count: 2 }, file)).toBe(true);
      expect(partRenders({ index: 1, count: 2 }, file)).toBe(false);
    }
    expect(partRenders(null, '/product/x')).toBe(true);
  });

  it('builds each part into its own folder; only part 0 writes the manifest', () => {
    const since = new Date('2026-11-24T02:00:00.000Z');
    const env = partEnv({ CATALOG_BUILD_MANIFEST: '/m.json', KEEP: '1' }, '/p/dist', 1, 2, since);
    // The other parts render the catalogue copy part 0 saves for this build.
    expect(env).toMatchObject({ ASTRO_OUT_DIR: '/p/dist-part1', CATALOG_RENDER_PART: '1/2', KEEP: '1', CATALOG_PART_SNAPSHOT_SINCE: since.toISOString() });
    expect(env.CATALOG_BUILD_MANIFEST).toBeUndefined();
    const first = partEnv({ CATALOG_BUILD_MANIFEST: '/m.json', CATALOG_PART_SNAPSHOT_SINCE: 'viejo' }, '/p/dist', 0, 2, since);
    expect(first).toMatchObject({ ASTRO_OUT_DIR: '/p/dist', CATALOG_BUILD_MANIFEST: '/m.json' });
    expect(first.CATALOG_PART_SNAPSHOT_SINCE).toBeUndefined();
    expect(partOutDir('/p/dist', 0)).toBe('/p/dist');
  });

  it("moves another part's pages and new files in, keeps part 0's copies, and lists the pages moved", () => {
    const root = tempDir();
    const main = path.join(root, 'a');
    const other = path.join(root, 'b');
    write(path.join(main, 'index.html'), 'inicio 0');
    write(path.join(main, '_astro', 'app.123.js'), 'js');
    write(path.join(main, 'product', 'uno', 'index.html'), 'uno');
    write(path.join(other, 'index.html'), 'inicio 1');
    write(path.join(other, '_astro', 'app.123.js'), 'js otra');
    write(path.join(other, '_astro', 'extra.456.js'), 'extra');
    write(path.join(other, 'product', 'dos', 'index.html'), 'dos');
    write(path.join(other, 'product', 'tres', 'index.html'), 'tres');
    expect(mergePart(other, main)).toEqual(['/product/dos', '/product/tres']);
    expect(fs.readFileSync(path.join(main, 'index.html'), 'utf8')).toBe('inicio 0');
    expect(fs.readFileSync(path.join(main, '_astro', 'app.123.js'), 'utf8')).toBe('js');
    expect(fs.readFileSync(path.join(main, '_astro', 'extra.456.js'), 'utf8')).toBe('extra');
    expect(fs.readFileSync(path.join(main, 'product', 'dos', 'index.html'), 'utf8')).toBe('dos');
    expect(fs.readdirSync(path.join(main, 'product')).sort()).toEqual(['dos', 'tres', 'uno']);
  });

  it('runs the parts at once and merges them, with every page in the sitemap', async () => {
    const root = tempDir();
    const outDir = path.join(root, 'dist');
    // A stand-in for `astro build`: each part writes the fixed pages, its share of three products
    // and a sitemap of what it wrote, as @astrojs/sitemap does.
    const script = `
      const fs=require('fs'),p=require('path'),o=process.env.ASTRO_OUT_DIR,[k,n]=process.env.CATALOG_RENDER_PART.split('/').map(Number);
      fs.appendFileSync(process.env.STARTS,k+' ');
      if(k===0&&process.env.FAIL_EARLY) process.exit(4);
      console.log('[build] Building server entrypoints...');
      const w=(f,t)=>{fs.mkdirSync(p.dirname(p.join(o,'client',f)),{recursive:true});fs.writeFileSync(p.join(o,'client',f),t)};
      w('index.html','inicio '+k);
      const mine=['a','b','c'].filter((id,i)=>i%n===k);
      for(const id of mine) w('product/'+id+'/index.html','producto '+id);
      const urls=['/',...mine.map(id=>'/product/'+id+'/')].map(u=>'<url><loc>https://tienda.test'+u+'</loc></url>').join('');
      w('sitemap-0.xml','<?xml version="1.0" encoding="UTF-8"?><urlset>'+urls+'</urlset>');
      w('sitemap-index.xml','<?xml version="1.0" encoding="UTF-8"?><sitemapindex><sitemap><loc>https://tienda.test/sitemap-0.xml</loc></sitemap></sitemapindex>');
      if(k===1&&process.env.FAIL_PART) process.exit(2);`;
    const starts = path.join(root, 'starts.txt');
    await runBuild({ root, outDir, parts: 2, command: [process.execPath, '-e', script], env: { STARTS: starts } });
    // Part 1 started only after part 0 had said it was bundling (past writing .astro/).
    expect(fs.readFileSync(starts, 'utf8')).toBe('0 1 ');
    const client = path.join(outDir, 'client');
    expect(fs.readdirSync(path.join(client, 'product')).sort()).toEqual(['a', 'b', 'c']);
    expect(fs.readFileSync(path.join(client, 'index.html'), 'utf8')).toBe('inicio 0');
    const sitemap = fs.readFileSync(path.join(client, 'sitemap-0.xml'), 'utf8');
    for (const id of ['a', 'b', 'c']) expect(sitemap).toContain(`https://tienda.test/product/${id}/`);
    expect(fs.existsSync(partOutDir(outDir, 1))).toBe(false);

    // A failed part fails the build, and its folder goes too.
    const failing = path.join(root, 'dist2');
    await expect(
      runBuild({ root, outDir: failing, parts: 2, command: [process.execPath, '-e', script], env: { STARTS: starts, FAIL_PART: '1' } }),
    ).rejects.toThrow(/código 2/);
    expect(fs.existsSync(partOutDir(failing, 1))).toBe(false);

    // Part 0 failing before it bundles: the other parts are never started.
    fs.writeFileSync(starts, '');
    await expect(
      runBuild({ root, outDir: path.join(root, 'dist3'), parts: 2, command: [process.execPath, '-e', script], env: { STARTS: starts, FAIL_EARLY: '1' } }),
    ).rejects.toThrow(/código 4/);
    expect(fs.readFileSync(starts, 'utf8')).toBe('0 ');
  });
});
