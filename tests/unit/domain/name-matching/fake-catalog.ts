/**
 * A made-up catalogue of any size for search tests: names and ids shaped like the shop's real ones
 * (type + expansion + card names and numbers), with a seeded random mix so gzip cannot cheat.
 */
import { expansions, productTypes } from '~/domain/catalog';
import { SYLLABLES } from '../../../../scripts/bench/made-up.ts';

/** Deterministic pseudo-random numbers (mulberry32). */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SUFFIXES = ['ex', 'V', 'VMAX', 'VSTAR', 'GX', 'Full Art', 'Alt Art', 'Holo', 'Reverse Holo', 'Secret Rare', ''];

const PREFIX: Record<string, string> = { pokemon: 'pk', 'one-piece': 'op', riftbound: 'rb' };

function slug(value: string): string {
  return value
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

/** A fake product row like the catalogue's. */
export interface FakeProduct {
  id: string;
  name: string;
  image: string;
  franchiseId: string;
  expansionId: string;
  typeId: string;
}

/** `count` distinct products with realistic names, ids and storage image paths. */
export function fakeCatalog(count: number, seed = 42): FakeProduct[] {
  const random = seededRandom(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
  // A card pool the size of a real game's (about 1,500 names), reused across expansions.
  const cardNames = Array.from({ length: 1500 }, () => {
    const syllables = 2 + Math.floor(random() * 3);
    let card = '';
    for (let s = 0; s < syllables; s++) card += pick(SYLLABLES);
    return card[0]!.toUpperCase() + card.slice(1);
  });
  const products: FakeProduct[] = [];
  const seen = new Set<string>();
  for (let i = 0; i < count; i++) {
    const expansion = pick(expansions);
    const type = pick(productTypes.filter((t) => t.franchiseId === expansion.franchiseId));
    const card = pick(cardNames);
    const number = `${1 + Math.floor(random() * 250)}/${150 + Math.floor(random() * 100)}`;
    const suffix = pick(SUFFIXES);
    const isCard = type.id === 'single-card' || random() < 0.6;
    let name = isCard ? `${card}${suffix ? ` ${suffix}` : ''} ${number} – Carta individual (${expansion.name})` : `${type.name} ${expansion.name}`;
    // Shops number repeated listings of the same product, as the demo seed does.
    if (seen.has(name)) name = `${name} #${i}`;
    seen.add(name);
    // Ids follow the shop's scheme: franchise, type, expansion and, for labelled products, the label.
    const label = isCard ? slug(`${card} ${suffix} ${number}`) : String(i);
    const id = `${PREFIX[expansion.franchiseId]}-${type.id}-${expansion.id}-${label}`;
    const image = random() < 0.8 ? `products/${id}-1.svg` : `products/${Math.floor(random() * 1e12).toString(36)}.webp`;
    products.push({ id, name, image, franchiseId: expansion.franchiseId, expansionId: expansion.id, typeId: type.id });
  }
  return products;
}
