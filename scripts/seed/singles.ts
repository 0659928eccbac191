/**
 * Single cards of the seed: each product of a singles type carries its printing (a row of
 * public.card_printings) and 2 to 6 offers (rows of public.card_offers): raw copies by condition,
 * language and finish, and a few graded slabs. Everything derives from the product id through a
 * seeded generator, so every run writes the same rows.
 */
import { createHash } from 'node:crypto';
import { getExpansion, type FranchiseId } from '~/domain/catalog.ts';
import { CARD_CONDITIONS, finishesOf, rarityLabel, type CardCondition, type GradingCompany } from '~/domain/singles.ts';
import type { CardLine, FixedOffer } from './cards.ts';
import { hash } from './svg.ts';

/** A card_printings row. */
export interface SeedPrinting {
  franchise: FranchiseId;
  /** The set code ('SV8', 'OP05', 'OGN'). */
  setCode: string;
  collectorNumber: string;
  rarity: string;
  nameEn: string;
  nameEs: string | null;
}

/** A card_offers row (pesos). */
export interface SeedOffer {
  id: string;
  condition: CardCondition | null;
  language: string;
  finish: string;
  price: number;
  originalPrice: number | null;
  stock: number;
  gradingCompany: GradingCompany | null;
  grade: number | null;
  certificateNumber: string | null;
  images: string[];
  position: number;
}

/** The product type of each franchise's singles. */
export const SINGLES_TYPE: Record<FranchiseId, string> = {
  pokemon: 'single-card',
  'one-piece': 'op-single-card',
  riftbound: 'rb-single-card',
};

/** A small seeded generator (mulberry32): the same seed gives the same sequence. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function pick<T>(random: () => number, weighted: readonly (readonly [T, number])[]): T {
  const total = weighted.reduce((sum, [, w]) => sum + w, 0);
  let r = random() * total;
  for (const [value, weight] of weighted) {
    r -= weight;
    if (r < 0) return value;
  }
  return weighted[weighted.length - 1]![0];
}

/**
 * A stable UUID from a name: the MD5 of the name laid out as a UUID, which is what PostgreSQL's
 * `md5(name)::uuid` gives, so the seed's SQL can compute the same id (offerId).
 */
export function stableUuid(name: string): string {
  const hex = createHash('md5').update(name).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

/** What an offer's id is made from: 'NM-en-parallel' for a raw copy, 'psa-12345678' for a slab. */
export function offerIdKey(offer: Pick<SeedOffer, 'condition' | 'language' | 'finish' | 'gradingCompany' | 'certificateNumber'>): string {
  return offer.gradingCompany ? `${offer.gradingCompany}-${offer.certificateNumber}`.toLowerCase() : `${offer.condition}-${offer.language}-${offer.finish}`;
}

/** An offer's id: stable across runs, and the same as the seed's SQL computes (`md5('card_offers:' || product || ':' || key)::uuid`). */
export function offerId(productId: string, key: string): string {
  return stableUuid(`card_offers:${productId}:${key}`);
}

/** Pesos as a shelf price: whole pesos under 100 (2 at least), ending in 9 above (129, 1,499, 21,990). */
export function shelfPrice(pesos: number): number {
  if (pesos < 100) return Math.max(2, Math.round(pesos));
  if (pesos < 1000) return Math.round(pesos / 10) * 10 - 1;
  if (pesos < 10000) return Math.round(pesos / 50) * 50 - 1;
  return Math.round(pesos / 100) * 100 - 10;
}

const CONDITION_FACTOR: Record<CardCondition, number> = { NM: 1, LP: 0.82, MP: 0.64, HP: 0.45, DMG: 0.3 };
const CONDITION_WEIGHTS: readonly (readonly [CardCondition, number])[] = [
  ['NM', 40],
  ['LP', 28],
  ['MP', 18],
  ['HP', 9],
  ['DMG', 5],
];

/** Languages a shop in Mexico stocks, with how often, and what a copy costs against English. */
const LANGUAGE_MIX: Record<FranchiseId, readonly (readonly [string, number, number])[]> = {
  pokemon: [
    ['es', 45, 0.9],
    ['en', 40, 1],
    ['ja', 15, 0.85],
  ],
  'one-piece': [
    ['en', 65, 1],
    ['ja', 35, 0.8],
  ],
  riftbound: [
    ['en', 85, 1],
    ['zh', 15, 0.7],
  ],
};

/** The finishes a rarity comes in, with their price factor. */
function finishesFor(franchise: FranchiseId, rarity: string): readonly (readonly [string, number])[] {
  if (franchise === 'pokemon') {
    if (['common', 'uncommon', 'rare'].includes(rarity))
      return [
        ['normal', 1],
        ['reverse-holo', 1.6],
      ] as const;
    if (rarity === 'holo-rare')
      return [
        ['holo', 1],
        ['reverse-holo', 1.2],
      ] as const;
    return [['holo', 1]] as const;
  }
  if (franchise === 'one-piece') {
    if (['SR', 'SEC', 'L'].includes(rarity))
      return [
        ['normal', 1],
        ['parallel', 2.5],
      ] as const;
    if (rarity === 'SP' || rarity === 'TR') return [['parallel', 1]] as const;
    return [['normal', 1]] as const;
  }
  if (rarity === 'common' || rarity === 'uncommon')
    return [
      ['normal', 1],
      ['foil', 1.8],
    ] as const;
  return [['foil', 1]] as const;
}

/** Rarities valuable enough that some copies are sold graded. */
const SLAB_RARITIES = new Set(['special-illustration-rare', 'hyper-rare', 'ultra-rare', 'SEC', 'showcase']);
const GRADE_FACTOR: Record<string, number> = { '10': 3, '9.5': 2.2, '9': 1.6, '8.5': 1.3, '8': 1.15 };

/** Certificate numbers already handed out, so no two slabs share one. */
export class Certificates {
  private readonly used = new Set<string>();
  next(company: GradingCompany, seed: string): string {
    const digits = company === 'PSA' ? 8 : 10;
    let n = hash(seed);
    for (;;) {
      const value = String((n % 10 ** (digits - 1)) + 10 ** (digits - 1)).padStart(digits, '0');
      const certificate = company === 'BGS' ? `00${value.slice(2)}` : value;
      if (!this.used.has(certificate)) {
        this.used.add(certificate);
        return certificate;
      }
      n = hash(`${seed}:${n}`);
    }
  }
}

interface OfferDraft {
  condition: CardCondition | null;
  language: string;
  finish: string;
  stock: number;
  slab?: { company: GradingCompany; grade: number };
}

function draftOffers(productId: string, franchise: FranchiseId, rarity: string, random: () => number): OfferDraft[] {
  const finishes = finishesFor(franchise, rarity);
  const languages = LANGUAGE_MIX[franchise];
  const count = 2 + Math.floor(random() * 5);
  const slabs = SLAB_RARITIES.has(rarity) && hash(`${productId}:slab`) % 5 === 0 ? 1 : 0;
  const drafts: OfferDraft[] = [];
  const seen = new Set<string>();
  for (let tries = 0; drafts.length < count - slabs && tries < 60; tries += 1) {
    const condition = drafts.length === 0 ? 'NM' : pick(random, CONDITION_WEIGHTS);
    const language = pick(
      random,
      languages.map(([code, weight]) => [code, weight] as const),
    );
    const finish = pick(
      random,
      finishes.map(([code], i) => [code, i === 0 ? 3 : 1] as const),
    );
    const key = `${condition}-${language}-${finish}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const soldOut = random() < 0.14;
    drafts.push({ condition, language, finish, stock: soldOut ? 0 : 1 + Math.floor(random() * 8) });
  }
  for (let i = 0; i < slabs; i += 1) {
    const company = pick(random, [
      ['PSA', 5],
      ['BGS', 2],
      ['CGC', 3],
    ] as const);
    const grade =
      company === 'PSA'
        ? pick(random, [
            [10, 3],
            [9, 2],
            [8, 1],
          ] as const)
        : pick(random, [
            [10, 1],
            [9.5, 3],
            [9, 2],
            [8.5, 1],
          ] as const);
    const language = pick(
      random,
      languages.map(([code, weight]) => [code, weight] as const),
    );
    drafts.push({ condition: null, language, finish: finishes[0]![0], stock: random() < 0.2 ? 0 : 1, slab: { company, grade } });
  }
  return drafts;
}

/**
 * The offers of one printing: `fixed` when the card's offers are set by hand, else 2 to 6 drawn
 * from the product id. Prices follow the NM price: worse condition cheaper, other languages and
 * finishes by their factor, slabs by grade; about one offer in eight is on sale.
 */
export function offersFor(
  productId: string,
  printing: Pick<SeedPrinting, 'franchise' | 'rarity'>,
  nmPrice: number,
  certificates: Certificates,
  options: { fixed?: readonly FixedOffer[]; slabImages?: boolean } = {},
): SeedOffer[] {
  const random = seededRandom(hash(productId));
  const drafts: OfferDraft[] = options.fixed
    ? options.fixed.map((f) => ({ condition: f.condition, language: f.language, finish: f.finish, stock: f.stock, slab: f.slab }))
    : draftOffers(productId, printing.franchise, printing.rarity, random);
  const finishes = finishesFor(printing.franchise, printing.rarity);
  const languages = LANGUAGE_MIX[printing.franchise];
  // List prices first: by condition, language, finish and grade.
  const listed = drafts.map((draft) => {
    const languageFactor = languages.find(([code]) => code === draft.language)?.[2] ?? 0.9;
    const finishFactor = finishes.find(([code]) => code === draft.finish)?.[1] ?? 1;
    const base = nmPrice * languageFactor * finishFactor;
    const price = draft.slab
      ? shelfPrice(Math.max(base * (GRADE_FACTOR[String(draft.slab.grade)] ?? 1.1), 499))
      : shelfPrice(base * CONDITION_FACTOR[draft.condition!]);
    return { draft, price };
  });
  // Within one language and finish a better condition always costs more, even at the lowest prices.
  const floorOf = new Map<string, number>();
  for (const condition of [...CARD_CONDITIONS].reverse()) {
    for (const item of listed) {
      if (item.draft.condition !== condition) continue;
      const group = `${item.draft.language}-${item.draft.finish}`;
      const below = floorOf.get(group);
      if (below !== undefined && item.price <= below) item.price = below + 1;
      floorOf.set(group, item.price);
    }
  }
  const offers = listed.map(({ draft, price }): SeedOffer => {
    if (draft.slab) {
      const certificate = certificates.next(draft.slab.company, `${productId}:${draft.slab.company}:${draft.slab.grade}:${draft.language}`);
      const slug = offerIdKey({ ...draft, gradingCompany: draft.slab.company, certificateNumber: certificate });
      return {
        id: offerId(productId, slug),
        condition: null,
        language: draft.language,
        finish: draft.finish,
        price,
        originalPrice: null,
        stock: draft.stock,
        gradingCompany: draft.slab.company,
        grade: draft.slab.grade,
        certificateNumber: certificate,
        images: options.slabImages ? [`products/${productId}-${slug}.svg`] : [],
        position: 0,
      };
    }
    const onSale = price >= 20 && random() < 0.12;
    const percent = [10, 15, 20][Math.floor(random() * 3)]!;
    const salePrice = onSale ? shelfPrice((price * (100 - percent)) / 100) : price;
    return {
      id: offerId(productId, offerIdKey({ ...draft, gradingCompany: null, certificateNumber: null })),
      condition: draft.condition,
      language: draft.language,
      finish: draft.finish,
      price: salePrice,
      originalPrice: onSale && salePrice < price ? price : null,
      stock: draft.stock,
      gradingCompany: null,
      grade: null,
      certificateNumber: null,
      images: [],
      position: 0,
    };
  });
  // Positions as a shop lists them: raw copies from the best condition, then slabs.
  const rank = (o: SeedOffer) => (o.condition ? CARD_CONDITIONS.indexOf(o.condition) : CARD_CONDITIONS.length);
  offers.sort((a, b) => rank(a) - rank(b) || b.price - a.price);
  offers.forEach((offer, i) => (offer.position = i));
  return offers;
}

/** What the products row of a single shows: the cheapest copy in stock (else the cheapest) and the total stock. */
export function productFigures(offers: readonly SeedOffer[]): { price: number; originalPrice: number | null; stock: number } {
  const inStock = offers.filter((o) => o.stock > 0);
  const pool = inStock.length > 0 ? inStock : offers;
  const cheapest = pool.reduce((best, o) => (o.price < best.price ? o : best), pool[0]!);
  return { price: cheapest.price, originalPrice: cheapest.originalPrice, stock: offers.reduce((sum, o) => sum + o.stock, 0) };
}

/** The set's name on product names and descriptions. */
export function setNameOf(expansionId: string | null, setName?: string): string {
  return (expansionId ? getExpansion(expansionId)?.name : undefined) ?? setName ?? '';
}

/** A single's product name, as shoppers search it: 'Charizard ex 199/165 – Escarlata y Púrpura 151', 'Monkey.D.Luffy (OP05-119)'. */
export function singleName(franchise: FranchiseId, card: CardLine, setName: string): string {
  const [number, nameEn, nameEs] = card;
  return franchise === 'pokemon' ? `${nameEs ?? nameEn} ${number} – ${setName}` : `${nameEn} (${number})`;
}

/** A single's description: what is printed on it, and that copies differ by condition, language and finish. */
export function singleDescription(printing: SeedPrinting, setName: string, hasSlabs: boolean): string {
  const name = printing.nameEs && printing.nameEs !== printing.nameEn ? `${printing.nameEs} (${printing.nameEn})` : printing.nameEn;
  const finishes = finishesOf(printing.franchise)
    .map((f) => f.label.toLowerCase())
    .join(', ');
  return (
    `${name}, carta ${printing.collectorNumber} de ${setName} (${rarityLabel(printing.franchise, printing.rarity)}). ` +
    `Se vende por copia: elige condición, idioma y acabado (${finishes}); consulta la Guía de condiciones. ` +
    (hasSlabs ? 'También hay copias graduadas con su certificado. ' : '') +
    'Cada carta se envía en protector y toploader.'
  );
}
