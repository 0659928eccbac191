/**
 * The back office's door to a single card's rows: its printing (public.card_printings, one per
 * product, saved as an upsert by product) and its offers (public.card_offers). Everything goes
 * with the admin's own session: row-level security lets only admins write. An offer's stock is
 * never written directly: admin_set_offer_stock compares it with the stock the admin read
 * (supabase/migrations/20261126000400_admin_offer_stock.sql), so units shoppers reserved meanwhile
 * are never put on sale twice. Prices are Centavos on both sides: read into Centavos and written
 * back as the numeric column's pesos here, nowhere else.
 */
import * as z from 'zod/mini';
import { getSupabase } from './supabase.ts';
import type { Tables, TablesInsert } from './database.types.ts';
import { type Centavos, toCentavos, toPesos } from '~/domain/money.ts';
import { sortOffers, type CardCondition, type GradingCompany, type SingleOffer } from '~/domain/singles.ts';

/** A single's printing as the back office edits it. */
export interface AdminPrinting {
  /** The set code as printed ('OP05', 'sv08'); '' when not known. */
  setCode: string;
  collectorNumber: string;
  rarity: string;
  nameEn: string;
  nameEs: string;
}

/** What the back office writes for an offer: a raw copy or a slab, prices as Centavos. */
export type OfferSave =
  | {
      kind: 'raw';
      condition: CardCondition;
      language: string;
      finish: string;
      priceCentavos: Centavos;
      originalPriceCentavos: Centavos | null;
      stock: number;
    }
  | {
      kind: 'slab';
      gradingCompany: GradingCompany;
      grade: number;
      certificateNumber: string;
      language: string;
      finish: string;
      priceCentavos: Centavos;
      originalPriceCentavos: Centavos | null;
      stock: number;
      images: string[];
    };

/** Why a write was refused: not an admin, a raw offer of that kind already on sale, a certificate already on sale, or anything else. */
export type WriteFailureKind = 'forbidden' | 'duplicate_offer' | 'duplicate_certificate' | 'failed';

export interface WriteFailure {
  ok: false;
  kind: WriteFailureKind;
  message: string;
}

type DbError = { message: string; code?: string; details?: string | null } | null;

/** Names the refusal of a database error. */
export function failureOf(error: NonNullable<DbError>): WriteFailure {
  const text = `${error.message} ${error.details ?? ''}`;
  let kind: WriteFailureKind = 'failed';
  if (error.code === '42501' || /row-level security|permission denied/i.test(text)) kind = 'forbidden';
  else if (error.code === '23505' && /certificate/i.test(text)) kind = 'duplicate_certificate';
  else if (error.code === '23505') kind = 'duplicate_offer';
  return { ok: false, kind, message: error.message };
}

type OfferRow = Tables<'card_offers'>;
type PrintingRow = Tables<'card_printings'>;

/** The offer the screens use, from its row: numeric prices become Centavos here. */
export function offerOf(row: OfferRow): SingleOffer {
  return {
    id: row.id,
    condition: row.condition,
    language: row.language,
    finish: row.finish,
    priceCentavos: toCentavos(row.price),
    originalPriceCentavos: row.original_price === null ? null : toCentavos(row.original_price),
    stock: row.stock,
    gradingCompany: row.grading_company,
    grade: row.grade === null ? null : Number(row.grade),
    certificateNumber: row.certificate_number,
    images: row.images ?? [],
    position: row.position,
  };
}

function printingOf(row: PrintingRow): AdminPrinting {
  return {
    setCode: row.expansion ?? '',
    collectorNumber: row.collector_number,
    rarity: row.rarity,
    nameEn: row.name_en ?? '',
    nameEs: row.name_es ?? '',
  };
}

/** The columns an offer is written with: a slab has no condition, a raw copy no slab fields. */
export function offerColumns(offer: OfferSave): Omit<TablesInsert<'card_offers'>, 'product_id' | 'stock'> {
  const original = offer.originalPriceCentavos;
  const shared = {
    language: offer.language,
    finish: offer.finish,
    price: toPesos(offer.priceCentavos),
    original_price: original === null ? null : toPesos(original),
  };
  if (offer.kind === 'slab') {
    return {
      ...shared,
      condition: null,
      grading_company: offer.gradingCompany,
      grade: offer.grade,
      certificate_number: offer.certificateNumber.trim(),
      images: offer.images,
    };
  }
  return { ...shared, condition: offer.condition, grading_company: null, grade: null, certificate_number: null, images: [] };
}

/** A single's printing (null when it has none yet) and its offers in the shop's order; null when they cannot be read. */
export async function loadSingle(productId: string): Promise<{ printing: AdminPrinting | null; offers: SingleOffer[] } | null> {
  const supabase = getSupabase();
  const [printing, offers] = await Promise.all([
    supabase.from('card_printings').select('*').eq('product_id', productId).maybeSingle(),
    supabase.from('card_offers').select('*').eq('product_id', productId).order('position').order('created_at'),
  ]);
  if (printing.error || offers.error) return null;
  return { printing: printing.data ? printingOf(printing.data) : null, offers: sortOffers((offers.data ?? []).map(offerOf)) };
}

/** Saves a single's printing: inserted the first time, replaced afterwards (one per product). */
export async function savePrinting(productId: string, franchise: string, printing: AdminPrinting): Promise<{ ok: true } | WriteFailure> {
  const blankToNull = (text: string) => (text.trim() === '' ? null : text.trim());
  const { error } = await getSupabase()
    .from('card_printings')
    .upsert(
      {
        product_id: productId,
        franchise,
        expansion: blankToNull(printing.setCode),
        collector_number: printing.collectorNumber.trim(),
        rarity: printing.rarity,
        name_en: blankToNull(printing.nameEn),
        name_es: blankToNull(printing.nameEs),
      },
      { onConflict: 'product_id' },
    );
  return error ? failureOf(error) : { ok: true };
}

/** Adds an offer with its first stock (a new offer cannot have been reserved yet). */
export async function addOffer(productId: string, offer: OfferSave, position: number): Promise<{ ok: true; offer: SingleOffer } | WriteFailure> {
  const { data, error } = await getSupabase()
    .from('card_offers')
    .insert({ ...offerColumns(offer), product_id: productId, stock: offer.stock, position })
    .select('*')
    .single();
  if (error || !data) return failureOf(error ?? { message: '' });
  return { ok: true, offer: offerOf(data) };
}

/** Writes an offer's columns except its stock (see setOfferStock). */
export async function updateOffer(id: string, offer: OfferSave): Promise<{ ok: true; offer: SingleOffer } | WriteFailure> {
  const { data, error } = await getSupabase().from('card_offers').update(offerColumns(offer)).eq('id', id).select('*').maybeSingle();
  if (error) return failureOf(error);
  // No row back: the offer is gone, or row-level security hid it (not an admin).
  if (!data) return { ok: false, kind: 'failed', message: '' };
  return { ok: true, offer: offerOf(data) };
}

/** Removes an offer; orders that sold it keep its description. */
export async function deleteOffer(id: string): Promise<{ ok: true } | WriteFailure> {
  const { error } = await getSupabase().from('card_offers').delete().eq('id', id);
  return error ? failureOf(error) : { ok: true };
}

/** How a stock save ended: saved, refused because the stock moved meanwhile (with the stock now), or failed. */
export type OfferStockResult = { status: 'saved'; stock: number } | { status: 'stock_changed'; stock: number } | { status: 'failed'; message: string };

const stockAnswer = z.object({ saved: z.boolean(), stock: z.number().check(z.int()) });

/**
 * Sets an offer's stock only if it is still `stockRead`, the stock the grid showed; when shoppers
 * reserved or released units meanwhile nothing is written and the answer carries the stock now.
 */
export async function setOfferStock(id: string, stockRead: number, stock: number): Promise<OfferStockResult> {
  const { data, error } = await getSupabase().rpc('admin_set_offer_stock', { p_offer_id: id, p_stock_read: stockRead, p_stock: stock });
  if (error) return { status: 'failed', message: error.message };
  const parsed = stockAnswer.safeParse(data);
  if (!parsed.success) return { status: 'failed', message: '' };
  return { status: parsed.data.saved ? 'saved' : 'stock_changed', stock: parsed.data.stock };
}

/** The summary of a single's offers the product list shows: how many, the cheapest and the units in all. */
export interface OffersSummary {
  count: number;
  fromCentavos: Centavos | null;
  stock: number;
}

/** Sums up offers read as `{ price, stock }`. */
export function summarizeOffers(offers: ReadonlyArray<{ price: number | string; stock: number }>): OffersSummary {
  let from: Centavos | null = null;
  let stock = 0;
  for (const offer of offers) {
    const price = toCentavos(offer.price);
    if (from === null || price < from) from = price;
    stock += offer.stock;
  }
  return { count: offers.length, fromCentavos: from, stock };
}
