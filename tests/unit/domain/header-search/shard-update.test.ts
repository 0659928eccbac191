import { describe, expect, it } from 'vitest';
import { decodeId, type IndexedProduct } from '~/domain/header-search/format.ts';
import { buildSearchShards, phrasePath, shardPath, shardSource, type SearchNodeFile, type SearchShardFile } from '~/domain/header-search/shards.ts';
import { prepareSearchUpdate, updateSearchShards as updateInSteps, type ServedShards, type ShardEdit } from '~/domain/header-search/shard-update.ts';
import { runSteps } from '~/domain/steps.ts';
import { stepped } from '../../../support/steps.ts';
import { cardText, catalogTags } from '~/domain/name-matching/matching.ts';
import { fakeCatalog, seededRandom } from '../name-matching/fake-catalog';

const STORAGE = 'https://x.supabase.co';
const LIMIT = 60;
const PHRASES = ['Caja de sobres', 'Sobre', 'One Piece', 'Pokémon', 'Elite Trainer Box'];

/** A made-up catalogue with singles (card text) and tags, as the build indexes it. */
function catalogue(count: number, seed: number): IndexedProduct[] {
  return fakeCatalog(count, seed).map((p, i) => ({
    id: p.id,
    name: p.name,
    image: p.image,
    ...(i % 3 === 0 ? { card: cardText(p.name, `op0${i % 9}${String(i).padStart(3, '0')}`, [p.name.split(' ')[0], null]) } : {}),
    tags: catalogTags(p.name, [p.franchiseId.replace('-', ' '), p.typeId.replace('-', ' ')]),
  }));
}

/** The files as a server holds them: read through JSON, as they are on disk. */
function servedFrom(files: Map<string, SearchShardFile>): ServedShards & { reads: string[] } {
  const reads: string[] = [];
  return {
    reads,
    kind(urlPath) {
      const file = files.get(urlPath);
      return file ? (file.v === 1 ? 'leaf' : file.v === 2 ? 'node' : null) : null;
    },
    node(urlPath) {
      reads.push(urlPath);
      const file = files.get(urlPath);
      return file?.v === 2 ? (JSON.parse(JSON.stringify(file)) as SearchNodeFile) : null;
    },
  };
}

/** The served files with an update applied. */
function applied(files: Map<string, SearchShardFile>, update: { files: Map<string, SearchShardFile>; removed: string[] }) {
  const out = new Map(files);
  for (const urlPath of update.removed) out.delete(urlPath);
  for (const [urlPath, file] of update.files) out.set(urlPath, file);
  return out;
}

/** The update run at once, as a build runs it. */
function updateSearchShards(...args: Parameters<typeof updateInSteps>) {
  return runSteps(updateInSteps(...args));
}

function asText(files: Map<string, SearchShardFile>): Map<string, string> {
  return new Map([...files].map(([urlPath, file]) => [urlPath, JSON.stringify(file)]));
}

/** `products` with `after` in the place of the product of its id, and the update of `files` (served) for that edit. */
function editOne(products: IndexedProduct[], files: Map<string, SearchShardFile>, after: IndexedProduct, served = servedFrom(files)) {
  const before = products.find((product) => product.id === after.id)!;
  const next = products.map((product) => (product.id === after.id ? after : product));
  return { next, update: updateSearchShards(next, [{ before, after }], served, STORAGE, LIMIT, PHRASES) };
}

/** One random edit of a product: a new name (words of another product's), a picture, card text or tags. */
function edit(product: IndexedProduct, other: IndexedProduct, random: () => number): IndexedProduct {
  const roll = random();
  if (roll < 0.5) {
    const words = other.name.split(' ');
    const cut = 1 + Math.floor(random() * (words.length - 1));
    return { ...product, name: `${words.slice(0, cut).join(' ')} ${product.name.split(' ').slice(-2).join(' ')} Zq${Math.floor(random() * 50)}` };
  }
  if (roll < 0.7) return { ...product, image: `products/${product.id}-${Math.floor(random() * 9)}.webp` };
  if (roll < 0.85) return { ...product, card: product.card ? '' : cardText(product.name, 'xy99042', ['Otro nombre', null]) };
  return { ...product, tags: product.tags ? '' : 'etiqueta nueva' };
}

describe('updateSearchShards', () => {
  it('in steps, pauses between the files it makes and ends with the same files as at once', () => {
    const products = catalogue(1000, 3);
    const files = buildSearchShards(products, STORAGE, LIMIT, PHRASES);
    const before = products[7]!;
    const after = { ...before, name: `Caja de sobres ${before.name}` };
    const next = products.map((product) => (product.id === after.id ? after : product));
    const whole = updateSearchShards(next, [{ before, after }], servedFrom(files), STORAGE, LIMIT, PHRASES)!;
    const { pauses, value } = stepped(updateInSteps(next, [{ before, after }], servedFrom(files), STORAGE, LIMIT, PHRASES));
    const update = value!;
    // A pause after each node it walks (a subtree grown whole is one step): most of its files.
    expect(update.files.size).toBeGreaterThan(100);
    expect(pauses).toBeGreaterThan(update.files.size / 2);
    expect(asText(update.files)).toEqual(asText(whole.files));
    expect(update.removed).toEqual(whole.removed);
  });

  it('writes, for random edits, exactly the files a whole build writes for the catalogue after them', () => {
    const random = seededRandom(11);
    let products = catalogue(1000, 3);
    let files = buildSearchShards(products, STORAGE, LIMIT, PHRASES);
    let updated = 0;
    let fallbacks = 0;
    for (let round = 0; round < 40; round++) {
      const picked = new Set<number>();
      const many = 1 + Math.floor(random() * 3);
      while (picked.size < many) picked.add(Math.floor(random() * products.length));
      const edits: ShardEdit[] = [...picked].map((i) => ({
        before: products[i]!,
        after: edit(products[i]!, products[Math.floor(random() * products.length)]!, random),
      }));
      const next = products.map((product) => edits.find((e) => e.before.id === product.id)?.after ?? product);
      const whole = buildSearchShards(next, STORAGE, LIMIT, PHRASES);
      const update = updateSearchShards(next, edits, servedFrom(files), STORAGE, LIMIT, PHRASES);
      if (update) {
        updated += 1;
        expect(asText(applied(files, update))).toEqual(asText(whole));
        // Only a part of the tree is made again.
        expect(update.files.size).toBeLessThan(whole.size);
      } else {
        fallbacks += 1;
      }
      products = next;
      files = whole;
    }
    // Leaves growing into nodes and nodes falling into leaves included: no edit needs a whole build.
    expect(fallbacks).toBe(0);
    expect(updated).toBe(40);
  });

  it('carries its order, columns and word lists from one update to the next, through edits, a new order of the same rows and rows read again', () => {
    const random = seededRandom(21);
    let products = catalogue(1200, 5);
    let files = buildSearchShards(products, STORAGE, LIMIT, PHRASES);
    for (let round = 0; round < 24; round++) {
      const i = Math.floor(random() * products.length);
      const after = edit(products[i]!, products[Math.floor(random() * products.length)]!, random);
      const edits: ShardEdit[] = [{ before: products[i]!, after }];
      let next = products.map((product) => (product.id === after.id ? after : product));
      // Now and then the catalogue comes in another order (two rows swapped, or all), or as new
      // objects of the same rows.
      if (round % 6 === 1) [next[3], next[i]] = [next[i]!, next[3]!];
      if (round % 6 === 2) next = [...next.slice(500), ...next.slice(0, 500)].reverse();
      if (round % 6 === 4) next = next.map((product) => ({ ...product }));
      const whole = buildSearchShards(next, STORAGE, LIMIT, PHRASES);
      const update = updateSearchShards(next, edits, servedFrom(files), STORAGE, LIMIT, PHRASES);
      expect(update).not.toBeNull();
      expect(asText(applied(files, update!))).toEqual(asText(whole));
      products = next;
      files = whole;
    }
  });

  it("makes a phrase's answer again as a whole build does when an edited product is among its results, sealed or a single, update after update", () => {
    const limits = { leaf: LIMIT, whole: 200 };
    let products = catalogue(2000, 13);
    let files = buildSearchShards(products, STORAGE, limits, PHRASES);
    runSteps(prepareSearchUpdate(products, STORAGE, limits));
    let singles = 0;
    for (let round = 0; round < 8; round++) {
      const phrases = (files.get(shardPath('')) as SearchNodeFile).phrases ?? [];
      expect(phrases.length).toBeGreaterThan(1);
      const phrase = phrases[round % phrases.length]!;
      const answer = files.get(phrasePath(phrase)) as SearchNodeFile;
      const shown = answer.results.ids.map((id, k) => products.find((product) => product.id === decodeId(id, answer.results.names[k]!))!);
      // A sealed product in the even rounds, a single (card text) in the odd ones when the answer shows one.
      const before = shown.find((product) => (round % 2 === 0) === !product.card) ?? shown[0]!;
      if (before.card) singles += 1;
      // To another place in the answer: first, or among those with a word starting with it.
      const after = { ...before, name: round % 4 < 2 ? `${phrase} Zq ${round}` : `Zq ${round} ${before.name}` };
      const next = products.map((product) => (product.id === after.id ? after : product));
      const update = updateSearchShards(next, [{ before, after }], servedFrom(files), STORAGE, limits, PHRASES)!;
      expect(update.files.has(phrasePath(phrase))).toBe(true);
      const whole = buildSearchShards(next, STORAGE, limits, PHRASES);
      expect(asText(applied(files, update))).toEqual(asText(whole));
      products = next;
      files = whole;
    }
    expect(singles).toBeGreaterThan(0);
  });

  it('with leaves smaller than the whole index in one file, writes for random edits the files a whole build writes', () => {
    const random = seededRandom(12);
    const limits = { leaf: LIMIT, whole: 300 };
    let products = catalogue(1000, 4);
    let files = buildSearchShards(products, STORAGE, limits, PHRASES);
    expect([...files.keys()].filter((path) => path.startsWith('/search/all-')).length).toBeGreaterThan(1);
    for (let round = 0; round < 10; round++) {
      const i = Math.floor(random() * products.length);
      const edits: ShardEdit[] = [{ before: products[i]!, after: edit(products[i]!, products[Math.floor(random() * products.length)]!, random) }];
      const next = products.map((product) => (product.id === edits[0]!.before.id ? edits[0]!.after : product));
      const whole = buildSearchShards(next, STORAGE, limits, PHRASES);
      const update = updateSearchShards(next, edits, servedFrom(files), STORAGE, limits, PHRASES);
      expect(update).not.toBeNull();
      expect(asText(applied(files, update!))).toEqual(asText(whole));
      products = next;
      files = whole;
    }
  });

  it('prepares the parts of the whole index, and the first update after gives back the same objects for the parts it leaves', () => {
    const limits = { leaf: LIMIT, whole: 200 };
    // An index in one file has no parts to prepare.
    expect(runSteps(prepareSearchUpdate(catalogue(150, 3), STORAGE, limits))).toEqual([]);
    const products = catalogue(1000, 9);
    const files = buildSearchShards(products, STORAGE, limits, PHRASES);
    const prepared = runSteps(prepareSearchUpdate(products, STORAGE, limits));
    const parts = [...files].filter(([urlPath]) => urlPath.startsWith('/search/all-'));
    expect(parts.length).toBeGreaterThan(2);
    expect(asText(new Map(prepared))).toEqual(asText(new Map(parts)));
    // A new picture: the product keeps its place, and only its part is made again.
    const before = products[500]!;
    const after = { ...before, image: `${before.image}?v=2` };
    const next = products.map((product) => (product.id === after.id ? after : product));
    const update = updateSearchShards(next, [{ before, after }], servedFrom(files), STORAGE, limits, PHRASES)!;
    const kept = prepared.filter(([urlPath, file]) => update.files.get(urlPath) === file).map(([urlPath]) => urlPath);
    const remade = prepared.map(([urlPath]) => urlPath).filter((urlPath) => !kept.includes(urlPath));
    expect(remade).toHaveLength(1);
    expect(JSON.stringify(update.files.get(remade[0]!))).not.toBe(JSON.stringify(new Map(prepared).get(remade[0]!)));
    expect(asText(applied(files, update))).toEqual(asText(buildSearchShards(next, STORAGE, limits, PHRASES)));
  });

  it('adds a leaf for a continuation nobody had', () => {
    const products = catalogue(800, 5);
    const files = buildSearchShards(products, STORAGE, LIMIT, PHRASES);
    const target = products[10]!;
    // No name of the catalogue has an 'ω': the root gains a continuation, and the renamed product's old words may lose theirs.
    const { next, update } = editOne(products, files, { ...target, name: 'Ωψ único 1/2' });
    expect(update).not.toBeNull();
    const whole = buildSearchShards(next, STORAGE, LIMIT, PHRASES);
    expect(asText(applied(files, update!))).toEqual(asText(whole));
    expect(files.has(shardPath('ω'))).toBe(false);
    expect(update!.files.get(shardPath('ω'))).toMatchObject({ v: 1, names: ['Ωψ único 1/2'] });
    expect((update!.files.get(shardPath('')) as SearchNodeFile).next).toContain('ω');
  });

  it('removes the leaf of a text the edit leaves to no product', () => {
    const products = catalogue(800, 5);
    const target = { ...products[10]!, name: 'Sobre Ωψ 1/2' };
    const before = products.map((product) => (product.id === target.id ? target : product));
    const files = buildSearchShards(before, STORAGE, LIMIT, PHRASES);
    expect(files.has(shardPath('ω'))).toBe(true);
    const { next, update } = editOne(before, files, { ...target, name: 'Sobre 1/2' });
    expect(update!.removed).toContain(shardPath('ω'));
    expect(asText(applied(files, update!))).toEqual(asText(buildSearchShards(next, STORAGE, LIMIT, PHRASES)));
  });

  it('leaves a picture change to the files of the nodes its key is in, and reads only served nodes', () => {
    const products = catalogue(1500, 9);
    const files = buildSearchShards(products, STORAGE, LIMIT, PHRASES);
    const served = servedFrom(files);
    const { next, update: made } = editOne(products, files, { ...products[42]!, image: 'products/otra-foto.webp' }, served);
    const update = made!;
    const whole = buildSearchShards(next, STORAGE, LIMIT, PHRASES);
    expect(asText(applied(files, update))).toEqual(asText(whole));
    expect(update.removed).toEqual([]);
    expect(served.reads.every((urlPath) => files.get(urlPath)?.v === 2)).toBe(true);
    // Every changed file is one the update made.
    const before = asText(files);
    for (const [urlPath, text] of asText(whole)) if (before.get(urlPath) !== text) expect(update.files.has(urlPath)).toBe(true);
  });

  it('turns a leaf grown past the limit into a node, and back into a leaf, as a whole build does', () => {
    const products = catalogue(600, 13);
    const files = buildSearchShards(products, STORAGE, LIMIT, PHRASES);
    // The fullest leaf: renaming enough other products into it makes it a node.
    const leaves = [...files].filter(([urlPath, file]) => /^\/search\/[0-9a-f]+\.json$/.test(urlPath) && file.v === 1);
    const [leafPath, leaf] = leaves.sort((a, b) => (b[1] as { ids: string[] }).ids.length - (a[1] as { ids: string[] }).ids.length)[0]!;
    const text = Buffer.from(leafPath.slice('/search/'.length, -'.json'.length), 'hex').toString('utf8');
    const inLeaf = new Set((leaf as { names: string[] }).names);
    const edits = products
      .filter((product) => !inLeaf.has(product.name))
      .slice(0, LIMIT)
      .map((product) => ({ before: product, after: { ...product, name: `${product.name} ${text}` } }));
    const next = products.map((product) => edits.find((e) => e.before.id === product.id)?.after ?? product);
    const grown = updateSearchShards(next, edits, servedFrom(files), STORAGE, LIMIT, PHRASES)!;
    const whole = buildSearchShards(next, STORAGE, LIMIT, PHRASES);
    expect(grown.files.get(leafPath)?.v).toBe(2);
    expect(asText(applied(files, grown))).toEqual(asText(whole));
    // Taken back: the node falls under the limit and the files below it go.
    const back = edits.map(({ before, after }) => ({ before: after, after: before }));
    const shrunk = updateSearchShards(products, back, servedFrom(whole), STORAGE, LIMIT, PHRASES)!;
    expect(shrunk.files.get(leafPath)?.v).toBe(1);
    expect(shrunk.removed.length).toBeGreaterThan(0);
    expect(asText(applied(whole, shrunk))).toEqual(asText(files));
  });

  it('answers null when no node is served at the root, so a build makes the tree', () => {
    const products = catalogue(600, 13);
    const files = buildSearchShards(products, STORAGE, LIMIT, PHRASES);
    files.delete(shardPath(''));
    const after = { ...products[0]!, name: 'Sobre nuevo' };
    expect(updateSearchShards([after, ...products.slice(1)], [{ before: products[0]!, after }], servedFrom(files), STORAGE, LIMIT, PHRASES)).toBeNull();
  });

  it('rewrites the one file of a small catalogue', () => {
    const products = catalogue(40, 2);
    const files = buildSearchShards(products, STORAGE, LIMIT, PHRASES);
    const after = { ...products[0]!, name: 'Sobre nuevo' };
    const next = [after, ...products.slice(1)];
    const update = updateSearchShards(next, [{ before: products[0]!, after }], servedFrom(files), STORAGE, LIMIT, PHRASES)!;
    expect(asText(update.files)).toEqual(asText(buildSearchShards(next, STORAGE, LIMIT, PHRASES)));
  });

  it('finds the products whose key holds a text as the keys themselves do, letters, pairs, longer texts and other characters alike, among members or all', () => {
    const products = [...catalogue(300, 21), { id: 'x-1', name: 'Ωψ niño 12 ab', image: '' }];
    const source = shardSource(products, STORAGE);
    const texts = ['a', 'z', '0', '9', 'ω', 'ωψ', 'ab', 'ba', 'sobre', 'obr', 'b 1', 'x', 'ex', 'e', 'qq', '12', '2a', 'nin', 'caja', 'de', ' '];
    const all = Array.from({ length: source.count }, (_, i) => i);
    const some = all.filter((i) => i % 3 !== 1);
    let held = 0;
    for (const text of texts) {
      for (const members of [all, some]) {
        const expected = members.filter((i) => source.keys[i]!.includes(text));
        expect(source.holding(members, text), text).toEqual(expected);
        held += expected.length;
      }
      expect(source.containing(text), text).toEqual(all.filter((i) => source.keys[i]!.includes(text)));
    }
    // Both answers occur for the texts asked.
    expect(held).toBeGreaterThan(300);
    expect(held).toBeLessThan(source.count * texts.length);
  });
});
