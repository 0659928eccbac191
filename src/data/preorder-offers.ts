/**
 * Preorders of a single's offers from the browser: which offers of these cards are in an open
 * preorder campaign, with their release date and the units one order may take
 * (preorder_open_offers); the offer picker's live read with those units in place of the empty
 * shelf's; and the offers of a card for the back office's Preventas form.
 */
import { offerLabel, type CardCondition, type GradingCompany } from '~/domain/singles.ts';
import { fetchLiveOffers, type LiveOffers } from './products.ts';
import { getSupabase } from './supabase.ts';

/** An offer in an open preorder campaign. */
export interface OpenOfferPreorder {
  productId: string;
  /** The campaign's release date, 'YYYY-MM-DD'. */
  releaseDate: string;
  /** The units one order may take now. */
  remaining: number;
}

/** Offer id → its open preorder campaign, for the offers of these products that have one. */
export async function openPreorderOffers(productIds: readonly string[]): Promise<Map<string, OpenOfferPreorder>> {
  const map = new Map<string, OpenOfferPreorder>();
  if (productIds.length === 0) return map;
  const { data, error } = await getSupabase().rpc('preorder_open_offers', { p_product_ids: [...productIds] });
  if (error) throw new Error(error.message);
  for (const row of data ?? []) {
    if (!row.offer_id || !row.product_id) continue;
    map.set(row.offer_id, { productId: row.product_id, releaseDate: String(row.release_date).slice(0, 10), remaining: Math.max(0, row.remaining ?? 0) });
  }
  return map;
}

/** A single card's live offers, with the release date of each offer sold as a preorder now. */
export interface LiveOffersWithPreorders extends LiveOffers {
  /** Offer id → release date ('YYYY-MM-DD') of the offers in an open preorder campaign. */
  preorders: Map<string, string>;
}

/**
 * The offer picker's live read: each offer's live price and stock, an offer in an open preorder
 * campaign counting the units one order may take instead of the shelf's. A failed read of the
 * campaigns leaves the shelf's stock (the order is checked by the database anyway).
 */
export async function fetchLiveOffersWithPreorders(productId: string): Promise<LiveOffersWithPreorders | null> {
  const campaigns = openPreorderOffers([productId]).catch(() => new Map<string, OpenOfferPreorder>());
  const live = await fetchLiveOffers(productId);
  if (!live) return null;
  const open = await campaigns;
  const offers = new Map(live.offers);
  const preorders = new Map<string, string>();
  for (const [id, campaign] of open) {
    const offer = offers.get(id);
    if (!offer) continue;
    offers.set(id, { ...offer, stock: campaign.remaining });
    preorders.set(id, campaign.releaseDate);
  }
  return { ...live, offers, preorders };
}

/** An offer of a card as the back office names it. */
export interface AdminOfferChoice {
  id: string;
  label: string;
}

/** The offers of a product (none for a sealed product), named as the shop names them. */
export async function offersOfProduct(productId: string): Promise<AdminOfferChoice[]> {
  const { data, error } = await getSupabase()
    .from('card_offers')
    .select('id, condition, language, finish, grading_company, grade, position')
    .eq('product_id', productId)
    .order('position')
    .order('id');
  if (error) throw new Error(error.message);
  return (data ?? []).map((row) => ({
    id: row.id,
    label: offerLabel({
      condition: row.condition as CardCondition | null,
      language: row.language,
      finish: row.finish,
      gradingCompany: row.grading_company as GradingCompany | null,
      grade: row.grade === null ? null : Number(row.grade),
    }),
  }));
}
