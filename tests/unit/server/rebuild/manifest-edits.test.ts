/**
 * The edits the running server appends beside its build's manifest
 * (src/server/rebuild/manifest-edits.ts): read back with the manifest by every reader
 * (readManifest), left out once the manifest is written again, cut short safely, and folded into
 * the manifest once they grow past their most.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readManifest, writeManifest, type BuildManifest } from '~/server/rebuild/incremental.ts';
import { MANIFEST_EDITS_MOST_BYTES, manifestEditsFile, manifestSignature, writeManifestEdit } from '~/server/rebuild/manifest-edits.ts';

let dir = '';
let file = '';

const built = (): BuildManifest => ({
  v: 1,
  mode: 'full',
  reason: null,
  files: { '/': 'inicio-1', '/product/a': 'a-1', '/product/b': 'b-1', '/search/p.json': 'p-1' },
  products: { a: 'da-1', b: 'db-1' },
  render: [],
  removed: [],
});

/** The edit of `manifest` that sets these entries (null removes a file), as fast-edit.ts makes it. */
function edit(manifest: BuildManifest, files: Record<string, string | null>, products: Record<string, string>, searchBehind = false) {
  for (const [key, value] of Object.entries(files)) {
    if (value === null) delete manifest.files[key];
    else manifest.files[key] = value;
  }
  Object.assign(manifest.products, products);
  manifest.mode = 'incremental';
  manifest.render = Object.keys(files).filter((key) => files[key] !== null);
  manifest.removed = Object.keys(files).filter((key) => files[key] === null);
  if (searchBehind) manifest.searchBehind = true;
  else delete manifest.searchBehind;
  return { files: new Set(Object.keys(files)), products: new Set(Object.keys(products)) };
}

const noWhole = async (): Promise<Buffer[]> => {
  throw new Error('the manifest is not written whole');
};

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'manifest-edits-'));
  file = path.join(dir, 'catalog-manifest.json');
  writeManifest(file, built());
});

afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("a manifest's edits", () => {
  it('are read with the manifest, in order, while the manifest file stays as written', async () => {
    const text = fs.readFileSync(file, 'utf8');
    const kept = readManifest(file)!;
    const signature = manifestSignature(file);
    await writeManifestEdit(file, kept, edit(kept, { '/product/a': 'a-2', '/search/q.json': 'q-1', '/search/p.json': null }, { a: 'da-2' }, true), noWhole);
    expect(manifestSignature(file)).not.toBe(signature);
    await writeManifestEdit(file, kept, edit(kept, { '/product/a': 'a-3', '/product/b': 'b-2' }, { a: 'da-3', b: 'db-2' }), noWhole);

    expect(fs.readFileSync(file, 'utf8')).toBe(text);
    expect(fs.readFileSync(manifestEditsFile(file), 'utf8').split('\n').filter(Boolean)).toHaveLength(2);
    const read = readManifest(file)!;
    expect(read).toEqual(kept);
    expect(read.files).toEqual({ '/': 'inicio-1', '/product/a': 'a-3', '/product/b': 'b-2', '/search/q.json': 'q-1' });
    expect(read.products).toEqual({ a: 'da-3', b: 'db-2' });
    expect(read).toMatchObject({ mode: 'incremental', render: ['/product/a', '/product/b'], removed: [] });
    // The first edit's mark for the build that follows is the second's to keep or drop.
    expect(read.searchBehind).toBeUndefined();
  });

  it('are left out once the manifest is written again, by a build or by any other writer', async () => {
    const kept = readManifest(file)!;
    await writeManifestEdit(file, kept, edit(kept, { '/product/a': 'a-2' }, { a: 'da-2' }), noWhole);
    expect(readManifest(file)!.files['/product/a']).toBe('a-2');
    // A build writes its manifest: the edits file goes.
    writeManifest(file, built());
    expect(fs.existsSync(manifestEditsFile(file))).toBe(false);
    expect(readManifest(file)!.files['/product/a']).toBe('a-1');

    // Another writer replaces the manifest and leaves the edits beside it: they name the old one.
    const again = readManifest(file)!;
    await writeManifestEdit(file, again, edit(again, { '/product/b': 'b-9' }, { b: 'db-9' }), noWhole);
    const temp = `${file}.otro`;
    fs.writeFileSync(temp, JSON.stringify(built()));
    fs.renameSync(temp, file);
    expect(fs.existsSync(manifestEditsFile(file))).toBe(true);
    expect(readManifest(file)).toEqual(built());
    // An edit after it counts again.
    const fresh = readManifest(file)!;
    await writeManifestEdit(file, fresh, edit(fresh, { '/product/b': 'b-3' }, { b: 'db-3' }), noWhole);
    expect(readManifest(file)!.files['/product/b']).toBe('b-3');
  });

  it('a line cut short is skipped, without failing the manifest or hiding the edits after it', async () => {
    const kept = readManifest(file)!;
    await writeManifestEdit(file, kept, edit(kept, { '/product/a': 'a-2' }, { a: 'da-2' }), noWhole);
    // A write under way, or one a crash cut short.
    fs.appendFileSync(manifestEditsFile(file), '{"base":"1:2:3","mode":"incre');
    let read = readManifest(file)!;
    expect(read.files['/product/a']).toBe('a-2');
    expect(read.products.a).toBe('da-2');
    await writeManifestEdit(file, kept, edit(kept, { '/product/b': 'b-2' }, { b: 'db-2' }), noWhole);
    read = readManifest(file)!;
    expect(read).toEqual(kept);
    expect(read.files['/product/b']).toBe('b-2');
  });

  it('past their most, the manifest is written whole again with every edit, and they start over', async () => {
    const kept = readManifest(file)!;
    // Edits of about a kilobyte each, until their file is past the most.
    let n = 0;
    while ((fs.statSync(manifestEditsFile(file), { throwIfNoEntry: false })?.size ?? 0) <= MANIFEST_EDITS_MOST_BYTES) {
      n += 1;
      await writeManifestEdit(file, kept, edit(kept, { [`/product/p${n}`]: 'x'.repeat(1000) }, { [`p${n}`]: `d${n}` }), noWhole);
    }
    const inode = fs.statSync(file).ino;
    let wholeAsked = 0;
    await writeManifestEdit(file, kept, edit(kept, { '/product/a': 'a-2' }, { a: 'da-2' }), async () => {
      wholeAsked += 1;
      return [Buffer.from(JSON.stringify(kept))];
    });
    expect(wholeAsked).toBe(1);
    expect(fs.existsSync(manifestEditsFile(file))).toBe(false);
    expect(fs.statSync(file).ino).not.toBe(inode);
    const read = readManifest(file)!;
    expect(read).toEqual(kept);
    expect(read.files[`/product/p${n}`]).toHaveLength(1000);
    expect(read.files['/product/a']).toBe('a-2');
  });
});
