/**
 * The /explore catalogue the server filters for `/explore?q=…&franquicia=…`, with live stock.
 *
 * The catalogue is the one the build wrote (`<SHOP_OUT_DIR>/client/explore/catalog.json`), with
 * the edits the server published since written beside it (./catalog-edits.ts): checked at most
 * once a second and read again, in the background, when a rebuild published a new one
 * (`<outDir>/client` is a symlink a rebuild swaps, and an incremental rebuild rewrites the file)
 * or an edit new edits (the catalogue itself is then not read again); the old catalogue is served
 * until the new one is parsed and has read the changes made since shortly before its build read
 * the database (a new catalogue that keeps the served one's product objects, one read again
 * after an edit, reads only its other products, by id, and goes on from where the served one had
 * read to). Without SHOP_OUT_DIR (astro dev, tests) it is built from the build's catalogue, as
 * the JSON route does.
 *
 * Between rebuilds the stock moves: every EXPLORE_LIVE_MS (default 2 s) the products and card
 * offers changed since the last look are read with the anon key (both tables are public), and the
 * catalogue's products are updated in place: a product's stock, and a single's offers in stock
 * (the singles filters' tokens), its 'Desde' flag and its stock, computed from its offers with the
 * build's own rules (domain/product-schema.ts parseProduct, domain/explore.ts toExploreProduct).
 * The products array itself is only replaced by a new catalogue file or new edits, because the
 * search keys are cached by its identity; `version` counts both kinds of change, `searchVersion` those a
 * search can see (LiveCatalogue). Products that are not in the
 * catalogue are ignored: a new product appears with the rebuild that makes its page.
 */
import path from 'node:path';
import type { SupabaseClient } from '@supabase/supabase-js';
import { PUBLIC_SUPABASE_ANON_KEY, PUBLIC_SUPABASE_URL } from 'astro:env/client';
import type { Database } from '~/data/database.types.ts';
import { parseExploreData, type ExploreData, type ExploreProduct } from '~/domain/explore.ts';
import { isSoldOut } from '~/domain/products.ts';
import { API_EXPLORE_OPERATOR_TEXT } from '~/i18n/api.ts';
import { createUserClient, projectUrl } from '../supabase.ts';
import { catalogSignature, readCatalogWithEdits, type CatalogRead } from './catalog-file.ts';
import { applyFields, keptProducts, PAGE, productsById, readChangedPage, readChanges, readProducts, TABLES, type Place, type Table } from './live-changes.ts';

/**
 * The catalogue as it is now. `version` grows with every change of its data; `searchVersion` is
 * the version of the last change that can alter what a search finds or counts (a new catalogue, a
 * product sold out or back in stock, a single's copies in stock); `catalogVersion` the version at
 * which the catalogue served now was read (a build, or an edit the shop published);
 * `changedAt(id)` the version of a product's last change (0 if none since the catalogue was read).
 * A stock that moves and stays above zero changes only what a card of that product shows.
 */
export interface LiveCatalog {
  data: ExploreData;
  version: number;
  searchVersion: number;
  catalogVersion: number;
  changedAt: (id: string) => number;
}

/** Where the catalogue comes from: the built file (watched for rebuilds), or data read once. */
export type CatalogSource = { file: string } | { read: () => Promise<unknown> };

export interface LiveCatalogOptions {
  source: CatalogSource;
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
/** At most this many products of a new catalogue that are not the served one's objects are read by id (else its changes since it was made). */
const READ_BY_ID_MAX = 1000;

/** A catalogue kept live: one per source; `get()` is what the pages call. */
export class LiveExploreCatalog {
  private readonly source: CatalogSource;
  private readonly supabase: SupabaseClient<Database>;
  private readonly liveMs: number;
  private readonly checkFileMs: number;
  private readonly warn: (line: string) => void;

  private data: ExploreData | null = null;
  private byId = new Map<string, ExploreProduct>();
  private version = 0;
  private searchVersion = 0;
  private catalogVersion = 0;
  private readonly changed = new Map<string, number>();
  private readonly changedAt = (id: string) => this.changed.get(id) ?? 0;
  private loading: Promise<void> | null = null;
  /** The file's mtime, size and inode when it was last read (or refused). */
  private fileSignature = '';
  /** The file and its edits as last read, for the next read to keep what did not change. */
  private file: CatalogRead | null = null;
  private lastCheck = 0;
  private checking: Promise<boolean> | null = null;
  /** Each table's changes after this place (time on the database's clock, then id) are still to be read. */
  private places: Record<Table, Place> | null = null;
  private readonly overlapMs: number;
  private polling: Promise<boolean> | null = null;
  private timer: ReturnType<typeof setInterval> | null = null;

  constructor(options: LiveCatalogOptions) {
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
  async get(): Promise<LiveCatalog> {
    if (!this.data) {
      this.loading ??= this.load().finally(() => {
        this.loading = null;
      });
      await this.loading;
    } else if ('file' in this.source && Date.now() - this.lastCheck >= this.checkFileMs) {
      void this.checkFile();
    }
    this.startTimer();
    return { data: this.data!, version: this.version, searchVersion: this.searchVersion, catalogVersion: this.catalogVersion, changedAt: this.changedAt };
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
      if (!this.data) throw new Error(API_EXPLORE_OPERATOR_TEXT.fileNotExploreCatalog(this.source.file));
      return;
    }
    const data = parseExploreData(await this.source.read());
    if (!data) throw new Error(API_EXPLORE_OPERATOR_TEXT.unreadable);
    await this.install(data, Date.now());
  }

  private async readFileIfChanged(): Promise<boolean> {
    if (!('file' in this.source)) return false;
    const file = this.source.file;
    this.lastCheck = Date.now();
    try {
      // The catalogue and the edits written beside it (stat follows the client symlink, so a swapped build is a different file).
      const signature = await catalogSignature(file);
      if (signature === this.fileSignature) return false;
      // Recorded before the read: a file that does not parse is not read again until it changes.
      this.fileSignature = signature;
      // The products that did not change keep their objects (and the search what it prepared of them).
      const read = await readCatalogWithEdits(file, this.file);
      if (!read) throw new Error(API_EXPLORE_OPERATOR_TEXT.notExploreCatalog);
      // The products replaced since the served read, when the served catalogue is that read's.
      const replaced = this.file && this.data === this.file.data ? read.replaced : null;
      await this.install(read.data, Math.min(read.madeAt, Date.now()), replaced);
      this.file = read;
      return true;
    } catch (error) {
      if (!this.data) {
        // Read again at the next call: the first catalogue has to come from somewhere.
        this.fileSignature = '';
        throw error;
      }
      this.warn(API_EXPLORE_OPERATOR_TEXT.newCatalogUnreadable(file, messageOf(error)));
      return false;
    }
  }

  /**
   * Serves a new catalogue (a new products array), brought up to date first: the changes since
   * shortly before it was made are read into it before any answer uses it, so a change made while
   * the build ran (a drop scheduled, stock sold) is never missing from a fresh answer. Until then
   * the previous catalogue, kept live, is served. When the database cannot be read the catalogue
   * is served as built and the next poll reads those changes (and reports the failure).
   * `replaced`: the only products that are not the served ones, when that is known (an edit read).
   */
  private async install(data: ExploreData, madeAt: number, replaced: readonly ExploreProduct[] | null = null): Promise<void> {
    // A catalogue that keeps most of the served one's objects (read again after an edit) goes on
    // from where the served one's reading got to: those products are live already, and the few
    // others are read by id. Reading every change since it was made could take longer than a poll
    // may (a bulk import just before the build: the whole catalogue).
    const kept = this.places ? keptProducts(this.byId, data.products, replaced) : null;
    if (this.places && kept && kept.fresh.size <= READ_BY_ID_MAX) {
      const places = { ...this.places };
      try {
        const changes = await readProducts(this.supabase, [...kept.fresh.keys()], kept.fresh, AbortSignal.timeout(POLL_TIMEOUT_MS));
        for (const [id, fields] of changes) applyFields(kept.fresh.get(id)!, fields);
        // The served map with the fresh products set in it, when no served product is left out.
        if (!kept.whole) return this.serve(data, productsById(data), places);
        for (const [id, product] of kept.fresh) this.byId.set(id, product);
        return this.serve(data, this.byId, places);
      } catch {
        // Brought up to date as any new catalogue is, below.
      }
    }
    const byId = productsById(data);
    const readFrom = data.readFrom ? Date.parse(data.readFrom) - READ_MARGIN_MS : -Infinity;
    const since = new Date(Math.min(madeAt, Math.max(madeAt - LOOKBACK_MS, readFrom))).toISOString();
    const places = {} as Record<Table, Place>;
    for (const table of TABLES) {
      const kept = this.places?.[table];
      places[table] = kept && Date.parse(kept.at) <= Date.parse(since) ? { ...kept } : { at: since, id: '' };
    }
    try {
      await this.readChangesInto(byId, places, (changes) => {
        for (const [id, fields] of changes) applyFields(byId.get(id)!, fields);
        return true;
      });
    } catch {
      // Served as built; the places are where the reading got to, and the next poll goes on.
    }
    this.serve(data, byId, places);
  }

  private serve(data: ExploreData, byId: Map<string, ExploreProduct>, places: Record<Table, Place>): void {
    this.data = data;
    this.byId = byId;
    this.places = places;
    this.version++;
    this.searchVersion = this.version;
    this.catalogVersion = this.version;
    this.changed.clear();
  }

  private async pollOnce(): Promise<boolean> {
    const data = this.data;
    const places = this.places;
    if (!data || !places) return false;
    let changed = false;
    try {
      // A new catalogue arrived meanwhile: these objects are no longer served, and the new one
      // was brought up to date before it was.
      await this.readChangesInto(this.byId, places, (changes, byId) => {
        if (this.data !== data) return false;
        if (this.apply(changes, byId)) changed = true;
        return true;
      });
    } catch (error) {
      this.warn(API_EXPLORE_OPERATOR_TEXT.liveStockUnreadable(messageOf(error)));
    }
    return changed;
  }

  /**
   * Reads each table's changes after its place, page by page, hands each page to `take` (which
   * answers false to stop) and moves the place on: to the last row read, or to the safe time when
   * that row is newer. Rejects when the database cannot be read; what was read stays applied.
   */
  private async readChangesInto(
    byId: Map<string, ExploreProduct>,
    places: Record<Table, Place>,
    take: (changes: Map<string, Partial<ExploreProduct>>, byId: Map<string, ExploreProduct>) => boolean,
  ): Promise<void> {
    // A place never goes past OVERLAP_MS before this read, for the transactions that commit after it.
    const safe = Date.now() - this.overlapMs;
    const signal = AbortSignal.timeout(POLL_TIMEOUT_MS);
    for (const table of TABLES) {
      let after = places[table];
      for (;;) {
        const rows = await readChangedPage(this.supabase, table, after, signal);
        const changes = await readChanges(this.supabase, table, rows, byId, signal);
        if (!take(changes, byId)) return;
        const last = rows[rows.length - 1];
        if (!last) break;
        if (Date.parse(last.updated_at) <= safe) places[table] = { at: last.updated_at, id: last.id };
        else if (safe > Date.parse(places[table].at)) places[table] = { at: new Date(safe).toISOString(), id: '' };
        if (rows.length < PAGE) break;
        after = { at: last.updated_at, id: last.id };
      }
    }
  }

  /** Writes the changes into the catalogue's products; true when any value changed. */
  private apply(changes: Map<string, Partial<ExploreProduct>>, byId: Map<string, ExploreProduct>): boolean {
    const changed: string[] = [];
    let searched = false;
    for (const [id, fields] of changes) {
      const product = byId.get(id)!;
      const before = { soldOut: isSoldOut(product), offers: product.offers, rarity: product.rarity, onSaleAt: product.onSaleAt };
      if (!applyFields(product, fields)) continue;
      changed.push(id);
      // A drop scheduled, moved or removed changes every page, not only its card's: /explore
      // carries the drops' script while any drop is ahead (src/pages/explore.astro).
      if (before.soldOut !== isSoldOut(product) || before.offers !== product.offers || before.rarity !== product.rarity || before.onSaleAt !== product.onSaleAt)
        searched = true;
    }
    if (changed.length === 0) return false;
    this.version++;
    for (const id of changed) this.changed.set(id, this.version);
    if (searched) this.searchVersion = this.version;
    return true;
  }
}

/** An error as part of one log line. */
function messageOf(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).replace(/\s+/g, ' ').trim();
}

/** The anon client of the live stock, from the configuration the server's other code reads. */
function anonClient(): SupabaseClient<Database> {
  return createUserClient(projectUrl(PUBLIC_SUPABASE_URL), PUBLIC_SUPABASE_ANON_KEY);
}

/** The catalogue of this server: the built file under SHOP_OUT_DIR, else the build's catalogue. */
export function defaultCatalog(env: NodeJS.ProcessEnv = process.env): LiveExploreCatalog {
  const outDir = env.SHOP_OUT_DIR;
  const source: CatalogSource = outDir
    ? { file: path.join(outDir, 'client', 'explore', 'catalog.json') }
    : {
        read: async () => {
          // Loaded only here: the content store is what astro dev serves, not what production reads.
          const { exploreDataOf, getBuildCatalog } = await import('../snapshot/catalog.ts');
          return exploreDataOf(await getBuildCatalog());
        },
      };
  const live = Number(env.EXPLORE_LIVE_MS);
  return new LiveExploreCatalog({ source, supabase: anonClient(), liveMs: Number.isFinite(live) && live > 0 ? live : EXPLORE_LIVE_MS });
}

let shared: LiveExploreCatalog | null = null;

/** The /explore catalogue with live stock; never rejects once a catalogue was read once. */
export function exploreCatalog(): Promise<LiveCatalog> {
  shared ??= defaultCatalog();
  return shared.get();
}

/**
 * Tells this server's catalogue that its file was just written (an edit it published): read at
 * once. Resolves once it is read, after `prepare` has had the new catalogue (never rejects).
 */
export async function exploreCatalogChanged(prepare: (catalog: LiveCatalog) => void = () => {}): Promise<void> {
  if (!shared) return;
  // A check under way may have looked before the edit wrote: the next one reads what it wrote.
  await shared.checkFile();
  await shared.checkFile();
  prepare(await shared.get());
}
