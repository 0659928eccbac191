/**
 * The header search's files as a served folder has them, read for an edit the running server
 * publishes (updateSearchShards in src/domain/header-search/shard-update.ts): a file's kind from
 * its first bytes (a leaf holds up to 10,000 products: there is no need to read it for that), and a
 * node's file whole (its answer and continuations, a few kilobytes).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { ServedShards } from '~/domain/header-search/shard-update.ts';
import type { SearchNodeFile, SearchShardFile } from '~/domain/header-search/shards.ts';
import { contentFingerprint, fileForPath } from './incremental.ts';

/** The first bytes of every search file the build writes: JSON.stringify puts the version first. */
const HEAD = /^\{"v":([12])[,}]/;

/** Reads the search files of the served client folder `servedClient`. */
export function servedShards(servedClient: string): ServedShards {
  const fileOf = (urlPath: string) => path.join(servedClient, fileForPath(urlPath));
  return {
    kind(urlPath) {
      let fd: number;
      try {
        fd = fs.openSync(fileOf(urlPath), 'r');
      } catch {
        return null;
      }
      try {
        const head = Buffer.alloc(8);
        const read = fs.readSync(fd, head, 0, head.length, 0);
        const version = HEAD.exec(head.toString('utf8', 0, read))?.[1];
        return version === '1' ? 'leaf' : version === '2' ? 'node' : null;
      } finally {
        fs.closeSync(fd);
      }
    },
    node(urlPath) {
      let data: unknown;
      try {
        data = JSON.parse(fs.readFileSync(fileOf(urlPath), 'utf8'));
      } catch {
        return null;
      }
      const file = data as Partial<SearchNodeFile> | null;
      const results = file?.results;
      const valid =
        file?.v === 2 &&
        typeof file.next === 'string' &&
        typeof file.total === 'number' &&
        Array.isArray(results?.ids) &&
        Array.isArray(results.names) &&
        results.ids.length === results.names.length;
      return valid ? (file as SearchNodeFile) : null;
    },
  };
}

/**
 * Each search file an edit made, as text and its fingerprint, kept while the file object lives:
 * the parts of the whole index an edit did not move are the same objects edit after edit
 * (src/domain/header-search/shards.ts), and at 100,000 products their 10 MB of text were
 * written out and hashed again for every rename only to be found unchanged.
 */
const texts = new WeakMap<SearchShardFile, { data: Buffer; fingerprint: string }>();

/**
 * `file` as the build writes it (its UTF-8 bytes, encoded once for the fingerprint and the write),
 * and its fingerprint (contentFingerprint).
 */
export function searchFileText(file: SearchShardFile): { data: Buffer; fingerprint: string } {
  let text = texts.get(file);
  if (!text) {
    const data = Buffer.from(JSON.stringify(file));
    text = { data, fingerprint: contentFingerprint(data) };
    texts.set(file, text);
  }
  return text;
}
