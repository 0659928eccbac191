/**
 * What the build writes for each single card, from its snapshot product: its facets for the
 * singles filters (../singles-facets.ts) and its card text for the header search (../name-matching/matching.ts cardText).
 */
import { SINGLES_TYPE_IDS } from '../catalog.ts';
import type { Product } from '../products.ts';
import { normalizeCollectorNumber } from '../singles.ts';
import { SLAB, type CardFacets } from '../singles-facets.ts';
import { cardText } from '../name-matching/matching.ts';

type CardProduct = Pick<Product, 'name' | 'printing' | 'offers'> & { product_type_id?: string | null };

/**
 * Types whose products are one card each: the singles types, and Pokémon's graded cards sold as
 * a product of their own (a slab without a printing). The search ranks them as cards.
 */
const CARD_TYPE_IDS: readonly string[] = [...SINGLES_TYPE_IDS, 'graded-card'];

/** Whether a product is a single card sold by offer (it has a printing or offers). */
export function isSingle(product: Pick<Product, 'printing' | 'offers'>): boolean {
  return product.printing !== null || product.offers.length > 0;
}

/** A single's facets (rarity, offers in stock as tokens 'LP.en.parallel' / 'G.ja.normal'); null for any other product. */
export function productFacets(product: CardProduct): CardFacets | null {
  if (!isSingle(product)) return null;
  const tokens: string[] = [];
  for (const offer of product.offers) {
    if (offer.stock <= 0) continue;
    const token = `${offer.gradingCompany ? SLAB : (offer.condition ?? '')}.${offer.language}.${offer.finish}`;
    if (!tokens.includes(token)) tokens.push(token);
  }
  return { rarity: product.printing?.rarity ?? '', offers: tokens.join(' ') };
}

/** A trailing '(…)' of a product name: the expansion a card product without a printing names there. */
const TRAILING_NOTE = /\s*\([^()]*\)\s*$/;

/**
 * The header search's card text of a product (matching.ts cardText): a single's collector key
 * and card names; a card product without a printing ('Pikachu & Zekrom GX PSA 10 (Unión de
 * Aliados)') takes its name without the trailing note in parentheses as the card's name; '' for
 * anything else.
 */
export function productCard(product: CardProduct): string {
  const printing = product.printing;
  if (printing) return cardText(product.name, normalizeCollectorNumber(printing.collectorNumber), [printing.nameEn, printing.nameEs]);
  if (product.offers.length > 0 || CARD_TYPE_IDS.includes(product.product_type_id ?? ''))
    return cardText(product.name, '', [product.name.replace(TRAILING_NOTE, '')]);
  return '';
}
