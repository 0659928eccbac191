/**
 * Single cards as card shops sell them: the labels of what public.card_printings and
 * public.card_offers hold (supabase/migrations/20261126000200_card_printings_offers.sql).
 *
 *   condition   NM, LP, MP, HP, DMG, explained to shoppers on /guia-de-condiciones
 *   language    the code stored in card_offers.language ('es', 'en', 'ja', …) and its Spanish name;
 *               each franchise lists the languages it prints
 *   finish      the code stored in card_offers.finish ('normal', 'holo', 'reverse-holo', …)
 *   rarity      the code stored in card_printings.rarity, with the name each game prints
 *   slab        a graded card: PSA, BGS or CGC, a grade from 1 to 10 in half points, and a
 *               certificate number anyone can look up on the grader's site
 */
import { PRODUCT_CONDITION_TEXT, PRODUCT_FINISH_TEXT, PRODUCT_LANGUAGE_TEXT, PRODUCT_RARITY_TEXT } from '../i18n/product.ts';
import type { FranchiseId } from './catalog.ts';
import type { Centavos } from './money.ts';

export const CARD_CONDITIONS = ['NM', 'LP', 'MP', 'HP', 'DMG'] as const;
export type CardCondition = (typeof CARD_CONDITIONS)[number];

/** The condition's Spanish name, with the code shops use everywhere. */
export const CONDITION_LABELS: Readonly<Record<CardCondition, string>> = PRODUCT_CONDITION_TEXT;

export const GRADING_COMPANIES = ['PSA', 'BGS', 'CGC'] as const;
export type GradingCompany = (typeof GRADING_COMPANIES)[number];

export interface Choice {
  /** What the database stores. */
  code: string;
  /** What the shopper reads. */
  label: string;
}

/** Every language code the shop stores, with its Spanish name. */
export const LANGUAGE_LABELS: Readonly<Record<string, string>> = PRODUCT_LANGUAGE_TEXT;

/** The languages each game is printed in, most asked for first. */
const LANGUAGES: Readonly<Record<FranchiseId, readonly string[]>> = {
  pokemon: ['es', 'en', 'ja', 'fr', 'de', 'it', 'pt', 'ko', 'zh'],
  'one-piece': ['en', 'ja', 'zh', 'fr'],
  riftbound: ['en', 'zh'],
};

/** Every finish code the shop stores, with its name. */
export const FINISH_LABELS: Readonly<Record<string, string>> = PRODUCT_FINISH_TEXT;

const FINISHES: Readonly<Record<FranchiseId, readonly string[]>> = {
  pokemon: ['normal', 'holo', 'reverse-holo'],
  'one-piece': ['normal', 'parallel', 'manga'],
  riftbound: ['normal', 'foil'],
};

function choices(codes: readonly string[], labels: Readonly<Record<string, string>>): Choice[] {
  return codes.map((code) => ({ code, label: labels[code] ?? code }));
}

/**
 * The rarities as each game prints them, from the most common: Pokémon with the names of its
 * Spanish cards, One Piece with the letters printed on the card (and their English names, the game
 * has no Spanish edition), Riftbound with its English names (printed in English and Chinese only).
 * Their names are in the catalogue (PRODUCT_RARITY_TEXT).
 */
const RARITY_CODES: Readonly<Record<FranchiseId, readonly string[]>> = {
  pokemon: ['common', 'uncommon', 'rare', 'holo-rare', 'double-rare', 'ultra-rare', 'illustration-rare', 'special-illustration-rare', 'hyper-rare', 'ace-spec'],
  'one-piece': ['C', 'UC', 'R', 'SR', 'SEC', 'L', 'SP', 'TR'],
  riftbound: ['common', 'uncommon', 'rare', 'epic', 'showcase'],
};
const RARITIES: Readonly<Record<FranchiseId, readonly Choice[]>> = {
  pokemon: choices(RARITY_CODES.pokemon, PRODUCT_RARITY_TEXT.pokemon),
  'one-piece': choices(RARITY_CODES['one-piece'], PRODUCT_RARITY_TEXT['one-piece']),
  riftbound: choices(RARITY_CODES.riftbound, PRODUCT_RARITY_TEXT.riftbound),
};

/** The languages a franchise prints, in the order a form lists them. */
export function languagesOf(franchise: FranchiseId): Choice[] {
  return choices(LANGUAGES[franchise], LANGUAGE_LABELS);
}

/** The finishes a franchise prints. */
export function finishesOf(franchise: FranchiseId): Choice[] {
  return choices(FINISHES[franchise], FINISH_LABELS);
}

/** The rarities a franchise prints, from the most common. */
export function raritiesOf(franchise: FranchiseId): Choice[] {
  return [...RARITIES[franchise]];
}

/** The name of a rarity code of a franchise; an unknown code is shown as stored. */
export function rarityLabel(franchise: FranchiseId, code: string): string {
  return RARITIES[franchise].find((rarity) => rarity.code === code)?.label ?? code;
}

/** The Spanish name of a language code; an unknown code is shown as stored. */
export function languageLabel(code: string): string {
  return LANGUAGE_LABELS[code] ?? code;
}

/** The name of a finish code; an unknown code is shown as stored. */
export function finishLabel(code: string): string {
  return FINISH_LABELS[code] ?? code;
}

/**
 * The collector number as the database indexes it (card_printings.collector_key): lower case,
 * letters and digits only. 'OP05-119' and 'op05 119' → 'op05119', '199/165' → '199165'.
 */
export function normalizeCollectorNumber(text: string): string {
  return text.replace(/[^A-Za-z0-9]/g, '').toLowerCase();
}

/** A slab's grade as its label prints it: 'PSA 10', 'BGS 9.5'. */
export function gradeLabel(company: GradingCompany, grade: number): string {
  return `${company} ${Number.isInteger(grade) ? grade.toFixed(0) : grade.toFixed(1)}`;
}

/** One copy on sale: a raw card (condition set) or a slab (grading company, grade, certificate). */
export interface CardOffer {
  condition: CardCondition | null;
  language: string;
  finish: string;
  gradingCompany: GradingCompany | null;
  grade: number | null;
}

/** What a shopper picks between: 'NM · Español · Holo', or a slab's 'PSA 10 · Inglés'. */
export function offerLabel(offer: CardOffer): string {
  if (offer.gradingCompany && offer.grade !== null) return `${gradeLabel(offer.gradingCompany, offer.grade)} · ${languageLabel(offer.language)}`;
  return [offer.condition ?? '', languageLabel(offer.language), finishLabel(offer.finish)].filter(Boolean).join(' · ');
}

const VERIFY_URLS: Readonly<Record<GradingCompany, (certificate: string) => string>> = {
  PSA: (n) => `https://www.psacard.com/cert/${n}`,
  BGS: (n) => `https://www.beckett.com/grading/card-lookup?item_type=BGS&item_id=${n}`,
  CGC: (n) => `https://www.cgccards.com/certlookup/${n}/`,
};

/** The grader's public page for a certificate number, where anyone can check the slab. */
export function graderVerifyUrl(company: GradingCompany, certificate: string): string {
  return VERIFY_URLS[company](encodeURIComponent(certificate.trim()));
}

/** What is printed on a single card (public.card_printings), as the pages use it. */
export interface Printing {
  /** The set code as printed ('sv08', 'OP05', 'OGN'); null when not known. */
  setCode: string | null;
  /** The collector number as printed: '199/165', 'OP05-119', 'OGN-042'. */
  collectorNumber: string;
  /** A rarity code of the franchise (raritiesOf). */
  rarity: string;
  nameEn: string | null;
  nameEs: string | null;
}

/** One copy of a single on sale (public.card_offers), prices in centavos. */
export interface SingleOffer extends CardOffer {
  id: string;
  priceCentavos: Centavos;
  originalPriceCentavos: Centavos | null;
  stock: number;
  certificateNumber: string | null;
  images: string[];
  position: number;
}

/** Whether an offer is a graded slab. */
export function isSlab(offer: CardOffer): boolean {
  return offer.gradingCompany !== null && offer.grade !== null;
}

/**
 * The offer's key in a link (`?oferta=…`), readable and unique within its product: a raw copy is
 * 'nm-es-holo' (condition, language, finish), a slab 'psa-12345678' (company and certificate).
 */
export function offerKey(offer: CardOffer & { certificateNumber: string | null }): string {
  if (offer.gradingCompany && offer.certificateNumber) return `${offer.gradingCompany}-${offer.certificateNumber}`.toLowerCase();
  return `${offer.condition ?? ''}-${offer.language}-${offer.finish}`.toLowerCase();
}

/** Raw copies first (best condition, then language and finish as listed), slabs after by grade, highest first. */
export function sortOffers<T extends SingleOffer>(offers: readonly T[]): T[] {
  const conditionRank = (offer: T) => (offer.condition ? CARD_CONDITIONS.indexOf(offer.condition) : CARD_CONDITIONS.length);
  return [...offers].sort(
    (a, b) =>
      Number(isSlab(a)) - Number(isSlab(b)) ||
      conditionRank(a) - conditionRank(b) ||
      (b.grade ?? 0) - (a.grade ?? 0) ||
      a.position - b.position ||
      a.priceCentavos - b.priceCentavos ||
      a.id.localeCompare(b.id),
  );
}

/**
 * The offer a product page opens with: the one the link names (`?oferta=`) when it exists, else
 * the cheapest in stock, else the first. Undefined only when there are no offers.
 */
export function chooseOffer<T extends SingleOffer>(offers: readonly T[], requestedKey?: string | null): T | undefined {
  const wanted = requestedKey?.trim().toLowerCase();
  if (wanted) {
    const named = offers.find((offer) => offerKey(offer) === wanted);
    if (named) return named;
  }
  let cheapest: T | undefined;
  for (const offer of offers) {
    if (offer.stock > 0 && (!cheapest || offer.priceCentavos < cheapest.priceCentavos)) cheapest = offer;
  }
  return cheapest ?? sortOffers(offers)[0];
}

/** The lowest and highest offer prices (JSON-LD's AggregateOffer); null without offers. */
export function offerPriceRange(offers: readonly SingleOffer[]): { low: Centavos; high: Centavos } | null {
  if (offers.length === 0) return null;
  let low = offers[0]!.priceCentavos;
  let high = low;
  for (const offer of offers) {
    if (offer.priceCentavos < low) low = offer.priceCentavos;
    if (offer.priceCentavos > high) high = offer.priceCentavos;
  }
  return { low, high };
}

/**
 * What a single card shows where one price and one stock are shown (product cards, listings, the
 * search): the price of the offer a page opens with (chooseOffer: the cheapest in stock) and the
 * units of every offer together. Null without offers (a sealed product keeps its own).
 */
export function offersSummary(offers: readonly SingleOffer[]): { priceCentavos: Centavos; originalPriceCentavos: Centavos | null; stock: number } | null {
  const shown = chooseOffer(offers);
  if (!shown) return null;
  return {
    priceCentavos: shown.priceCentavos,
    originalPriceCentavos: shown.originalPriceCentavos,
    stock: offers.reduce((sum, offer) => sum + offer.stock, 0),
  };
}
