/**
 * The search index file: the build writes it to /search-index.json (./shards.ts splits it for big
 * catalogues) and the browser downloads it once, so every keystroke is answered locally with no
 * backend call.
 */
import { normalize, type SearchEntry } from '../name-matching/matching.ts';

/**
 * The file served at /search-index.json. Stored by columns; ids are written as templates over
 * their own name's words (see encodeId) and each image path's copy of its id is replaced by
 * ID_TOKEN. Product ids repeat the words of the name ('pk-tin-surging-sparks-pikachu-ex' for
 * 'Lata Pikachu ex ...'), and gzip cannot see that across columns; without these steps a
 * 10,000-product index is about 175 KB gzipped, with them about 120 KB.
 */
export interface SearchIndexFile {
  /** Format version; bumped whenever the shape changes. */
  v: 1;
  /** Supabase project URL that relative image paths resolve against. */
  storage: string;
  ids: string[];
  names: string[];
  images: string[];
  /**
   * Each product's card text ('' for sealed products; see matching.ts cardText): written only
   * when the catalogue has singles, so a single is found by its collector number and by its
   * name in the other language.
   */
  cards?: string[];
  /**
   * The distinct tag texts of the file's products (matching.ts catalogTags: the franchise,
   * expansion and type names a name lacks); each product points at one by its position in
   * `tags`. Written only when some product has tags: a catalogue has a few hundred distinct ones,
   * so a number per product costs far less than the text.
   */
  tagTexts?: string[];
  /** Each product's position in `tagTexts`, -1 for none. */
  tags?: number[];
}

/**
 * A product as the index is built from it: `card` is its card text when it is a single, `tags`
 * the names of its franchise, expansion and product type its name lacks (catalogTags).
 */
export interface IndexedProduct {
  id: string;
  name: string;
  image?: string | null;
  card?: string;
  tags?: string;
}

/** A downloaded index, back in one-entry-per-product form. */
export interface SearchIndex {
  storage: string;
  entries: SearchEntry[];
}

/** Stands for the product's own id inside an image path; braces never appear unescaped in a URL. */
export const ID_TOKEN = '{id}';

const collator = new Intl.Collator('es-MX', { sensitivity: 'base', numeric: true });

/** The index's order: by name (Spanish order, numbers by value), then by id. */
export function compareIndexed(a: { id: string; name: string }, b: { id: string; name: string }): number {
  return collator.compare(a.name, b.name) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

/** Writes the tag columns of `file` (tagTexts, tags) when any of `tags` is set. */
export function writeTags(file: Pick<SearchIndexFile, 'tagTexts' | 'tags'>, tags: ReadonlyArray<string | undefined>): void {
  if (!tags.some(Boolean)) return;
  const texts = new Map<string, number>();
  file.tags = tags.map((tag) => (tag ? (texts.get(tag) ?? texts.set(tag, texts.size).get(tag)!) : -1));
  file.tagTexts = [...texts.keys()];
}

/**
 * Each row's encodeId, kept while the row lives: the running server indexes the same row objects
 * again for each edit (./shard-update.ts), where only the edited products are new rows. Rows are
 * never changed in place.
 */
const encodedIds = new WeakMap<IndexedProduct, string>();

export function encodedId(row: IndexedProduct): string {
  let stored = encodedIds.get(row);
  if (stored === undefined) {
    stored = encodeId(row.id, row.name);
    encodedIds.set(row, stored);
  }
  return stored;
}

/** Each row's image path as the index stores it (its own id as ID_TOKEN), kept as encodedId keeps ids. */
const storedImages = new WeakMap<IndexedProduct, string>();

export function storedImage(row: IndexedProduct): string {
  let stored = storedImages.get(row);
  if (stored === undefined) {
    const image = row.image ?? '';
    stored = row.id === '' || image.includes(ID_TOKEN) ? image : image.split(row.id).join(ID_TOKEN);
    storedImages.set(row, stored);
  }
  return stored;
}

/** Builds the index file from catalogue rows, sorted by name so equal-ranked results read alphabetically. */
export function buildSearchIndex(products: Iterable<IndexedProduct>, storage: string, { sorted = false }: { sorted?: boolean } = {}): SearchIndexFile {
  // `sorted`: the products come in the index's order already (shardSource sorts them once).
  const rows = sorted ? [...products] : [...products].sort(compareIndexed);
  const file: SearchIndexFile = {
    v: 1,
    storage,
    ids: rows.map(encodedId),
    names: rows.map((p) => p.name),
    images: rows.map(storedImage),
  };
  if (rows.some((p) => p.card)) file.cards = rows.map((p) => p.card ?? '');
  writeTags(
    file,
    rows.map((p) => p.tags),
  );
  return file;
}

/** Marks an id stored verbatim because its text would otherwise read as a template. */
const VERBATIM = '=';
const WORD_REF = /\{(\d+)(?:-(\d+))?\}/g;

/**
 * Writes an id with the parts that repeat its name's (normalized) words replaced by word
 * positions; decodeId(encodeId(id, name), name) === id for every id and name.
 * @example encodeId('pk-tin-surging-sparks-pikachu-ex', 'Pikachu ex Lata') // 'pk-tin-surging-sparks-{0-1}'
 */
export function encodeId(id: string, name: string): string {
  const words = normalize(name).split(' ');
  const parts = id.split('-');
  const out: string[] = [];
  for (let i = 0; i < parts.length; i++) {
    const at = parts[i] === '' ? -1 : words.indexOf(parts[i]!);
    if (at < 0) {
      out.push(parts[i]!);
      continue;
    }
    // Runs of consecutive words become one range, '{2-5}'.
    let end = i;
    while (end + 1 < parts.length && words[at + end + 1 - i] === parts[end + 1]) end++;
    out.push(end > i ? `{${at}-${at + end - i}}` : `{${at}}`);
    i = end;
  }
  const encoded = out.join('-');
  if (encoded !== id && decodeId(encoded, name) === id) return encoded;
  return decodeId(id, name) === id ? id : VERBATIM + id;
}

/** Reads an id written by encodeId back, given the same name. */
export function decodeId(stored: string, name: string): string {
  if (stored.startsWith(VERBATIM)) return stored.slice(VERBATIM.length);
  if (!stored.includes('{')) return stored;
  const words = normalize(name).split(' ');
  return stored.replace(WORD_REF, (ref, from: string, to: string | undefined) => {
    const start = Number(from);
    const end = to === undefined ? start : Number(to);
    return end < words.length && start <= end ? words.slice(start, end + 1).join('-') : ref;
  });
}

const isStringArray = (value: unknown): value is string[] => Array.isArray(value) && value.every((item) => typeof item === 'string');

/** Reads a downloaded index; returns null when it is not the shape this code understands. */
export function parseSearchIndex(data: unknown): SearchIndex | null {
  if (typeof data !== 'object' || data === null) return null;
  const { v, storage, ids, names, images, cards, tagTexts, tags } = data as Record<string, unknown>;
  if (v !== 1 || typeof storage !== 'string') return null;
  if (!isStringArray(ids) || !isStringArray(names) || !isStringArray(images)) return null;
  if (names.length !== ids.length || images.length !== ids.length) return null;
  if (cards !== undefined && !(isStringArray(cards) && cards.length === ids.length)) return null;
  if ((tags === undefined) !== (tagTexts === undefined)) return null;
  if (tags !== undefined) {
    if (!isStringArray(tagTexts) || !Array.isArray(tags) || tags.length !== ids.length) return null;
    if (!tags.every((n) => Number.isInteger(n) && n >= -1 && n < tagTexts.length)) return null;
  }
  const tagOf = (i: number): string => (tags ? ((tagTexts as string[])[(tags as number[])[i]!] ?? '') : '');
  const entries = ids.map((stored, i): SearchEntry => {
    const name = names[i]!;
    const id = decodeId(stored, name);
    const image = images[i]!.split(ID_TOKEN).join(id);
    const card = cards?.[i];
    const tag = tagOf(i);
    if (tag) return [id, name, image, card ?? '', tag];
    return card ? [id, name, image, card] : [id, name, image];
  });
  return { storage, entries };
}
