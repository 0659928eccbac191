/**
 * The buy box's live read of a product over supabase-js. Parsed with the light rules of
 * domain/products.ts (no zod: this runs in the browser); the whole row for server routes is read
 * by ./product-row.ts.
 */
import { parseLiveProduct, type LiveProductRow } from '~/domain/products.ts';
import { parseLiveOffers, type LiveOffer } from '~/domain/live-offers.ts';
import { openPreorderStock, withPreorderStock } from './preorders.ts';
import { getSupabase } from './supabase.ts';

/** Price and stock as the database has them right now. */
export type LiveProduct = LiveProductRow;

/** The current price and stock of one product; null when it no longer exists. Throws on network errors. */
export async function fetchLiveProduct(id: string): Promise<LiveProduct | null> {
  // Asked at the same time: a preorder in its open campaign counts the units the campaign still allows.
  const preorder = openPreorderStock([id]).catch(() => new Map<string, number | null>());
  const { data, error } = await getSupabase()
    .from('products')
    .select('id, name, price, original_price, discount, preorder, stock, available, on_sale_at')
    .eq('id', id)
    .maybeSingle();
  if (error) throw new Error(error.message);
  if (!data) return null;
  const parsed = parseLiveProduct(data);
  if (!parsed) return null;
  return withPreorderStock([parsed], await preorder)[0] ?? parsed;
}

/** A single card's availability and its offers' live price and stock. */
export interface LiveOffers {
  available: boolean;
  offers: Map<string, LiveOffer>;
}

/**
 * The live price and stock of every offer of one single card, with the product's availability, in
 * one request (card_offers embedded in the product row); null when the product no longer exists.
 * Throws on network errors.
 */
export async function fetchLiveOffers(productId: string): Promise<LiveOffers | null> {
  const { data, error } = await getSupabase()
    .from('products')
    .select('id, available, card_offers(id, price, original_price, stock)')
    .eq('id', productId)
    .maybeSingle();
  if (error) throw new Error(error.message);
  if (!data) return null;
  const row = data as unknown as Record<string, unknown>;
  return { available: row.available !== false, offers: parseLiveOffers(row.card_offers) };
}
