/**
 * The `favorites` table: the products a shopper keeps with the heart, or one offer of a single card
 * (condition, language and finish: a shopper may want only the Spanish NM copy), saved to their
 * account so every device shows them. Row-level security lets each shopper read, add and remove
 * only their own; a second heart on the same product or offer is the same favorite (a unique
 * index), so adding twice is not an error.
 */
import { parseLiveProduct, type LiveProductRow } from '~/domain/products.ts';
import { parseLiveOffers } from '~/domain/live-offers.ts';
import { CARD_CONDITIONS, GRADING_COMPANIES, offerLabel, type CardCondition, type GradingCompany } from '~/domain/singles.ts';
import type { Centavos } from '~/domain/money.ts';
import { getSupabase } from './supabase.ts';
import type { DataResult } from './profiles.ts';

/** The offer a favorite keeps, with its label ('NM · Español · Normal') and live price and stock. */
interface FavoriteOffer {
  id: string;
  label: string;
  priceCentavos: Centavos;
  stock: number;
}

/** A favorite as the Favoritos tab shows it: the product (or one of its offers) with its live price and stock. */
export interface Favorite {
  id: string;
  productId: string;
  /** The offer of a single card the favorite keeps; null for the product as a whole. */
  offerId: string | null;
  name: string;
  image: string;
  /** Price, stock and availability as the database has them now; null when the row is unusable. */
  live: LiveProductRow | null;
  /** The kept offer as the database has it now; null for a product, or an offer that is gone. */
  offer: FavoriteOffer | null;
  createdAt: string;
}

const COLUMNS =
  'id, product_id, offer_id, created_at, products(id, name, image, price, original_price, discount, preorder, stock, available), card_offers(id, condition, language, finish, grading_company, grade, price, original_price, stock)';
/** Postgres' unique violation: the favorite is already there. */
const ALREADY_THERE = '23505';

function toOffer(row: unknown): FavoriteOffer | null {
  if (typeof row !== 'object' || row === null) return null;
  const r = row as Record<string, unknown>;
  const live = parseLiveOffers([r]).get(typeof r.id === 'string' ? r.id : '');
  if (!live || typeof r.language !== 'string' || typeof r.finish !== 'string') return null;
  const condition = CARD_CONDITIONS.includes(r.condition as CardCondition) ? (r.condition as CardCondition) : null;
  const gradingCompany = GRADING_COMPANIES.includes(r.grading_company as GradingCompany) ? (r.grading_company as GradingCompany) : null;
  const grade = typeof r.grade === 'number' ? r.grade : typeof r.grade === 'string' && r.grade.trim() !== '' ? Number(r.grade) : null;
  const label = offerLabel({
    condition,
    language: r.language,
    finish: r.finish,
    gradingCompany,
    grade: grade !== null && Number.isFinite(grade) ? grade : null,
  });
  return { id: live.id, label, priceCentavos: live.priceCentavos, stock: live.stock };
}

function toFavorite(row: Record<string, unknown>): Favorite | null {
  const product = row.products as Record<string, unknown> | null;
  if (typeof row.id !== 'string' || typeof row.product_id !== 'string' || !product) return null;
  const offerId = typeof row.offer_id === 'string' ? row.offer_id : null;
  return {
    id: row.id,
    productId: row.product_id,
    offerId,
    name: typeof product.name === 'string' ? product.name : row.product_id,
    image: typeof product.image === 'string' ? product.image : '',
    live: parseLiveProduct(product),
    offer: offerId ? toOffer(row.card_offers) : null,
    createdAt: typeof row.created_at === 'string' ? row.created_at : '',
  };
}

/**
 * The access token of `userId`'s session in this browser, or null when this browser is not (or no
 * longer) signed in as them. The favorites' read may start late (once the page is idle, or on a
 * live change), so it pins the token: a sign-out landing between deciding to read and sending the
 * request never sends the read as nobody.
 */
async function sessionTokenOf(userId: string): Promise<string | null> {
  const { data } = await getSupabase().auth.getSession();
  return data.session?.user.id === userId ? data.session.access_token : null;
}

/** The shopper's favorites, products and offers, newest first; null when this browser is no longer signed in as them (nothing is read). */
export async function listFavorites(userId: string): Promise<DataResult<Favorite[]> | null> {
  const token = await sessionTokenOf(userId);
  if (!token) return null;
  const { data, error } = await getSupabase()
    .from('favorites')
    .select(COLUMNS)
    .eq('user_id', userId)
    .order('created_at', { ascending: false })
    .setHeader('Authorization', `Bearer ${token}`);
  if (error) return { data: null, error };
  const rows = (data ?? []) as unknown as Record<string, unknown>[];
  return { data: rows.map(toFavorite).filter((favorite): favorite is Favorite => favorite !== null), error: null };
}

/** Keeps a product (or one offer of it) as a favorite of the signed-in shopper; already kept is fine. */
export async function addFavorite(productId: string, offerId: string | null = null): Promise<DataResult<true>> {
  const { error } = await getSupabase()
    .from('favorites')
    .insert(offerId ? { product_id: productId, offer_id: offerId } : { product_id: productId });
  if (error && error.code !== ALREADY_THERE) return { data: null, error };
  return { data: true, error: null };
}

/** Removes a product (or one offer of it) from the shopper's favorites (row-level security keeps it to their own). */
export async function removeFavorite(userId: string, productId: string, offerId: string | null = null): Promise<DataResult<true>> {
  const query = getSupabase().from('favorites').delete().eq('user_id', userId).eq('product_id', productId);
  const { error } = await (offerId ? query.eq('offer_id', offerId) : query.is('offer_id', null));
  if (error) return { data: null, error };
  return { data: true, error: null };
}

/**
 * Calls `onRemoved` with the id of every favorite removed, anyone's: a removal's change carries only
 * the row's id (and row-level security cannot check a row that is gone), so the caller keeps those
 * that are its own. Additions and a shopper's own rows come through subscribeToUserRows.
 */
export function subscribeToFavoriteRemovals(onRemoved: (id: string) => void): () => void {
  const supabase = getSupabase();
  const channel = supabase
    .channel(`favorites-removed-${Math.random().toString(36).slice(2, 10)}`)
    .on('postgres_changes', { event: 'DELETE', schema: 'public', table: 'favorites' }, (payload) => {
      const id = (payload.old as { id?: unknown } | null)?.id;
      if (typeof id === 'string') onRemoved(id);
    })
    .subscribe();
  return () => {
    void supabase.removeChannel(channel);
  };
}
