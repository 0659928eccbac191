/**
 * The edits written beside /explore's catalogue (src/server/explore/catalog-edits.ts): what an
 * edit writes, for which catalogue file, and when it writes the catalogue whole instead.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EDITS_MOST, exploreEditOutput, fileIdentity, parseExploreEdits } from '~/server/explore/catalog-edits.ts';

let dir = '';
let catalog = '';
let edits = '';
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'catalog-edits-'));
  fs.mkdirSync(path.join(dir, 'explore'));
  catalog = path.join(dir, 'explore', 'catalog.json');
  edits = path.join(dir, 'explore', 'catalog-edits.json');
  fs.writeFileSync(catalog, '{"products":[]}');
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const entry = (id: string, price: number) => JSON.stringify({ id, name: `Producto ${id}`, priceCentavos: price });
const whole = async () => ['{"products":', '[]}'];

/** Writes what the edit gives, as the server does, and reads it back. */
async function edit(entries: Array<[string, string]>) {
  const output = await exploreEditOutput(dir, entries, whole);
  if (output.urlPath === '/explore/catalog-edits.json') fs.writeFileSync(edits, output.data as string);
  return output;
}

describe('exploreEditOutput', () => {
  it('writes the edited entries beside the catalogue, naming it, and keeps the earlier ones for it', async () => {
    const first = await edit([['a', entry('a', 100)]]);
    expect(first.urlPath).toBe('/explore/catalog-edits.json');
    let read = parseExploreEdits(fs.readFileSync(edits, 'utf8'))!;
    expect(read.base).toBe(fileIdentity(fs.statSync(catalog)));
    expect([...read.entries]).toEqual([['a', entry('a', 100)]]);
    await edit([
      ['b', entry('b', 200)],
      ['a', entry('a', 150)],
    ]);
    read = parseExploreEdits(fs.readFileSync(edits, 'utf8'))!;
    expect([...read.entries]).toEqual([
      ['a', entry('a', 150)],
      ['b', entry('b', 200)],
    ]);
    // The file is JSON any reader parses.
    expect(JSON.parse(fs.readFileSync(edits, 'utf8'))).toEqual({ base: read.base, products: [JSON.parse(entry('a', 150)), JSON.parse(entry('b', 200))] });
  });

  it('starts again for a catalogue written again, and gives the catalogue whole past the most edits or with no catalogue', async () => {
    await edit([['a', entry('a', 100)]]);
    fs.rmSync(catalog);
    fs.writeFileSync(catalog, '{"products":[]}');
    await edit([['b', entry('b', 200)]]);
    expect([...parseExploreEdits(fs.readFileSync(edits, 'utf8'))!.entries.keys()]).toEqual(['b']);

    const many = Array.from({ length: EDITS_MOST - 1 }, (_, k): [string, string] => [`p${k}`, entry(`p${k}`, k)]);
    expect((await edit(many)).urlPath).toBe('/explore/catalog-edits.json');
    expect(parseExploreEdits(fs.readFileSync(edits, 'utf8'))!.entries.size).toBe(EDITS_MOST);
    expect(await exploreEditOutput(dir, [['c', entry('c', 1)]], whole)).toEqual({ urlPath: '/explore/catalog.json', data: await whole() });
    // An entry already there does not make one more.
    expect((await exploreEditOutput(dir, [['b', entry('b', 1)]], whole)).urlPath).toBe('/explore/catalog-edits.json');

    fs.rmSync(catalog);
    expect((await exploreEditOutput(dir, [['a', entry('a', 1)]], whole)).urlPath).toBe('/explore/catalog.json');
  });

  it("gives the catalogue whole when an edits' file is there but cannot be read, so the earlier edits it holds are not lost", async () => {
    await edit([['a', entry('a', 100)]]);
    fs.writeFileSync(edits, '{"base":');
    expect(await exploreEditOutput(dir, [['b', entry('b', 200)]], whole)).toEqual({ urlPath: '/explore/catalog.json', data: await whole() });
    fs.rmSync(edits);
    fs.mkdirSync(edits);
    expect((await exploreEditOutput(dir, [['b', entry('b', 200)]], whole)).urlPath).toBe('/explore/catalog.json');
    // No edits' file at all: this edit's entries alone.
    fs.rmSync(edits, { recursive: true });
    expect((await edit([['b', entry('b', 200)]])).urlPath).toBe('/explore/catalog-edits.json');
    expect([...parseExploreEdits(fs.readFileSync(edits, 'utf8'))!.entries.keys()]).toEqual(['b']);
  });
});

describe('parseExploreEdits', () => {
  it('reads only a file of edits', () => {
    expect(parseExploreEdits('no es JSON')).toBeNull();
    expect(parseExploreEdits('{"products":[]}')).toBeNull();
    expect(parseExploreEdits('{"base":"1:2:3","products":[{"name":"sin id"}]}')).toBeNull();
    expect(parseExploreEdits('{"base":"1:2:3","products":[]}')).toEqual({ base: '1:2:3', entries: new Map() });
  });
});
