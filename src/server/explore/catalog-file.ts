/**
 * /explore's catalogue file (`explore/catalog.json`) read by the server (./catalog.ts), one
 * product entry at a time: read again, an entry whose bytes are those of the file read before
 * keeps that file's product object, and only the other entries are decoded and parsed. After an
 * edit at 100,000 products the file is 47 MB with a handful of new entries; parsing it whole held
 * the server's event loop for about half a second, on every server, for every edit.
 *
 * The file is what src/server/snapshot/catalog-files.ts exploreJsonInSteps writes (its parts joined): the filters' options,
 * then `"products":[…]` with one object per product, each starting with its id, then perhaps
 * `"readFrom"`. A file of another shape is parsed whole (parseExploreData), and kept nothing of.
 */
import { exploreProductReader, parseExploreData, type ExploreData, type ExploreProduct } from '~/domain/explore.ts';

/** A file read: its data, and what the next read of it compares with. */
export interface CatalogFile {
  data: ExploreData;
  /** The file's bytes, and where each product entry starts and ends in them (empty when the file was parsed whole). */
  bytes: Buffer;
  starts: number[];
  ends: number[];
  /** The bytes before the products (the options): when they change, no entry is kept. */
  headEnd: number;
  /** Each entry's product, null for an entry parseExploreData leaves out. */
  products: Array<ExploreProduct | null>;
}

const OPEN = Buffer.from('"products":[');
// Between two entries: the end of one object and the start of the next, whose first key is its id.
// Inside a JSON string a quote is escaped, so these bytes are never part of a name.
const BETWEEN = Buffer.from('},{"id":');
const AFTER = /^\](,"readFrom":"[^"\\]*")?\}\s*$/;

/** Where the entries of `bytes` are, or null when the file is not as exploreJsonInSteps writes it. */
function entries(bytes: Buffer): { headEnd: number; close: number; starts: number[]; ends: number[] } | null {
  const open = bytes.indexOf(OPEN);
  const close = bytes.lastIndexOf(']');
  if (open < 0 || close < open + OPEN.length || !AFTER.test(bytes.toString('utf8', close))) return null;
  const starts: number[] = [];
  const ends: number[] = [];
  let start = open + OPEN.length;
  if (start === close) return { headEnd: open, close, starts, ends };
  if (bytes.toString('utf8', start, start + 6) !== '{"id":') return null;
  for (;;) {
    const between = bytes.indexOf(BETWEEN, start);
    starts.push(start);
    if (between < 0 || between >= close) {
      ends.push(close);
      return { headEnd: open, close, starts, ends };
    }
    ends.push(between + 1);
    start = between + 2;
  }
}

/**
 * The catalogue in `bytes`, reusing what `previous` (the same file read before) made of the
 * entries that did not change. Null when it is not a catalogue.
 */
export function readCatalogFile(bytes: Buffer, previous: CatalogFile | null = null): CatalogFile | null {
  const found = entries(bytes);
  if (!found) {
    const data = parseExploreData(JSON.parse(bytes.toString('utf8')));
    return data && { data, bytes: Buffer.alloc(0), starts: [], ends: [], headEnd: 0, products: [] };
  }
  const { headEnd, close, starts, ends } = found;
  // The options and readFrom, with no products.
  const around = parseExploreData(JSON.parse(`${bytes.toString('utf8', 0, headEnd)}"products":[${bytes.toString('utf8', close)}`));
  if (!around) return null;
  const same = previous !== null && previous.headEnd === headEnd && bytes.compare(previous.bytes, 0, headEnd, 0, headEnd) === 0;
  const read = exploreProductReader(around);
  const products = starts.map((start, k) => {
    const end = ends[k]!;
    if (same && k < previous.starts.length && bytes.compare(previous.bytes, previous.starts[k]!, previous.ends[k]!, start, end) === 0)
      return previous.products[k]!;
    return read(JSON.parse(bytes.toString('utf8', start, end)));
  });
  const data: ExploreData = { ...around, products: products.filter((product) => product !== null) };
  return { data, bytes, starts, ends, headEnd, products };
}
