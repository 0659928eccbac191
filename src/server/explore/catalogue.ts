/**
 * The /explore catalogue the server filters for `/explore?q=…&franquicia=…`, with live stock.
 *
 * The catalogue is the one the build wrote (`<SHOP_OUT_DIR>/client/explore/catalog.json`, the same
 * JSON the island loads): checked at most once a second and read again, in the background, when a
 * rebuild published a new one (`<outDir>/client` is a symlink a rebuild swaps, and an incremental
 * rebuild rewrites the file); the old catalogue is served until the new one is parsed. Without
 * SHOP_OUT_DIR (astro dev, tests) it is built from the build's catalogue, as the JSON route does.
 *
 * Between rebuilds the stock moves: every EXPLORE_LIVE_MS (default 2 s) the products and card
 * offers changed since the last look are read with the anon key (both tables are public), and the
 * catalogue's products are updated in place: a product's stock, and a single's offers in stock
 * (the singles filters' tokens), its 'Desde' flag and its stock, computed from its offers with the
 * build's own rules (domain/product-schema.ts parseProduct, domain/explore.ts toExploreProduct).
 * The products array itself is only replaced by a new catalogue file, because the search keys
 * are cached by its identity; `version` counts both kinds of change, `searchVersion` those a
 * search can see (LiveCatalogue). Products that are not in the
 * catalogue are ignored: a new product appears with the rebuild that makes its page.
 */
import fs from 'node:fs';
import path from 'node:path';
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import { PUBLIC_SUPABASE_ANON_KEY, PUBLIC_SUPABASE_URL } from 'astro:env/client';
import type { Database } from '~/data/database.types.ts';
import { parseExploreData, toExploreProduct, type ExploreData, type ExploreProduct } from '~/domain/explore.ts';
import { LOCAL_SUPABASE_URL } from '~/domain/local-stack.ts';
import { parseProduct } from '~/domain/product-schema.ts';
import { isSoldOut } from '~/domain/products.ts';

/**
 * The catalogue as it is now. `version` grows with every change of its data; `searchVersion` is
 * the version of the last change that can alter what a search finds or counts (a new catalogue, a
 * product sold out or back in stock, a single's copies in stock); `changedAt(id)` the version of
 * a product's last change (0 if none since the catalogue was read). A stock that moves and stays
 * above zero changes only what a card of that product shows.
 */
export interface LiveCatalogue {
  data: ExploreData;
  version: number;
  searchVersion: number;
  changedAt: (id: string) => number;
}

/** Where the catalogue comes from: the built file (watched for rebuilds), or data read once. */
export type CatalogueSource = { file: string } | { read: () => Promise<unknown> };

export interface LiveCatalogueOptions {
  source: CatalogueSource;
  /** A client with the anon key: products and card_offers are read as a visitor reads them. */
  supabase: SupabaseClient<Database>;
  /** How often the stock is polled, in ms (default 2000); 0 starts no timer (poll() by hand). */
  liveMs?: number;
  /** How often the catalogue file is checked for a new build, at most, in ms (default 1000). */
  checkFileMs?: number;
  /** Where a failed poll or file read is reported, one line each (default console.warn). */
  warn?: (line: string) => void;
  /** How far before a poll its changes are read again by the next, in ms (default 10 s). */
  overlapMs?: number;
}

/** The default poll interval of the live stock. */
export const EXPLORE_LIVE_MS = 2000;
/**
 * How long a poll may take before it is abandoned. A failed request is not retried by the client
 * (retry(false)): the next tick is its retry, from where each table's reading got to. Each page
 * of changes is applied as it is read and moves its table's place on, so a poll abandoned part
 * way (more rows changed than it can read in this time) keeps its progress and the next goes on.
 */
const POLL_TIMEOUT_MS = 15_000;
/** Rows per request: PostgREST's default db-max-rows. */
const PAGE = 1000;
/** Product ids per request for their offers (the ids travel in the URL). */
const IDS_PER_REQUEST = 100;
/**
 * Changes this long before a catalogue was published are read again for it: the build read its
 * snapshot some time before it wrote the file, and stock that moved meanwhile is already in the
 * database. Reading a change twice does no harm: the database's current values are applied.
 */
const LOOKBACK_MS = 10 * 60_000;
/**
 * A catalogue whose build read the whole database from a known time (ExploreData.readFrom) reads
 * the changes from this long before that time instead, when that is later: its rows already hold
 * every change before the read, and a bulk change of the whole catalogue just before the build
 * (an import, a seed) is not read again row by row. The margin covers transactions that committed
 * as the read began and a database clock a little off the build's.
 */
const READ_MARGIN_MS = 30_000;
/**
 * Rows changed within this long before a poll are read again by the next polls: `updated_at` is
 * its transaction's start time, so a transaction that commits after a poll may carry a time the
 * poll has already passed.
 */
const OVERLAP_MS = 10_000;

type OfferRow = Record<string, unknown> & { id: string; product_id: string };
/** The tables whose changes are read, in the order a poll reads them. */
const TABLES = ['products', 'card_offers'] as const;
type Table = (typeof TABLES)[number];
/** Where a table's changes have been read up to: a change time and, among rows of that time, an id ('' for none yet). */
interface Place {
  at: string;
  id: string;
}
/** A products row (id, stock) or a card_offers row (id, product_id), with its change time. */
type ChangedRow = { id: string; stock?: unknown; product_id: string; updated_at: string };

/** A catalogue kept live: one per source; `get()` is what the pages call. */
export class LiveExploreCatalogue {
  private readonly source: CatalogueSource;
  private readonly supabase: SupabaseClient<Database>;
  private readonly liveMs: number;
  private readonly checkFileMs: number;
  private readonly warn: (line: string) => void;

  private data: ExploreData | null = null;
  private byId = new Map<string, ExploreProduct>();
  private version = 0;
  private searchVersion = 0;
  private readonly changed = new Map<string, number>();
  private readonly changedAt = (id: string) => this.changed.get(id) ?? 0;
  private loading: Promise<void> | null = null;
  /** The file's mtime, size and inode when it was last read (or refused). */
  private fileSignature = '';
  private lastCheck = 0;
  private checking: Promise<boolean> | null = null;
  /** Each table's changes after this place (time on the database's clock, then id) are still to be read. */
  private places: Record<Table, Place> | null = null;
  private readonly overlapMs: number;
  private polling: Promise<boolean> | null = null;
  private timer: ReturnType<typeof setInterval> | null = null;

  constructor(options: LiveCatalogueOptions) {
    this.source = options.source;
    this.supabase = options.supabase;
    this.liveMs = options.liveMs ?? EXPLORE_LIVE_MS;
    this.checkFileMs = options.checkFileMs ?? 1000;
    this.warn = options.warn ?? ((line) => console.warn(line));
    this.overlapMs = options.overlapMs ?? OVERLAP_MS;
  }

  /**
   * The catalogue with live stock. Rejects only while no catalogue was ever read (the next call
   * tries again); from then on it answers with the last good one.
   */
  async get(): Promise<LiveCatalogue> {
    if (!this.data) {
      this.loading ??= this.load().finally(() => {
        this.loading = null;
      });
      await this.loading;
    } else if ('file' in this.source && Date.now() - this.lastCheck >= this.checkFileMs) {
      void this.checkFile();
    }
    this.startTimer();
    return { data: this.data!, version: this.version, searchVersion: this.searchVersion, changedAt: this.changedAt };
  }

  /**
   * Checks the catalogue file now and reads it when it changed since it was last read. True when
   * a new catalogue is served. Never rejects once a catalogue was read.
   */
  checkFile(): Promise<boolean> {
    this.checking ??= this.readFileIfChanged().finally(() => {
      this.checking = null;
    });
    return this.checking;
  }

  /**
   * One poll of the stock now (or the one in flight): true when the catalogue changed. A failed
   * poll is reported and answers false; what was served before is served still.
   */
  poll(): Promise<boolean> {
    this.polling ??= this.pollOnce().finally(() => {
      this.polling = null;
    });
    return this.polling;
  }

  /** Stops the polling timer (a later get() starts it again). */
  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  private startTimer(): void {
    if (this.timer || this.liveMs <= 0) return;
    this.timer = setInterval(() => void this.poll(), this.liveMs);
    // The catalogue never keeps the process alive.
    this.timer.unref();
  }

  private async load(): Promise<void> {
    if ('file' in this.source) {
      await this.checkFile();
      if (!this.data) throw new Error(`${this.source.file}: no es el catálogo de /explore`);
      return;
    }
    const data = parseExploreData(await this.source.read());
    if (!data) throw new Error('El catálogo de /explore no se pudo leer.');
    this.install(data, Date.now());
  }

  private async readFileIfChanged(): Promise<boolean> {
    if (!('file' in this.source)) return false;
    const file = this.source.file;
    this.lastCheck = Date.now();
    try {
      // stat follows the client symlink, so a swapped build is a different file.
      const stat = await fs.promises.stat(file);
      const signature = `${stat.mtimeMs}:${stat.size}:${stat.ino}`;
      if (signature === this.fileSignature) return false;
      // Recorded before the read: a file that does not parse is not read again until it changes.
      this.fileSignature = signature;
      const data = parseExploreData(JSON.parse(await fs.promises.readFile(file, 'utf8')));
      if (!data) throw new Error('no es el catálogo de /explore');
      this.install(data, Math.min(stat.mtimeMs, Date.now()));
      return true;
    } catch (error) {
      if (!this.data) {
        // Read again at the next call: the first catalogue has to come from somewhere.
        this.fileSignature = '';
        throw error;
      }
      this.warn(`[explore] ${file}: no se pudo leer el catálogo nuevo; se sigue sirviendo el anterior (${messageOf(error)})`);
      return false;
    }
  }

  /** Serves a new catalogue (a new products array) and reads again the changes since shortly before it was made. */
  private install(data: ExploreData, madeAt: number): void {
    this.data = data;
    this.byId = new Map(data.products.map((product) => [product.id, product]));
    this.version++;
    this.searchVersion = this.version;
    this.changed.clear();
    const readFrom = data.readFrom ? Date.parse(data.readFrom) - READ_MARGIN_MS : -Infinity;
    const since = new Date(Math.min(madeAt, Math.max(madeAt - LOOKBACK_MS, readFrom))).toISOString();
    const places = (this.places ??= { products: { at: since, id: '' }, card_offers: { at: since, id: '' } });
    for (const table of TABLES) if (Date.parse(since) < Date.parse(places[table].at)) places[table] = { at: since, id: '' };
  }

  private async pollOnce(): Promise<boolean> {
    const data = this.data;
    const places = this.places;
    if (!data || !places) return false;
    const byId = this.byId;
    // A place never goes past OVERLAP_MS before this poll, for the transactions that commit after it.
    const safe = Date.now() - this.overlapMs;
    const signal = AbortSignal.timeout(POLL_TIMEOUT_MS);
    let changed = false;
    try {
      for (const table of TABLES) {
        let after = places[table];
        for (;;) {
          const rows = await this.changedPage(table, after, signal);
          const changes = await this.changesOf(table, rows, byId, signal);
          // A new catalogue arrived meanwhile: these objects are no longer served, and the new one
          // reads the changes again from before it was made.
          if (this.data !== data) return changed;
          if (this.apply(changes, byId)) changed = true;
          const last = rows[rows.length - 1];
          if (!last) break;
          // On to the last row read, or to the safe time when that row is newer.
          if (Date.parse(last.updated_at) <= safe) places[table] = { at: last.updated_at, id: last.id };
          else if (safe > Date.parse(places[table].at)) places[table] = { at: new Date(safe).toISOString(), id: '' };
          if (rows.length < PAGE) break;
          after = { at: last.updated_at, id: last.id };
        }
      }
    } catch (error) {
      this.warn(`[explore] No se pudo leer el inventario en vivo; se sirve el anterior (${messageOf(error)})`);
    }
    return changed;
  }

  /** Writes the changes into the catalogue's products; true when any value changed. */
  private apply(changes: Map<string, Partial<ExploreProduct>>, byId: Map<string, ExploreProduct>): boolean {
    const changed: string[] = [];
    let searched = false;
    for (const [id, fields] of changes) {
      const product = byId.get(id)!;
      const before = { soldOut: isSoldOut(product), offers: product.offers, rarity: product.rarity };
      if (!applyFields(product, fields)) continue;
      changed.push(id);
      if (before.soldOut !== isSoldOut(product) || before.offers !== product.offers || before.rarity !== product.rarity) searched = true;
    }
    if (changed.length === 0) return false;
    this.version++;
    for (const id of changed) this.changed.set(id, this.version);
    if (searched) this.searchVersion = this.version;
    return true;
  }

  /** The catalogue's products a page of changed rows touches, as the build would read them now. */
  private async changesOf(
    table: Table,
    rows: ChangedRow[],
    byId: Map<string, ExploreProduct>,
    signal: AbortSignal,
  ): Promise<Map<string, Partial<ExploreProduct>>> {
    const rowStock = new Map<string, number>();
    const singles = new Set<string>();
    for (const row of rows) {
      if (table === 'products') {
        if (byId.has(row.id) && typeof row.stock === 'number') rowStock.set(row.id, row.stock);
      } else if (byId.has(row.product_id)) singles.add(row.product_id);
    }
    // Singles whose row or offers changed get their offers read: their stock is their offers'.
    for (const id of rowStock.keys()) if (byId.get(id)!.offers !== undefined) singles.add(id);
    const offers = await this.offersOf([...singles], signal);

    const changes = new Map<string, Partial<ExploreProduct>>();
    for (const id of new Set([...rowStock.keys(), ...singles])) {
      const current = byId.get(id)!;
      const rows = offers.get(id) ?? [];
      // The product as the build's snapshot would read it now, so its stock, tokens and 'Desde'
      // follow the build's rules: a single's stock is its offers', a sealed product's its row's.
      const product = parseProduct({ id, name: current.name, price: 0, stock: rowStock.get(id) ?? current.stock, card_offers: rows });
      // An offer the schema refuses: the build leaves the product out too; the rebuild decides.
      if (!product) continue;
      const fresh = toExploreProduct(product, current.image);
      const fields: Partial<ExploreProduct> = { stock: fresh.stock };
      if (current.offers !== undefined || fresh.offers !== undefined) {
        fields.offers = fresh.offers ?? '';
        fields.from = fresh.from;
        if (current.rarity === undefined) fields.rarity = '';
      }
      changes.set(id, fields);
    }
    return changes;
  }

  /**
   * One page of the rows of `table` changed after `after`, oldest first. Each request is one range
   * of the table's (updated_at, id) index: first the rest of the place's own time after its id,
   * then the later times. A single filter for both ('a later time, or the same time and a greater
   * id') is an OR, which Postgres cannot read as one range of the index: it reads the index from
   * its start, or every row left and sorts them, for each page of a change of many rows in one
   * statement (an import, a seed: one updated_at).
   */
  private async changedPage(table: Table, after: Place, signal: AbortSignal): Promise<ChangedRow[]> {
    const columns = table === 'products' ? 'id, stock, updated_at' : 'id, product_id, updated_at';
    // Untyped: the columns are chosen per table, and the rows are checked where they are used.
    const rows = () => (this.supabase as unknown as SupabaseClient).from(table).select(columns).abortSignal(signal).retry(false);
    const read = async (query: PromiseLike<{ data: unknown; error: { message: string } | null }>) => {
      const { data, error } = await query;
      if (error) throw new Error(`${table}: ${error.message}`);
      return (data ?? []) as ChangedRow[];
    };
    // A place with no id yet starts at its time itself (ids are uuids in some tables, and no uuid
    // compares with '').
    const sameTime = after.id === '' ? [] : await read(rows().eq('updated_at', after.at).gt('id', after.id).order('id').limit(PAGE));
    if (sameTime.length >= PAGE) return sameTime;
    const later = rows()
      .order('updated_at')
      .order('id')
      .limit(PAGE - sameTime.length);
    return [...sameTime, ...(await read(after.id === '' ? later.gte('updated_at', after.at) : later.gt('updated_at', after.at)))];
  }

  /** Every offer of these products, by product id. */
  private async offersOf(ids: string[], signal: AbortSignal): Promise<Map<string, OfferRow[]>> {
    const byProduct = new Map<string, OfferRow[]>();
    for (let i = 0; i < ids.length; i += IDS_PER_REQUEST) {
      const chunk = ids.slice(i, i + IDS_PER_REQUEST);
      let after = '';
      for (;;) {
        let query = this.supabase
          .from('card_offers')
          .select('id, product_id, condition, language, finish, price, original_price, stock, grading_company, grade, certificate_number, position')
          .in('product_id', chunk)
          .order('id')
          .limit(PAGE)
          .abortSignal(signal)
          .retry(false);
        if (after) query = query.gt('id', after);
        const { data, error } = await query;
        if (error) throw new Error(`card_offers: ${error.message}`);
        const rows = (data ?? []) as unknown as OfferRow[];
        for (const row of rows) {
          const list = byProduct.get(row.product_id);
          if (list) list.push(row);
          else byProduct.set(row.product_id, [row]);
        }
        if (rows.length < PAGE) break;
        after = rows[rows.length - 1]!.id;
      }
    }
    return byProduct;
  }
}

/** Writes `fields` into `product` (undefined removes a field); true when a value changed. */
function applyFields(product: ExploreProduct, fields: Partial<ExploreProduct>): boolean {
  let changed = false;
  const target = product as unknown as Record<string, unknown>;
  for (const [key, value] of Object.entries(fields)) {
    if (target[key] === value) continue;
    changed = true;
    if (value === undefined) delete target[key];
    else target[key] = value;
  }
  return changed;
}

/** An error as part of one log line. */
function messageOf(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).replace(/\s+/g, ' ').trim();
}

/** The anon client of the live stock, from the configuration the server's other code reads. */
function anonClient(): SupabaseClient<Database> {
  return createClient<Database>((PUBLIC_SUPABASE_URL ?? LOCAL_SUPABASE_URL).replace(/\/+$/, ''), PUBLIC_SUPABASE_ANON_KEY ?? 'anon-key-missing', {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
  });
}

/** The catalogue of this server: the built file under SHOP_OUT_DIR, else the build's catalogue. */
export function defaultCatalogue(env: NodeJS.ProcessEnv = process.env): LiveExploreCatalogue {
  const outDir = env.SHOP_OUT_DIR;
  const source: CatalogueSource = outDir
    ? { file: path.join(outDir, 'client', 'explore', 'catalog.json') }
    : {
        read: async () => {
          // Loaded only here: the content store is what astro dev serves, not what production reads.
          const { exploreDataOf, getBuildCatalog } = await import('../snapshot/catalog.ts');
          return exploreDataOf(await getBuildCatalog());
        },
      };
  const live = Number(env.EXPLORE_LIVE_MS);
  return new LiveExploreCatalogue({ source, supabase: anonClient(), liveMs: Number.isFinite(live) && live > 0 ? live : EXPLORE_LIVE_MS });
}

let shared: LiveExploreCatalogue | null = null;

/** The /explore catalogue with live stock; never rejects once a catalogue was read once. */
export function exploreCatalogue(): Promise<LiveCatalogue> {
  shared ??= defaultCatalogue();
  return shared.get();
}
