/**
 * /explore's catalogue file read one entry at a time (src/server/explore/catalog-file.ts): the
 * same data as parsing it whole, and read again, the objects of the entries whose bytes did not
 * change, with only the others parsed; with the edits written beside it, the catalogue an edit
 * would have written whole.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseExploreData, toExploreProduct, type ExploreData } from '~/domain/explore.ts';
import { parseProduct } from '~/domain/product-schema.ts';
import { placesMade, readCatalogFile, readCatalogWithEdits } from '~/server/explore/catalog-file.ts';
import { fileIdentity } from '~/server/explore/catalog-edits.ts';

function product(id: string, name: string, extra: Record<string, unknown> = {}) {
  const parsed = parseProduct({ id, name, price: 150, stock: 3, franchise_id: 'one-piece', product_type_id: 'op-booster-box', ...extra });
  if (!parsed) throw new Error(id);
  return toExploreProduct(parsed, `https://img.test/${id}.webp`);
}

/** A catalogue as the build writes it (src/server/snapshot/catalog-files.ts exploreJson). */
function file(products: unknown[], options: Partial<ExploreData> = {}, readFrom?: string): Buffer {
  return Buffer.from(
    JSON.stringify({
      franchises: [{ id: 'one-piece', name: 'One Piece' }],
      expansions: [],
      types: [{ id: 'op-booster-box', name: 'Caja de sobres', franchiseId: 'one-piece' }],
      ...options,
      products,
      ...(readFrom ? { readFrom } : {}),
    }),
  );
}

const products = [
  product('op-01', 'Caja OP-01 Romance Dawn'),
  // A name with the bytes that separate two entries: inside a string its quotes are escaped.
  product('op-02', 'Caja "rara" },{"id": OP-02'),
  { id: 'roto', name: 'Sin precio' },
  product('op-03', 'Caja OP-03 Pillars of Strength', { stock: 0 }),
];

describe('readCatalogFile', () => {
  it('reads what parsing the whole file reads, readFrom and a refused entry included', () => {
    for (const bytes of [
      file(products),
      file(products, {}, '2026-12-01T03:00:00.000Z'),
      file([]),
      Buffer.from(JSON.stringify(JSON.parse(file(products).toString()), null, 2)),
    ]) {
      const read = readCatalogFile(bytes)!;
      expect(read.data).toEqual(parseExploreData(JSON.parse(bytes.toString())));
    }
    expect(readCatalogFile(file(products))!.data.products.map((p) => p.id)).toEqual(['op-01', 'op-02', 'op-03']);
    expect(readCatalogFile(Buffer.from('{"franchises":[]}'))).toBeNull();
  });

  it('read again, keeps the objects of the entries that did not change, and parses the others', () => {
    const first = readCatalogFile(file(products))!;
    // The server changed a stock in place since (live stock): the entry's bytes are the same, so
    // the object it serves now stays, and the server reads the rest of what changed itself.
    first.data.products[0]!.stock = 1;
    const edited = [...products];
    edited[1] = product('op-02', 'Caja OP-02 Paramount War');
    const second = readCatalogFile(file(edited, {}, '2026-12-01T03:00:00.000Z'), first)!;
    expect(second.data).toEqual({
      ...parseExploreData(JSON.parse(file(edited).toString()))!,
      products: second.data.products,
      readFrom: '2026-12-01T03:00:00.000Z',
    });
    expect(second.data.products[0]).toBe(first.data.products[0]);
    expect(second.data.products[2]).toBe(first.data.products[2]);
    expect(second.data.products[1]).not.toBe(first.data.products[1]);
    expect(second.data.products[1]!.name).toBe('Caja OP-02 Paramount War');
    // Its tags are read as a first read reads them.
    expect(second.data.products[1]).toEqual(readCatalogFile(file(edited))!.data.products[1]);

    // A product more or less moves the entries after it: those are parsed again.
    const shorter = readCatalogFile(file([products[0], products[3]]), second)!;
    expect(shorter.data.products[0]).toBe(second.data.products[0]);
    expect(shorter.data.products[1]).not.toBe(second.data.products[2]);
    expect(shorter.data.products.map((p) => p.id)).toEqual(['op-01', 'op-03']);

    // Other options (a franchise renamed: the tags may differ): every entry is parsed again.
    const renamed = readCatalogFile(file(products, { franchises: [{ id: 'one-piece', name: 'One Piece TCG' }] }), first)!;
    expect(renamed.data.products.some((p, i) => p === first.data.products[i])).toBe(false);
  });
});

describe('readCatalogWithEdits', () => {
  /** A served folder with the catalogue written as a build writes it. */
  function folder(): { dir: string; catalog: string; edits: string } {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'explore-edits-'));
    fs.mkdirSync(path.join(dir, 'explore'));
    const catalog = path.join(dir, 'explore', 'catalog.json');
    fs.writeFileSync(catalog, file(products));
    return { dir, catalog, edits: path.join(dir, 'explore', 'catalog-edits.json') };
  }
  const editsFor = (catalog: string, entries: unknown[]) => JSON.stringify({ base: fileIdentity(fs.statSync(catalog)), products: entries });

  it("serves each edited entry in its product's place, keeps the catalogue's other objects, and does not read the catalogue again", async () => {
    const { dir, catalog, edits } = folder();
    try {
      const first = (await readCatalogWithEdits(catalog))!;
      expect(first.data).toEqual(readCatalogFile(file(products))!.data);
      // Where each product is, made with the read: the first edit does not go over the catalogue for it.
      expect(placesMade(first.file)).toBe(true);
      expect(placesMade(readCatalogFile(file(products))!)).toBe(false);
      const renamed = product('op-02', 'Caja OP-02 Paramount War', { price: 180 });
      fs.writeFileSync(edits, editsFor(catalog, [renamed]));
      const second = (await readCatalogWithEdits(catalog, first))!;
      // As the catalogue written whole with the edit would read.
      expect(second.data).toEqual(readCatalogFile(file([products[0], renamed, products[2], products[3]]))!.data);
      expect(second.file).toBe(first.file);
      expect(second.data.products[0]).toBe(first.data.products[0]);
      expect(second.data.products[2]).toBe(first.data.products[2]);
      // The one product placed anew since the first read: what the server compares, instead of every product.
      expect(second.replaced).toEqual([second.data.products[1]]);
      // As old as the catalogue, not the edits: its other products were read when it was written.
      expect(second.madeAt).toBe(fs.statSync(catalog).mtimeMs);

      // Another edit: the entry that did not change keeps the object served (live), the new one is read.
      const third = (await readCatalogWithEdits(catalog, second))!;
      expect(third.data.products[1]).toBe(second.data.products[1]);
      expect(third.replaced).toEqual([]);
      const soldOut = product('op-01', 'Caja OP-01 Romance Dawn', { stock: 0 });
      fs.writeFileSync(edits, editsFor(catalog, [renamed, soldOut]));
      const fourth = (await readCatalogWithEdits(catalog, third))!;
      expect(fourth.data.products[1]).toBe(third.data.products[1]);
      expect(fourth.data.products[0]).toMatchObject({ id: 'op-01', stock: 0 });
      expect(fourth.data.products.map((p) => p.id)).toEqual(['op-01', 'op-02', 'op-03']);
      expect(fourth.replaced).toEqual([fourth.data.products[0]]);
      expect(fourth.replaced![0]).not.toBe(third.data.products[0]);
      // Read with no previous read, the same catalogue, compared whole.
      const fresh = (await readCatalogWithEdits(catalog))!;
      expect(fresh.data).toEqual(fourth.data);
      expect(fresh.replaced).toBeNull();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('leaves out an edited entry that is not a product, and places the entries again once it is one', async () => {
    const { dir, catalog, edits } = folder();
    try {
      const first = (await readCatalogWithEdits(catalog))!;
      fs.writeFileSync(edits, editsFor(catalog, [{ id: 'op-03', name: 'Sin precio' }]));
      const second = (await readCatalogWithEdits(catalog, first))!;
      expect(second.data.products.map((p) => p.id)).toEqual(['op-01', 'op-02']);
      expect(second.replaced).toBeNull();
      const back = product('op-03', 'Caja OP-03 Pillars of Strength', { price: 210 });
      fs.writeFileSync(edits, editsFor(catalog, [back]));
      const third = (await readCatalogWithEdits(catalog, second))!;
      expect(third.data).toEqual(readCatalogFile(file([products[0], products[1], products[2], back]))!.data);
      expect(third.data.products[0]).toBe(first.data.products[0]);
      expect(third.replaced).toBeNull();
      // From a read that holds every entry, an edit is placed again.
      const renamed = product('op-01', 'Caja OP-01 Romance Dawn (reimpresión)');
      fs.writeFileSync(edits, editsFor(catalog, [back, renamed]));
      const fourth = (await readCatalogWithEdits(catalog, third))!;
      expect(fourth.data).toEqual(readCatalogFile(file([renamed, products[1], products[2], back]))!.data);
      expect(fourth.replaced).toEqual([fourth.data.products[0]]);
      expect(fourth.data.products[2]).toBe(third.data.products[2]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('leaves out edits written for another catalogue file, and a file that is not edits', async () => {
    const { dir, catalog, edits } = folder();
    try {
      fs.writeFileSync(edits, editsFor(catalog, [product('op-02', 'Caja OP-02 Paramount War')]));
      // A build wrote the catalogue again: another file, whatever its bytes.
      fs.rmSync(catalog);
      fs.writeFileSync(catalog, file(products));
      const read = (await readCatalogWithEdits(catalog))!;
      expect(read.data).toEqual(readCatalogFile(file(products))!.data);
      fs.writeFileSync(edits, 'no es JSON');
      expect((await readCatalogWithEdits(catalog, read))!.data).toEqual(read.data);
      fs.writeFileSync(catalog, '{"franchises":[]}');
      expect(await readCatalogWithEdits(catalog)).toBeNull();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
