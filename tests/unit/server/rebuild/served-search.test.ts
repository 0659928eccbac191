import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildSearchShards, shardPath, wordsPath, type SearchShardFile } from '~/domain/header-search/shards.ts';
import { contentFingerprint, fileForPath } from '~/server/rebuild/incremental.ts';
import { searchFileText, servedShards } from '~/server/rebuild/served-search.ts';
import { fakeCatalog } from '../../domain/name-matching/fake-catalog';

let client = '';
let files: Map<string, SearchShardFile>;

beforeEach(() => {
  client = fs.mkdtempSync(path.join(os.tmpdir(), 'served-search-'));
  files = buildSearchShards(fakeCatalog(400, 3), 'https://x.supabase.co', 40);
  for (const [urlPath, file] of files) {
    const target = path.join(client, fileForPath(urlPath));
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.writeFileSync(target, JSON.stringify(file));
  }
});

afterEach(() => fs.rmSync(client, { recursive: true, force: true }));

describe('the served search files', () => {
  it('tells a leaf from a node by its first bytes, and reads a node whole', () => {
    const served = servedShards(client);
    const leaf = [...files].find(([urlPath, file]) => file.v === 1 && urlPath.startsWith('/search/') && !urlPath.includes('all-'))![0];
    const node = [...files].find(([urlPath, file]) => file.v === 2 && urlPath !== shardPath(''))![0];
    expect(served.kind(leaf)).toBe('leaf');
    expect(served.kind(node)).toBe('node');
    expect(served.kind(shardPath(''))).toBe('node');
    expect(served.node(node)).toEqual(files.get(node));
    expect(served.node(leaf)).toBeNull();
  });

  it('answers null for a file that is missing, a word list, or not JSON of this shape', () => {
    const served = servedShards(client);
    expect(served.kind('/search/ffff.json')).toBeNull();
    expect(served.node('/search/ffff.json')).toBeNull();
    const words = [...files.keys()].find((urlPath) => urlPath.startsWith('/search/words-'))!;
    expect(words).toBe(wordsPath(Buffer.from(words.slice('/search/words-'.length, -5), 'hex').toString()));
    expect(served.kind(words)).toBeNull();
    fs.writeFileSync(path.join(client, fileForPath(shardPath(''))), 'servido');
    expect(served.kind(shardPath(''))).toBeNull();
    // The kind is the first bytes' word; reading the node checks the whole.
    fs.writeFileSync(path.join(client, fileForPath(shardPath(''))), '{"v":2, roto');
    expect(served.kind(shardPath(''))).toBe('node');
    expect(served.node(shardPath(''))).toBeNull();
    fs.writeFileSync(path.join(client, fileForPath(shardPath(''))), '{"v":2,"next":"ab"}');
    expect(served.node(shardPath(''))).toBeNull();
  });
});

describe("a search file's text", () => {
  it('is the file as JSON with its fingerprint, made once for the same file object', () => {
    const [, file] = [...files][0]!;
    const text = searchFileText(file);
    expect(text.data.toString('utf8')).toBe(JSON.stringify(file));
    // The fingerprint of the file's text, as a build makes it.
    expect(text.fingerprint).toBe(contentFingerprint(JSON.stringify(file)));
    expect(searchFileText(file)).toBe(text);
    // Another object with the same content: its own text, the same fingerprint.
    const copy = JSON.parse(JSON.stringify(file)) as SearchShardFile;
    expect(searchFileText(copy)).not.toBe(text);
    expect(searchFileText(copy).fingerprint).toBe(text.fingerprint);
  });
});
