/**
 * What the /explore catalogue reads between rebuilds (explore/catalog.ts polls with it): the rows
 * of products and card_offers changed after a place, a page at a time, and what those changes make
 * of the catalogue's products, with the build's own rules (domain/product-schema.ts parseProduct,
 * domain/explore.ts toExploreProduct).
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import type { Database } from '~/data/database.types.ts';
import { toExploreProduct, type ExploreProduct } from '~/domain/explore.ts';
import { parseProduct } from '~/domain/product-schema.ts';

/** Rows per request: PostgREST's default db-max-rows. */
export const PAGE = 1000;
/** Product ids per request for their offers (the ids travel in the URL). */
const IDS_PER_REQUEST = 100;

type OfferRow = Record<string, unknown> & { id: string; product_id: string };
/** The tables whose changes are read, in the order a poll reads them. */
export const TABLES = ['products', 'card_offers'] as const;
export type Table = (typeof TABLES)[number];
/** Where a table's changes have been read up to: a change time and, among rows of that time, an id ('' for none yet). */
export interface Place {
  at: string;
  id: string;
}
/** A products row (id, stock, on_sale_at) or a card_offers row (id, product_id), with its change time. */
export type ChangedRow = { id: string; stock?: unknown; on_sale_at?: unknown; product_id: string; updated_at: string };

/** The catalogue's products a page of changed rows touches, as the build would read them now. */
export async function readChanges(
  supabase: SupabaseClient<Database>,
  table: Table,
  rows: ChangedRow[],
  byId: Map<string, ExploreProduct>,
  signal: AbortSignal,
): Promise<Map<string, Partial<ExploreProduct>>> {
  const rowStock = new Map<string, number>();
  // When a timed drop goes on sale (an instant; undefined when it is on sale now), for products rows that say.
  const rowOnSale = new Map<string, string | undefined>();
  const singles = new Set<string>();
  for (const row of rows) {
    if (table === 'products') {
      if (byId.has(row.id) && typeof row.stock === 'number') rowStock.set(row.id, row.stock);
      if (byId.has(row.id) && 'on_sale_at' in row) rowOnSale.set(row.id, onSaleAtOf(row.on_sale_at));
    } else if (byId.has(row.product_id)) singles.add(row.product_id);
  }
  // Singles whose row or offers changed get their offers read: their stock is their offers'.
  for (const id of rowStock.keys()) if (byId.get(id)!.offers !== undefined) singles.add(id);
  const offers = await readOffers(supabase, [...singles], signal);

  const changes = new Map<string, Partial<ExploreProduct>>();
  for (const id of new Set([...rowStock.keys(), ...singles])) {
    const current = byId.get(id)!;
    const onSale = rowOnSale.has(id) ? { onSaleAt: rowOnSale.get(id) } : {};
    const rows = offers.get(id) ?? [];
    // The product as the build's snapshot would read it now, so its stock, tokens and 'Desde'
    // follow the build's rules: a single's stock is its offers', a sealed product's its row's.
    const product = parseProduct({ id, name: current.name, price: 0, stock: rowStock.get(id) ?? current.stock, card_offers: rows });
    // An offer the schema refuses: the build leaves the product out too; the rebuild decides.
    if (!product) continue;
    const fresh = toExploreProduct(product, current.image);
    const fields: Partial<ExploreProduct> = { stock: fresh.stock, ...onSale };
    if (current.offers !== undefined || fresh.offers !== undefined) {
      fields.offers = fresh.offers ?? '';
      fields.from = fresh.from;
      if (current.rarity === undefined) fields.rarity = '';
    }
    changes.set(id, fields);
  }
  // A product whose drop time changed and whose stock the build's rules could not read again.
  for (const [id, onSaleAt] of rowOnSale) if (!changes.has(id)) changes.set(id, { onSaleAt });
  return changes;
}

/** A drop instant as the catalogue keeps it (ISO), or undefined when there is none. */
function onSaleAtOf(value: unknown): string | undefined {
  const at = typeof value === 'string' ? Date.parse(value) : NaN;
  return Number.isFinite(at) ? new Date(at).toISOString() : undefined;
}

/**
 * One page of the rows of `table` changed after `after`, oldest first. Each request is one range
 * of the table's (updated_at, id) index: first the rest of the place's own time after its id,
 * then the later times. A single filter for both ('a later time, or the same time and a greater
 * id') is an OR, which Postgres cannot read as one range of the index: it reads the index from
 * its start, or every row left and sorts them, for each page of a change of many rows in one
 * statement (an import, a seed: one updated_at).
 */
export async function readChangedPage(supabase: SupabaseClient<Database>, table: Table, after: Place, signal: AbortSignal): Promise<ChangedRow[]> {
  const columns = table === 'products' ? 'id, stock, on_sale_at, updated_at' : 'id, product_id, updated_at';
  // Untyped: the columns are chosen per table, and the rows are checked where they are used.
  const rows = () => (supabase as unknown as SupabaseClient).from(table).select(columns).abortSignal(signal).retry(false);
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

/**
 * The catalogue's products `ids` as the database has them now (stock, drop time, a single's
 * offers), as readChanges makes them of their rows: for a catalogue whose other products are
 * live already (explore/catalog.ts, a catalogue read again after an edit).
 */
export async function readProducts(
  supabase: SupabaseClient<Database>,
  ids: readonly string[],
  byId: Map<string, ExploreProduct>,
  signal: AbortSignal,
): Promise<Map<string, Partial<ExploreProduct>>> {
  const rows: ChangedRow[] = [];
  for (let i = 0; i < ids.length; i += IDS_PER_REQUEST) {
    const { data, error } = await (supabase as unknown as SupabaseClient)
      .from('products')
      .select('id, stock, on_sale_at, updated_at')
      .in('id', ids.slice(i, i + IDS_PER_REQUEST))
      .abortSignal(signal)
      .retry(false);
    if (error) throw new Error(`products: ${error.message}`);
    rows.push(...((data ?? []) as ChangedRow[]));
  }
  return readChanges(supabase, 'products', rows, byId, signal);
}

/**
 * What a new catalogue keeps of the served one (`served`, its products by id): the products that
 * are not served objects (`fresh`, by id: an edit's, read again), and whether every served product
 * is in it still (`whole`: then its map is the served one with the fresh products set in it; a map
 * of 100,000 products made anew took about 100 ms, on every server, after every edit). With
 * `changed`, the caller vouches that every other product is the served object in the same place.
 */
export function keptProducts(
  served: ReadonlyMap<string, ExploreProduct>,
  products: readonly ExploreProduct[],
  changed: readonly ExploreProduct[] | null = null,
): { fresh: Map<string, ExploreProduct>; whole: boolean } {
  const fresh = new Map<string, ExploreProduct>();
  let replaced = 0;
  // `changed`: the products are the served ones but these, each in the place of its id's (an
  // edit read, catalog-file.ts withEdits); only they are compared (100,000 took 27 ms an edit).
  for (const product of changed ?? products) {
    if (served.get(product.id) === product) continue;
    fresh.set(product.id, product);
    if (served.has(product.id)) replaced += 1;
  }
  return { fresh, whole: served.size === products.length - fresh.size + replaced };
}

/** A catalogue's products by id. */
export function productsById(data: { products: readonly ExploreProduct[] }): Map<string, ExploreProduct> {
  return new Map(data.products.map((product) => [product.id, product]));
}

/** Every offer of these products, by product id. */
async function readOffers(supabase: SupabaseClient<Database>, ids: string[], signal: AbortSignal): Promise<Map<string, OfferRow[]>> {
  const byProduct = new Map<string, OfferRow[]>();
  for (let i = 0; i < ids.length; i += IDS_PER_REQUEST) {
    const chunk = ids.slice(i, i + IDS_PER_REQUEST);
    let after = '';
    for (;;) {
      let query = supabase
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

/** Writes `fields` into `product` (undefined removes a field); true when a value changed. */
export function applyFields(product: ExploreProduct, fields: Partial<ExploreProduct>): boolean {
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
