/**
 * The shop's static catalogue: franchises, collections, expansions and product types.
 *
 * The database seed imports these arrays, and the catalogue pages prebuild from them, so an id
 * written here is an id in the `franchises`, `collections`, `expansions` and `product_types`
 * tables.
 *
 * Id rules:
 * - Pokémon product types keep plain ids ('booster-box') because the specification names them that
 *   way. One Piece and Riftbound types carry a franchise prefix ('op-booster-box', 'rb-booster-box')
 *   because `product_types.id` is one key across all franchises and several type names repeat.
 * - Expansion ids are unique across franchises too; the One Piece expansions reuse the id of their
 *   collection ('op-01'), since each of those sets is a single release.
 * - Image paths of expansions and product types are relative storage paths ('expansions/<id>.svg'),
 *   resolved with `resolveImage` from `./images`; franchise logos are site paths under /images.
 */
import type { Centavos } from './money.ts';

/** A card game the shop sells. */
export interface Franchise {
  id: FranchiseId;
  name: string;
  /** Site-absolute path of the logo (served from public/). */
  logo: string;
}

/** A block of releases inside a franchise (e.g. Scarlet & Violet). */
export interface Collection {
  id: string;
  name: string;
  franchiseId: FranchiseId;
}

/** One set release; products are grouped by it. */
export interface Expansion {
  id: string;
  name: string;
  franchiseId: FranchiseId;
  collectionId: string;
  /** Relative storage path, e.g. 'expansions/destined-rivals.svg'. */
  image: string;
  /** ISO date (YYYY-MM-DD) of the release in Mexico, when known. */
  releaseDate?: string;
}

/** A kind of product (booster box, tin, single card…) within one franchise. */
export interface ProductType {
  id: string;
  name: string;
  franchiseId: FranchiseId;
  /** Relative storage path, e.g. 'product-types/booster-box.svg'. */
  image: string;
}

export const FRANCHISE_IDS = ['pokemon', 'one-piece', 'riftbound'] as const;
export type FranchiseId = (typeof FRANCHISE_IDS)[number];

export const franchises: readonly Franchise[] = [
  { id: 'pokemon', name: 'Pokémon', logo: '/images/franchises/pokemon.svg' },
  { id: 'one-piece', name: 'One Piece', logo: '/images/franchises/one-piece.svg' },
  { id: 'riftbound', name: 'Riftbound', logo: '/images/franchises/riftbound.svg' },
];

export const collections: readonly Collection[] = [
  { id: 'scarlet-violet', name: 'Escarlata y Púrpura', franchiseId: 'pokemon' },
  { id: 'sword-shield', name: 'Espada y Escudo', franchiseId: 'pokemon' },
  { id: 'sun-moon', name: 'Sol y Luna', franchiseId: 'pokemon' },
  { id: 'xy', name: 'XY', franchiseId: 'pokemon' },
  { id: 'black-white', name: 'Negro y Blanco', franchiseId: 'pokemon' },
  { id: 'op-01', name: 'OP-01 Romance Dawn', franchiseId: 'one-piece' },
  { id: 'op-02', name: 'OP-02 Paramount War', franchiseId: 'one-piece' },
  { id: 'op-03', name: 'OP-03 Pillars of Strength', franchiseId: 'one-piece' },
  { id: 'op-04', name: 'OP-04 Kingdoms of Intrigue', franchiseId: 'one-piece' },
  { id: 'op-05', name: 'OP-05 Awakening of the New Era', franchiseId: 'one-piece' },
  { id: 'rift-alpha', name: 'Riftbound Alpha', franchiseId: 'riftbound' },
  { id: 'rift-dawn', name: 'Riftbound Dawn', franchiseId: 'riftbound' },
];

function expansion(id: string, name: string, franchiseId: FranchiseId, collectionId: string, releaseDate?: string): Expansion {
  const base: Expansion = { id, name, franchiseId, collectionId, image: `expansions/${id}.svg` };
  return releaseDate === undefined ? base : { ...base, releaseDate };
}

export const expansions: readonly Expansion[] = [
  // Scarlet & Violet: names as sold in Mexico (Spanish where the Spanish name is the common one).
  expansion('temporal-forces', 'Fuerzas Temporales', 'pokemon', 'scarlet-violet', '2024-03-22'),
  expansion('twilight-masquerade', 'Máscaras del Crepúsculo', 'pokemon', 'scarlet-violet', '2024-05-24'),
  expansion('shrouded-fable', 'Fábula Sombría', 'pokemon', 'scarlet-violet', '2024-08-02'),
  expansion('stellar-crown', 'Corona Astral', 'pokemon', 'scarlet-violet', '2024-09-13'),
  expansion('surging-sparks', 'Chispas Fulgurantes', 'pokemon', 'scarlet-violet', '2024-11-08'),
  expansion('prismatic-evolutions', 'Evoluciones Prismáticas', 'pokemon', 'scarlet-violet', '2025-01-17'),
  expansion('journey-together', 'Journey Together', 'pokemon', 'scarlet-violet', '2025-03-28'),
  expansion('destined-rivals', 'Destined Rivals', 'pokemon', 'scarlet-violet', '2025-05-30'),
  expansion('brilliant-stars', 'Astros Brillantes', 'pokemon', 'sword-shield', '2022-02-25'),
  expansion('lost-origin', 'Origen Perdido', 'pokemon', 'sword-shield', '2022-09-09'),
  expansion('silver-tempest', 'Tempestad Plateada', 'pokemon', 'sword-shield', '2022-11-11'),
  expansion('crown-zenith', 'Cenit Supremo', 'pokemon', 'sword-shield', '2023-01-20'),
  expansion('team-up', 'Unión de Aliados', 'pokemon', 'sun-moon', '2019-02-01'),
  expansion('hidden-fates', 'Destinos Ocultos', 'pokemon', 'sun-moon', '2019-08-23'),
  expansion('cosmic-eclipse', 'Eclipse Cósmico', 'pokemon', 'sun-moon', '2019-11-01'),
  expansion('furious-fists', 'Puños Furiosos', 'pokemon', 'xy', '2014-08-13'),
  expansion('steam-siege', 'Asedio de Vapor', 'pokemon', 'xy', '2016-08-03'),
  expansion('xy-evolutions', 'Evoluciones', 'pokemon', 'xy', '2016-11-02'),
  expansion('boundaries-crossed', 'Fronteras Cruzadas', 'pokemon', 'black-white', '2012-11-07'),
  expansion('plasma-storm', 'Tormenta Plasma', 'pokemon', 'black-white', '2013-02-06'),
  expansion('legendary-treasures', 'Tesoros Legendarios', 'pokemon', 'black-white', '2013-11-06'),
  expansion('op-01', 'OP-01 Romance Dawn', 'one-piece', 'op-01', '2022-12-02'),
  expansion('op-02', 'OP-02 Paramount War', 'one-piece', 'op-02', '2023-03-10'),
  expansion('op-03', 'OP-03 Pillars of Strength', 'one-piece', 'op-03', '2023-06-30'),
  expansion('op-04', 'OP-04 Kingdoms of Intrigue', 'one-piece', 'op-04', '2023-09-22'),
  expansion('op-05', 'OP-05 Awakening of the New Era', 'one-piece', 'op-05', '2023-12-08'),
  expansion('origins', 'Origins', 'riftbound', 'rift-alpha', '2025-10-31'),
  expansion('proving-grounds', 'Proving Grounds', 'riftbound', 'rift-alpha', '2025-10-31'),
  expansion('spiritforged', 'Spiritforged', 'riftbound', 'rift-dawn', '2026-02-13'),
  expansion('unleashed', 'Unleashed', 'riftbound', 'rift-dawn', '2026-05-22'),
];

function productType(id: string, name: string, franchiseId: FranchiseId): ProductType {
  return { id, name, franchiseId, image: `product-types/${id}.svg` };
}

export const productTypes: readonly ProductType[] = [
  productType('elite-trainer-box', 'Elite Trainer Box', 'pokemon'),
  productType('booster-pack', 'Sobre', 'pokemon'),
  productType('booster-box', 'Caja de sobres', 'pokemon'),
  productType('booster-display', 'Display de sobres', 'pokemon'),
  productType('single-card', 'Carta individual', 'pokemon'),
  productType('digital-code', 'Código digital', 'pokemon'),
  productType('booster-bundle', 'Paquete de sobres (Booster Bundle)', 'pokemon'),
  productType('tin', 'Lata', 'pokemon'),
  productType('mini-tin', 'Mini lata', 'pokemon'),
  productType('collection-box', 'Caja de colección', 'pokemon'),
  productType('premium-collection', 'Colección premium', 'pokemon'),
  productType('special-collection', 'Colección especial', 'pokemon'),
  productType('blister', 'Blíster', 'pokemon'),
  productType('three-pack-blister', 'Blíster de 3 sobres', 'pokemon'),
  productType('build-battle', 'Build & Battle', 'pokemon'),
  productType('build-battle-stadium', 'Build & Battle Stadium', 'pokemon'),
  productType('theme-deck', 'Mazo temático', 'pokemon'),
  productType('battle-deck', 'Mazo de batalla', 'pokemon'),
  productType('binder', 'Carpeta', 'pokemon'),
  productType('sleeves', 'Protectores de cartas', 'pokemon'),
  productType('deck-box', 'Portamazo', 'pokemon'),
  productType('playmat', 'Tapete de juego', 'pokemon'),
  productType('graded-card', 'Carta graduada', 'pokemon'),
  productType('op-starter-deck', 'Starter Deck', 'one-piece'),
  productType('op-booster-box', 'Caja de sobres', 'one-piece'),
  productType('op-flagship-promo', 'Promo Flagship', 'one-piece'),
  productType('op-tournament-pack', 'Tournament Pack', 'one-piece'),
  productType('op-single-card', 'Carta individual', 'one-piece'),
  productType('rb-champion-deck', 'Champion Deck', 'riftbound'),
  productType('rb-booster-pack', 'Sobre', 'riftbound'),
  productType('rb-booster-box', 'Caja de sobres', 'riftbound'),
  productType('rb-origins-set', 'Set de inicio Origins', 'riftbound'),
  productType('rb-single-card', 'Carta individual', 'riftbound'),
];

/**
 * The product types sold as single cards: each product is one printing (public.card_printings)
 * sold as offers by condition, language and finish, or as graded slabs (public.card_offers).
 */
export const SINGLES_TYPE_IDS: readonly string[] = ['single-card', 'op-single-card', 'rb-single-card'];

/** Whether products of this type are single cards, sold by offer. */
export function isSinglesType(typeId: string | null | undefined): boolean {
  return typeId !== null && typeId !== undefined && SINGLES_TYPE_IDS.includes(typeId);
}

/** The smallest product shape the pseudo-type predicates need. */
export interface PseudoTypeProduct {
  priceCentavos: Centavos;
  preorder?: boolean | null;
  discount?: boolean | null;
  originalPriceCentavos?: Centavos | null;
}

/** A listing that is not a `product_types` row but a filter over products (footer links). */
export interface PseudoType {
  id: 'preorder' | 'sale';
  name: string;
  /** Whether a product belongs to this listing. */
  matches: (product: PseudoTypeProduct) => boolean;
}

export const preorderType: PseudoType = {
  id: 'preorder',
  name: 'Preventa',
  matches: (product) => product.preorder === true,
};

export const saleType: PseudoType = {
  id: 'sale',
  name: 'Ofertas',
  matches: (product) => {
    if (product.discount === true) return true;
    const original = product.originalPriceCentavos ?? null;
    return original !== null && original > product.priceCentavos;
  },
};

export const pseudoTypes: readonly PseudoType[] = [preorderType, saleType];

/** The pseudo-type with this id ('preorder' or 'sale'), if it is one. */
export function getPseudoType(id: string): PseudoType | undefined {
  return pseudoTypes.find((type) => type.id === id);
}

/** A fixed catalogue link of the footer and navigation. */
export interface CatalogLink {
  label: string;
  href: string;
}

/** The specification's fixed footer/nav catalogue links, in its order. */
export const footerCatalogLinks: readonly CatalogLink[] = [
  { label: 'Destined Rivals', href: '/franchise/pokemon/expansions/destined-rivals/products' },
  { label: 'Journey Together', href: '/franchise/pokemon/expansions/journey-together/products' },
  { label: 'Evoluciones Prismáticas', href: '/franchise/pokemon/expansions/prismatic-evolutions/products' },
  { label: 'Tipos de producto', href: '/franchise/pokemon/product-types' },
  { label: 'Expansiones', href: '/franchise/pokemon/expansions' },
  { label: 'Preventa', href: '/franchise/pokemon/product-types/preorder/products' },
  { label: 'Ofertas', href: '/franchise/pokemon/product-types/sale/products' },
];

/** Whether a string is one of the shop's franchise ids. */
export function isFranchiseId(id: string): id is FranchiseId {
  return (FRANCHISE_IDS as readonly string[]).includes(id);
}

/** The collection with this id, or undefined. */
export function getCollection(id: string): Collection | undefined {
  return collections.find((collection) => collection.id === id);
}

/** The expansion with this id, or undefined. */
export function getExpansion(id: string): Expansion | undefined {
  return expansions.find((item) => item.id === id);
}

/** The product type with this id, or undefined (pseudo-types are not product types). */
export function getProductType(id: string): ProductType | undefined {
  return productTypes.find((type) => type.id === id);
}

/** Collections of a franchise, in catalogue order. */
export function collectionsOf(franchiseId: string): Collection[] {
  return collections.filter((collection) => collection.franchiseId === franchiseId);
}

/** Expansions of a franchise, in catalogue order. */
export function expansionsOf(franchiseId: string): Expansion[] {
  return expansions.filter((item) => item.franchiseId === franchiseId);
}

/** Product types of a franchise, in catalogue order. */
export function typesOf(franchiseId: string): ProductType[] {
  return productTypes.filter((type) => type.franchiseId === franchiseId);
}
