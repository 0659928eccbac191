import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { RebuildManager } from '../../../support/rebuild-fakes.ts';
import { spawn } from 'node:child_process';
import { clientLink, currentBuild, manifestFile, OLD_BUILD_MS, prepareOutput } from '~/server/rebuild/served-folder.ts';
import { createBuilder, sourceCodeKey, type FastEditor, type PublishResult } from '~/server/rebuild/builder.ts';
import type { FastEditResult } from '~/server/rebuild/fast-edit.ts';
import { readManifest } from '~/server/rebuild/incremental.ts';

// The manifest's reader, watched: the builder parses the served manifest only for a build.
vi.mock('~/server/rebuild/incremental.ts', async (original) => {
  const actual = await original<typeof import('~/server/rebuild/incremental.ts')>();
  return { ...actual, readManifest: vi.fn(actual.readManifest) };
});

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

/** An output folder as `astro build` leaves it: client/ with pages, server/. */
function fakeOutput(): { root: string; outDir: string } {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'rebuild-'));
  dirs.push(root);
  const outDir = path.join(root, 'dist');
  fs.mkdirSync(path.join(outDir, 'client', 'product', 'viejo'), { recursive: true });
  fs.mkdirSync(path.join(outDir, 'server'));
  fs.writeFileSync(path.join(outDir, 'client', 'index.html'), 'v1');
  fs.writeFileSync(path.join(outDir, 'client', 'product', 'viejo', 'index.html'), 'viejo');
  return { root, outDir };
}

/** A build command that writes version into $ASTRO_OUT_DIR/client (or fails when told). */
function nodeBuild(script: string): string[] {
  return [process.execPath, '-e', script];
}

const read = (outDir: string, file: string) => fs.readFileSync(path.join(clientLink(outDir), file), 'utf8');

describe('catalogue output swapping', () => {
  it('turns the built client folder into a symlink without changing what is served', () => {
    const { outDir } = fakeOutput();
    const current = prepareOutput(outDir);
    expect(fs.lstatSync(clientLink(outDir)).isSymbolicLink()).toBe(true);
    expect(current).toBe(currentBuild(outDir));
    expect(read(outDir, 'index.html')).toBe('v1');
    // A second start keeps the same build.
    expect(prepareOutput(outDir)).toBe(current);
  });

  it('waits while another process prepares the same fresh folder, then serves what it made', async () => {
    const { outDir } = fakeOutput();
    // Another process holds the lock and converts the folder 300 ms later.
    fs.mkdirSync(path.join(outDir, '.prepare-lock'));
    const other = spawn(process.execPath, [
      '-e',
      `const fs=require('fs'),p=require('path'),o=${JSON.stringify(outDir)};setTimeout(()=>{` +
        `fs.mkdirSync(p.join(o,'builds','otro'),{recursive:true});fs.renameSync(p.join(o,'client'),p.join(o,'builds','otro','client'));` +
        `fs.symlinkSync(p.join('builds','otro','client'),p.join(o,'client'),'dir');fs.rmdirSync(p.join(o,'.prepare-lock'));},300);`,
    ]);
    const exited = new Promise((resolve) => other.once('exit', resolve));
    // Without the lock this start would find client/ still a folder and move it a second time.
    await new Promise((resolve) => setTimeout(resolve, 50));
    const current = prepareOutput(outDir);
    expect(await exited).toBe(0);
    expect(current).toBe(path.join(outDir, 'builds', 'otro', 'client'));
    expect(read(outDir, 'index.html')).toBe('v1');
    expect(fs.existsSync(path.join(outDir, '.prepare-lock'))).toBe(false);
  });

  it('two processes starting at once on a fresh folder both serve the one build', async () => {
    for (let round = 0; round < 3; round++) {
      const { outDir } = fakeOutput();
      const start = () =>
        new Promise<{ code: number | null; out: string }>((resolve) => {
          const child = spawn(process.execPath, [
            '--input-type=module',
            '-e',
            `const { prepareOutput } = await import(${JSON.stringify(path.resolve('src/server/rebuild/served-folder.ts'))});console.log(prepareOutput(${JSON.stringify(outDir)}));`,
          ]);
          let out = '';
          child.stdout.on('data', (chunk) => (out += chunk));
          child.stderr.on('data', (chunk) => (out += chunk));
          child.once('exit', (code) => resolve({ code, out: out.trim() }));
        });
      const [first, second] = await Promise.all([start(), start()]);
      expect(first.code, first.out).toBe(0);
      expect(second.code, second.out).toBe(0);
      expect(first.out).toBe(second.out);
      expect(read(outDir, 'index.html')).toBe('v1');
      expect(fs.readdirSync(path.join(outDir, 'builds'))).toHaveLength(1);
    }
  });

  it('at start, removes old builds but not one another process published moments ago', () => {
    const { outDir } = fakeOutput();
    const current = prepareOutput(outDir);
    const builds = path.join(outDir, 'builds');
    fs.mkdirSync(path.join(builds, 'recien', 'client'), { recursive: true });
    fs.mkdirSync(path.join(builds, 'viejo', 'client'), { recursive: true });
    const long = (Date.now() - OLD_BUILD_MS - 60_000) / 1000;
    fs.utimesSync(path.join(builds, 'viejo'), long, long);
    expect(prepareOutput(outDir)).toBe(current);
    expect(fs.readdirSync(builds).sort()).toEqual([path.basename(path.dirname(current)), 'recien'].sort());
  });

  it('publishes a successful build and removes the replaced one later', async () => {
    const { root, outDir } = fakeOutput();
    const first = prepareOutput(outDir);
    const build = createBuilder({
      root,
      outDir,
      keepOldMs: 0,
      command: nodeBuild(
        `const fs=require('fs'),p=require('path'),o=process.env.ASTRO_OUT_DIR;` +
          `fs.mkdirSync(p.join(o,'client','product','nuevo'),{recursive:true});` +
          `fs.writeFileSync(p.join(o,'client','index.html'),'v2');` +
          `fs.writeFileSync(p.join(o,'client','product','nuevo','index.html'),'nuevo');`,
      ),
    });
    await build();
    expect(read(outDir, 'index.html')).toBe('v2');
    expect(read(outDir, 'product/nuevo/index.html')).toBe('nuevo');
    expect(currentBuild(outDir)).not.toBe(first);
    expect(fs.existsSync(`${outDir}-rebuild`)).toBe(false);
    await new Promise((r) => setTimeout(r, 30));
    expect(fs.existsSync(first)).toBe(false);
  });

  it('keeps the replaced build’s hashed assets, so pages loaded before the swap and server pages still load them', async () => {
    const { root, outDir } = fakeOutput();
    fs.mkdirSync(path.join(outDir, 'client', '_astro'));
    fs.writeFileSync(path.join(outDir, 'client', '_astro', 'CheckoutApp.viejo.js'), 'viejo');
    fs.writeFileSync(path.join(outDir, 'client', '_astro', 'comun.abc.js'), 'comun');
    prepareOutput(outDir);
    const build = createBuilder({
      root,
      outDir,
      keepOldMs: 0,
      command: nodeBuild(
        `const fs=require('fs'),p=require('path'),o=process.env.ASTRO_OUT_DIR;` +
          `fs.mkdirSync(p.join(o,'client','_astro'),{recursive:true});` +
          `fs.writeFileSync(p.join(o,'client','index.html'),'v2');` +
          `fs.writeFileSync(p.join(o,'client','_astro','CheckoutApp.nuevo.js'),'nuevo');` +
          `fs.writeFileSync(p.join(o,'client','_astro','comun.abc.js'),'comun2');`,
      ),
    });
    await build();
    expect(read(outDir, 'index.html')).toBe('v2');
    expect(read(outDir, '_astro/CheckoutApp.nuevo.js')).toBe('nuevo');
    expect(read(outDir, '_astro/CheckoutApp.viejo.js')).toBe('viejo');
    // A name the new build has is never overwritten by the old file.
    expect(read(outDir, '_astro/comun.abc.js')).toBe('comun2');
    await new Promise((r) => setTimeout(r, 30));
    expect(read(outDir, '_astro/CheckoutApp.viejo.js')).toBe('viejo');
  });

  it('keeps serving the old tree and reports the error when the build fails', async () => {
    const { root, outDir } = fakeOutput();
    const first = prepareOutput(outDir);
    const manager = new RebuildManager(
      createBuilder({
        root,
        outDir,
        command: nodeBuild(
          `const fs=require('fs'),p=require('path'),o=process.env.ASTRO_OUT_DIR;` +
            `fs.mkdirSync(p.join(o,'client'),{recursive:true});fs.writeFileSync(p.join(o,'client','index.html'),'medio');` +
            `console.error('Error: no se pudo leer productos');process.exit(3);`,
        ),
      }),
    );
    manager.request('admin');
    await manager.idle();
    const status = manager.status();
    expect(status.failures).toBe(1);
    expect(status.lastError).toContain('código 3');
    expect(status.lastError).toContain('no se pudo leer productos');
    expect(currentBuild(outDir)).toBe(first);
    expect(read(outDir, 'index.html')).toBe('v1');
    expect(fs.existsSync(`${outDir}-rebuild`)).toBe(false);
  });

  it('refuses a build that produced no pages', async () => {
    const { root, outDir } = fakeOutput();
    prepareOutput(outDir);
    const build = createBuilder({ root, outDir, command: nodeBuild('') });
    await expect(build()).rejects.toThrow(/index\.html/);
    expect(read(outDir, 'index.html')).toBe('v1');
  });
});

describe('full or incremental', () => {
  // A build that writes pages stamped with `stamp` and the manifest an Astro build would: full
  // without CATALOG_PREVIOUS_MANIFEST, else incremental, rendering only /product/a.
  const script = (stamp: string) =>
    nodeBuild(
      `const fs=require('fs'),p=require('path'),o=process.env.ASTRO_OUT_DIR,inc=!!process.env.CATALOG_PREVIOUS_MANIFEST;` +
        `for (const f of ['index.html','product/a/index.html','product/b/index.html']) {fs.mkdirSync(p.dirname(p.join(o,'client',f)),{recursive:true});fs.writeFileSync(p.join(o,'client',f),'${stamp}:'+(process.env.CATALOG_CHANGED_IDS||''));}` +
        `fs.writeFileSync(process.env.CATALOG_BUILD_MANIFEST,JSON.stringify({v:1,mode:inc?'incremental':'full',reason:null,files:{'/':'1','/product/a':'${stamp}','/product/b':'1'},products:{a:'${stamp}',b:'1'},render:inc?['/product/a']:[],removed:[]}));`,
    );

  it('builds in full without a manifest, a changed code or ids, and with too many ids; else only the changed files', async () => {
    const { root, outDir } = fakeOutput();
    prepareOutput(outDir);
    let key = 'v1';
    let stamp = 'uno';
    const results: PublishResult[] = [];
    const builder = (s: string) => createBuilder({ root, outDir, keepOldMs: 0, maxChanged: 2, codeKey: () => key, command: script(s) }, (r) => results.push(r));

    // The served build has no manifest yet: full, and it leaves one.
    await builder(stamp)(undefined, { productIds: ['a'] });
    expect(results.at(-1)!.mode).toBe('full');
    const first = currentBuild(outDir)!;
    expect(fs.existsSync(manifestFile(first))).toBe(true);
    expect(read(outDir, 'product/b/index.html')).toBe('uno:');

    // Same code, one changed id: only /product/a is written into the served folder, in place.
    stamp = 'dos';
    await builder(stamp)(undefined, { productIds: ['a'] });
    expect(results.at(-1)).toMatchObject({ mode: 'incremental', written: ['product/a/index.html'] });
    expect(currentBuild(outDir)).toBe(first);
    expect(read(outDir, 'product/a/index.html')).toBe('dos:a');
    expect(read(outDir, 'product/b/index.html')).toBe('uno:');

    // No ids (the admin's 'Reconstruir ahora'): full.
    stamp = 'tres';
    await builder(stamp)(undefined, null);
    expect(results.at(-1)!.mode).toBe('full');
    expect(read(outDir, 'product/b/index.html')).toBe('tres:');

    // More ids than allowed: full.
    await builder('cuatro')(undefined, { productIds: ['a', 'b', 'c'] });
    expect(results.at(-1)!.mode).toBe('full');
    expect(read(outDir, 'product/b/index.html')).toBe('cuatro:');

    // The code changed: full, although one id would allow an incremental build.
    key = 'v2';
    await builder('cinco')(undefined, { productIds: ['a'] });
    expect(results.at(-1)).toMatchObject({ mode: 'full', reason: 'el código cambió' });
    expect(read(outDir, 'product/b/index.html')).toBe('cinco:');

    // And with that code served, the next change is incremental again.
    await builder('seis')(undefined, { productIds: ['a'] });
    expect(results.at(-1)!.mode).toBe('incremental');
    expect(read(outDir, 'product/a/index.html')).toBe('seis:a');
    expect(read(outDir, 'product/b/index.html')).toBe('cinco:');
  });
});

describe('an edit the running server publishes itself', () => {
  const script = (stamp: string) =>
    nodeBuild(
      `const fs=require('fs'),p=require('path'),o=process.env.ASTRO_OUT_DIR,inc=!!process.env.CATALOG_PREVIOUS_MANIFEST;` +
        `for (const f of ['index.html','product/a/index.html']) {fs.mkdirSync(p.dirname(p.join(o,'client',f)),{recursive:true});fs.writeFileSync(p.join(o,'client',f),'${stamp}');}` +
        `fs.writeFileSync(process.env.CATALOG_BUILD_MANIFEST,JSON.stringify({v:1,mode:inc?'incremental':'full',reason:null,files:{'/':'1','/product/a':'${stamp}'},products:{a:'${stamp}'},render:inc?['/product/a']:[],removed:[]}));`,
    );

  it('asks the server first when its code is the served code, and builds only when it cannot or fails', async () => {
    const { root, outDir } = fakeOutput();
    prepareOutput(outDir);
    const results: PublishResult[] = [];
    const asked: string[][] = [];
    let answer: () => Promise<FastEditResult> = async () => ({
      mode: 'fast',
      written: ['product/a/index.html'],
      removed: [],
      ms: 12,
      steps: { render: 5 },
      searchFollows: false,
    });
    const calls: string[] = [];
    const fastEdit: FastEditor = {
      codeKey: 'v1',
      publish: (ids) => {
        asked.push(ids);
        return answer();
      },
      warm: async () => void calls.push('warm'),
      adopt: async () => void calls.push('adopt'),
    };
    const builder = (stamp: string, editor: FastEditor) =>
      createBuilder({ root, outDir, keepOldMs: 0, codeKey: () => 'v1', command: script(stamp), fastEdit: editor }, (r) => results.push(r));

    // No manifest yet: a full build, and the server is not asked.
    await builder('uno', fastEdit)(undefined, { productIds: ['a'] });
    expect(results.at(-1)!.mode).toBe('full');
    expect(asked).toEqual([]);

    // Same code everywhere: the server publishes it and nothing is built; the served manifest
    // is the server's to read (15 MB at 100,000 products), not parsed here before every edit.
    vi.mocked(readManifest).mockClear();
    await builder('dos', fastEdit)(undefined, { productIds: ['a'] });
    expect(asked).toEqual([['a']]);
    expect(readManifest).not.toHaveBeenCalled();
    expect(results.at(-1)).toEqual({ mode: 'fast', reason: null, written: ['product/a/index.html'], removed: [] });
    expect(read(outDir, 'product/a/index.html')).toBe('uno');

    // A rename changes the header search's files: the server publishes the pages, then a build writes the rest.
    answer = async () => ({ mode: 'fast', written: ['product/a/index.html'], removed: [], ms: 12, steps: { render: 5 }, searchFollows: true });
    const before = results.length;
    await builder('dos-b', fastEdit)(undefined, { productIds: ['a'] });
    expect(results.slice(before).map((r) => r.mode)).toEqual(['fast', 'incremental']);
    expect(read(outDir, 'product/a/index.html')).toBe('dos-b');
    // That build made its pages from the server's catalogue: the server keeps it instead of reading it again.
    expect(calls.at(-1)).toBe('adopt');

    // The server cannot (a product appeared): an incremental build.
    answer = async () => ({ mode: 'fallback', reason: 'un producto aparece o deja de mostrarse' });
    await builder('tres', fastEdit)(undefined, { productIds: ['a'] });
    expect(results.at(-1)!.mode).toBe('incremental');
    expect(read(outDir, 'product/a/index.html')).toBe('tres');
    // Any other build: the server reads the catalogue it published.
    expect(calls.at(-1)).toBe('warm');

    // The server fails: built all the same.
    answer = async () => {
      throw new Error('HTTP 502');
    };
    await builder('cuatro', fastEdit)(undefined, { productIds: ['a'] });
    expect(results.at(-1)!.mode).toBe('incremental');
    expect(read(outDir, 'product/a/index.html')).toBe('cuatro');

    // A server bundle of other code is never asked.
    const count = asked.length;
    await builder('cinco', { ...fastEdit, codeKey: 'v0' })(undefined, { productIds: ['a'] });
    expect(asked.length).toBe(count);
    expect(results.at(-1)!.mode).toBe('incremental');

    // A manifest that is there but cannot be read: the server leaves the edit to a build, which
    // is full, as without one.
    fs.writeFileSync(manifestFile(currentBuild(outDir)!), 'no es JSON');
    answer = async () => ({ mode: 'fallback', reason: 'no hay manifiesto de la compilación servida' });
    await builder('seis', fastEdit)(undefined, { productIds: ['a'] });
    expect(asked.at(-1)).toEqual(['a']);
    expect(results.at(-1)).toMatchObject({ mode: 'full', reason: 'no hay manifiesto de la compilación servida' });
    expect(read(outDir, 'product/a/index.html')).toBe('seis');
    expect(readManifest(manifestFile(currentBuild(outDir)!))).toMatchObject({ mode: 'full' });
  });
});

describe('the code a build was made from', () => {
  it('changes with any file under src/, astro.config.mjs or the lock file, and with nothing else', () => {
    const { root } = fakeOutput();
    fs.mkdirSync(path.join(root, 'src', 'pages'), { recursive: true });
    fs.writeFileSync(path.join(root, 'src', 'pages', 'index.astro'), '<h1>Hola</h1>');
    fs.writeFileSync(path.join(root, 'astro.config.mjs'), 'export default {}');
    const first = sourceCodeKey(root);
    expect(sourceCodeKey(root)).toBe(first);
    // The output and the data are not code.
    fs.writeFileSync(path.join(root, 'dist', 'client', 'index.html'), 'otra');
    expect(sourceCodeKey(root)).toBe(first);
    fs.writeFileSync(path.join(root, 'src', 'pages', 'index.astro'), '<h1>Hola!</h1>');
    const second = sourceCodeKey(root);
    expect(second).not.toBe(first);
    fs.writeFileSync(path.join(root, 'package-lock.json'), '{}');
    expect(sourceCodeKey(root)).not.toBe(second);
  });
});
