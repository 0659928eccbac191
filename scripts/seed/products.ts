/**
 * The demo catalogue: about 160 products across the three franchises, every product type and
 * every expansion of src/domain/catalog.ts, with peso prices as sold in Mexico. Flags (discount,
 * preorder, sold out, new arrival) follow fixed rules so the seed is reproducible.
 */
import { expansions, getExpansion, getProductType, isSinglesType, productTypes, type FranchiseId } from '~/domain/catalog.ts';
import { CARD_SETS, EXISTING_NAME_EN, EXISTING_SINGLES, FIXED_OFFERS, type CardLine, type CardSet } from './cards.ts';
import {
  Certificates,
  SINGLES_TYPE,
  offersFor,
  productFigures,
  setNameOf,
  singleDescription,
  singleName,
  type SeedOffer,
  type SeedPrinting,
} from './singles.ts';
import { hash, type ArtKind } from './svg.ts';

/** A product row of the seed. */
export interface SeedProduct {
  id: string;
  name: string;
  description: string;
  price: number;
  originalPrice: number | null;
  discount: boolean;
  preorder: boolean;
  stock: number;
  limitPerCustomer: number;
  available: boolean;
  releaseDate: string | null;
  image: string;
  images: string[];
  tags: string[];
  type: string | null;
  franchiseId: FranchiseId;
  collectionId: string | null;
  expansionId: string | null;
  productTypeId: string;
  /** How to draw it. */
  kind: ArtKind;
  /** A single card: what is printed on it (public.card_printings). */
  printing?: SeedPrinting;
  /** A single card: the copies on sale (public.card_offers), 2 to 6. */
  offers?: SeedOffer[];
}

interface TypeInfo {
  /** Short code used in product ids ('boosterbox' in 'pk-boosterbox-journey-together'). */
  code: string;
  kind: ArtKind;
  price: number;
  limit: number;
  name: (expansion: string, label?: string) => string;
  description: (expansion: string, label?: string) => string;
}

const FRANCHISE_PREFIX: Record<FranchiseId, string> = { pokemon: 'pk', 'one-piece': 'op', riftbound: 'rb' };

const TYPES: Record<string, TypeInfo> = {
  'elite-trainer-box': {
    code: 'etb',
    kind: 'box',
    price: 1299,
    limit: 3,
    name: (e) => `Elite Trainer Box ${e}`,
    description: (e) =>
      `La Elite Trainer Box de ${e} incluye 9 sobres, 65 protectores de cartas, 45 cartas de Energía, dados, marcadores de daño, una guía del jugador y una carta promocional. Ideal para empezar a jugar o para coleccionar.`,
  },
  'booster-pack': {
    code: 'booster',
    kind: 'pack',
    price: 89,
    limit: 36,
    name: (e) => `Sobre ${e}`,
    description: (e) => `Sobre de 10 cartas de la expansión ${e}, con al menos una carta rara. Producto sellado de fábrica.`,
  },
  'booster-box': {
    code: 'boosterbox',
    kind: 'box',
    price: 3299,
    limit: 3,
    name: (e) => `Caja de sobres ${e} (36 sobres)`,
    description: (e) => `Caja sellada con 36 sobres de ${e}. La mejor opción para completar la colección o abrir con amigos.`,
  },
  'booster-display': {
    code: 'display',
    kind: 'box',
    price: 1699,
    limit: 3,
    name: (e) => `Display de sobres ${e} (18 sobres)`,
    description: (e) => `Display de mostrador con 18 sobres de ${e}, sellado de fábrica.`,
  },
  'single-card': {
    code: 'single',
    kind: 'card',
    price: 350,
    limit: 1,
    name: (e, l) => `${l ?? 'Carta'} – Carta individual (${e})`,
    description: (e, l) => `Carta individual ${l ?? ''} de ${e}, enviada en protector y toploader.`.replace('  ', ' '),
  },
  'op-single-card': {
    code: 'single',
    kind: 'card',
    price: 60,
    limit: 4,
    name: (e, l) => `${l ?? 'Carta'} – Carta individual (${e})`,
    description: (e, l) => `Carta individual ${l ?? ''} de ${e}, enviada en protector y toploader.`.replace('  ', ' '),
  },
  'rb-single-card': {
    code: 'single',
    kind: 'card',
    price: 40,
    limit: 4,
    name: (e, l) => `${l ?? 'Carta'} – Carta individual (${e})`,
    description: (e, l) => `Carta individual ${l ?? ''} de ${e}, enviada en protector y toploader.`.replace('  ', ' '),
  },
  'digital-code': {
    code: 'code',
    kind: 'code',
    price: 49,
    limit: 20,
    name: (e) => `Código digital ${e} (10 códigos)`,
    description: (e) => `Diez códigos para canjear sobres virtuales de ${e} en el juego en línea. Se envían por correo electrónico.`,
  },
  'booster-bundle': {
    code: 'bundle',
    kind: 'box',
    price: 599,
    limit: 6,
    name: (e) => `Booster Bundle ${e} (6 sobres)`,
    description: (e) => `Paquete con 6 sobres de ${e}. Una forma económica de abrir varios sobres a la vez.`,
  },
  tin: {
    code: 'tin',
    kind: 'tin',
    price: 549,
    limit: 4,
    name: (e, l) => `Lata ${l ?? e}`,
    description: (e, l) => `Lata metálica coleccionable ${l ?? ''} con 4 sobres de ${e} y una carta promocional foil.`.replace('  ', ' '),
  },
  'mini-tin': {
    code: 'minitin',
    kind: 'tin',
    price: 299,
    limit: 6,
    name: (e) => `Mini lata ${e}`,
    description: (e) => `Mini lata con 2 sobres de ${e}, una moneda y una calcomanía. Diseño al azar.`,
  },
  'collection-box': {
    code: 'collectionbox',
    kind: 'box',
    price: 749,
    limit: 4,
    name: (_e, l) => `Caja de colección ${l ?? ''}`.trim(),
    description: (e, l) => `Caja de colección ${l ?? ''} con carta promocional foil, carta jumbo y 4 sobres de ${e}.`.replace('  ', ' '),
  },
  'premium-collection': {
    code: 'premium',
    kind: 'box',
    price: 1899,
    limit: 2,
    name: (_e, l) => `Colección premium ${l ?? ''}`.trim(),
    description: (e, l) => `Colección premium ${l ?? ''}: 3 cartas promocionales foil, figura, 8 sobres de ${e} y accesorios exclusivos.`.replace('  ', ' '),
  },
  'special-collection': {
    code: 'special',
    kind: 'box',
    price: 999,
    limit: 3,
    name: (e, l) => `Colección especial ${l ?? e}`,
    description: (e) => `Colección especial de ${e} con sobres, cartas promocionales y accesorios de edición limitada.`,
  },
  blister: {
    code: 'blister',
    kind: 'pack',
    price: 199,
    limit: 8,
    name: (e) => `Blíster ${e} con carta promocional`,
    description: (e) => `Blíster con un sobre de ${e}, una carta promocional foil y una moneda.`,
  },
  'three-pack-blister': {
    code: 'threepack',
    kind: 'pack',
    price: 349,
    limit: 6,
    name: (e) => `Blíster de 3 sobres ${e}`,
    description: (e) => `Blíster con 3 sobres de ${e} y una carta promocional exclusiva.`,
  },
  'build-battle': {
    code: 'buildbattle',
    kind: 'box',
    price: 399,
    limit: 4,
    name: (e) => `Build & Battle ${e}`,
    description: (e) => `Caja Build & Battle de ${e}: 4 sobres, 23 cartas básicas de Energía y una carta promocional para armar un mazo de 40 cartas.`,
  },
  'build-battle-stadium': {
    code: 'stadium',
    kind: 'box',
    price: 1499,
    limit: 2,
    name: (e) => `Build & Battle Stadium ${e}`,
    description: (e) => `Build & Battle Stadium de ${e}: dos cajas Build & Battle, 12 sobres adicionales y accesorios para dos jugadores.`,
  },
  'theme-deck': {
    code: 'themedeck',
    kind: 'deck',
    price: 329,
    limit: 4,
    name: (_e, l) => `Mazo temático ${l ?? ''}`.trim(),
    description: (e, l) => `Mazo temático ${l ?? ''} de 60 cartas listo para jugar, con cartas de ${e}, monedas y guía.`.replace('  ', ' '),
  },
  'battle-deck': {
    code: 'battledeck',
    kind: 'deck',
    price: 449,
    limit: 4,
    name: (_e, l) => `Mazo de batalla ${l ?? ''}`.trim(),
    description: (_e, l) => `Mazo de batalla ${l ?? ''} de 60 cartas, con cartas foil, marcadores y caja para guardar el mazo.`.replace('  ', ' '),
  },
  binder: {
    code: 'binder',
    kind: 'binder',
    price: 429,
    limit: 4,
    name: (e) => `Carpeta de 9 bolsillos ${e}`,
    description: (e) => `Carpeta oficial con ilustraciones de ${e}: 20 páginas de 9 bolsillos para 360 cartas.`,
  },
  sleeves: {
    code: 'sleeves',
    kind: 'sleeves',
    price: 199,
    limit: 10,
    name: (e) => `Protectores de cartas ${e} (65 piezas)`,
    description: (e) => `Paquete de 65 protectores de tamaño estándar con ilustración de ${e}.`,
  },
  'deck-box': {
    code: 'deckbox',
    kind: 'deck',
    price: 249,
    limit: 6,
    name: (e) => `Portamazo ${e}`,
    description: (e) => `Portamazo rígido con ilustración de ${e}; guarda hasta 75 cartas con protector.`,
  },
  playmat: {
    code: 'playmat',
    kind: 'playmat',
    price: 599,
    limit: 4,
    name: (e) => `Tapete de juego ${e}`,
    description: (e) => `Tapete de juego de neopreno de 60 × 35 cm con base antiderrapante e ilustración de ${e}.`,
  },
  'graded-card': {
    code: 'graded',
    kind: 'slab',
    price: 5999,
    limit: 1,
    name: (e, l) => `${l ?? 'Carta'} PSA 10 (${e})`,
    description: (e, l) => `Carta ${l ?? ''} de ${e} graduada PSA 10 (Gem Mint), en estuche sellado con certificado verificable.`.replace('  ', ' '),
  },
  'op-starter-deck': {
    code: 'starter',
    kind: 'deck',
    price: 349,
    limit: 4,
    name: (_e, l) => `Starter Deck ${l ?? ''}`.trim(),
    description: (_e, l) => `Starter Deck ${l ?? ''} de 51 cartas (50 cartas y un Líder), listo para jugar.`.replace('  ', ' '),
  },
  'op-booster-box': {
    code: 'boosterbox',
    kind: 'box',
    price: 2499,
    limit: 2,
    name: (e) => `Caja de sobres ${e} (24 sobres)`,
    description: (e) => `Caja sellada con 24 sobres de ${e} (inglés). Cada sobre trae 12 cartas.`,
  },
  'op-flagship-promo': {
    code: 'flagship',
    kind: 'card',
    price: 199,
    limit: 2,
    name: (e) => `Promo Flagship ${e}`,
    description: (e) => `Carta promocional de los torneos Flagship Battle de la temporada de ${e}.`,
  },
  'op-tournament-pack': {
    code: 'tournament',
    kind: 'pack',
    price: 699,
    limit: 4,
    name: (e) => `Tournament Pack ${e}`,
    description: (e) => `Tournament Pack de ${e} con sobres y premios para tiendas y torneos locales.`,
  },
  'rb-champion-deck': {
    code: 'championdeck',
    kind: 'deck',
    price: 399,
    limit: 4,
    name: (_e, l) => `Champion Deck ${l ?? ''}`.trim(),
    description: (e, l) => `Champion Deck de ${l ?? 'campeón'} (${e}): 40 cartas, runas y fichas, listo para jugar.`,
  },
  'rb-booster-pack': {
    code: 'booster',
    kind: 'pack',
    price: 99,
    limit: 24,
    name: (e) => `Sobre ${e}`,
    description: (e) => `Sobre de 14 cartas de Riftbound: ${e}, con al menos una carta rara o superior.`,
  },
  'rb-booster-box': {
    code: 'boosterbox',
    kind: 'box',
    price: 2199,
    limit: 2,
    name: (e) => `Caja de sobres ${e} (24 sobres)`,
    description: (e) => `Caja sellada con 24 sobres de Riftbound: ${e}.`,
  },
  'rb-origins-set': {
    code: 'originsset',
    kind: 'box',
    price: 899,
    limit: 3,
    name: () => 'Set de inicio Origins',
    description: () => 'Set de inicio de Riftbound Origins para dos jugadores: dos mazos, tapete de papel, fichas y reglamento.',
  },
};

/** One line of the curated catalogue: a product type in an expansion, with optional overrides. */
interface Entry {
  type: string;
  expansion: string;
  label?: string;
  price?: number;
  stock?: number;
  limit?: number;
}

const SCARLET_VIOLET = [
  'temporal-forces',
  'twilight-masquerade',
  'shrouded-fable',
  'stellar-crown',
  'surging-sparks',
  'prismatic-evolutions',
  'journey-together',
  'destined-rivals',
];

const FEATURED_SINGLES: Record<string, [string, number]> = {
  'temporal-forces': ['Walking Wake ex', 420],
  'twilight-masquerade': ['Ogerpon Hearthflame ex', 380],
  'shrouded-fable': ['Pecharunt ex', 290],
  'stellar-crown': ['Terapagos ex', 650],
  'surging-sparks': ['Pikachu ex', 1450],
  'prismatic-evolutions': ['Umbreon ex', 3499],
  'journey-together': ['Lillie’s Clefairy ex', 890],
  'destined-rivals': ['Team Rocket’s Mewtwo ex', 1250],
  'brilliant-stars': ['Charizard VSTAR', 690],
  'lost-origin': ['Giratina V (Arte alternativo)', 4200],
  'silver-tempest': ['Lugia V (Arte alternativo)', 3800],
  'crown-zenith': ['Mewtwo VSTAR', 450],
  'team-up': ['Pikachu & Zekrom GX', 950],
  'hidden-fates': ['Charizard GX Shiny', 2900],
  'cosmic-eclipse': ['Arceus & Dialga & Palkia GX', 1100],
  'furious-fists': ['Lucario EX', 390],
  'steam-siege': ['Volcanion EX', 320],
  'xy-evolutions': ['Charizard (Evoluciones)', 1600],
  'boundaries-crossed': ['Landorus EX', 280],
  'plasma-storm': ['Charizard EX', 2100],
  'legendary-treasures': ['Reshiram (Arte completo)', 760],
};

function curatedEntries(): Entry[] {
  const list: Entry[] = [];
  const svPrices: Record<string, Partial<Record<string, number>>> = {
    'prismatic-evolutions': { 'elite-trainer-box': 1899, 'booster-pack': 129, 'booster-bundle': 899, 'booster-box': 4599 },
    'journey-together': { 'booster-box': 3499, 'elite-trainer-box': 1349 },
    'destined-rivals': { 'booster-box': 3599, 'elite-trainer-box': 1399, 'booster-pack': 99 },
  };
  for (const expansion of SCARLET_VIOLET) {
    for (const type of ['elite-trainer-box', 'booster-pack', 'booster-box', 'booster-display', 'booster-bundle', 'three-pack-blister', 'blister']) {
      const price = svPrices[expansion]?.[type];
      list.push(price === undefined ? { type, expansion } : { type, expansion, price });
    }
    const [label, price] = FEATURED_SINGLES[expansion]!;
    list.push({ type: 'single-card', expansion, label, price });
  }
  list.push(
    { type: 'single-card', expansion: 'journey-together', label: 'N’s Zoroark ex', price: 720 },
    { type: 'single-card', expansion: 'destined-rivals', label: 'Ethan’s Ho-Oh ex', price: 980 },
    { type: 'digital-code', expansion: 'surging-sparks' },
    { type: 'digital-code', expansion: 'prismatic-evolutions' },
    { type: 'digital-code', expansion: 'journey-together' },
    { type: 'digital-code', expansion: 'destined-rivals' },
    { type: 'tin', expansion: 'surging-sparks', label: 'Pikachu ex' },
    { type: 'tin', expansion: 'destined-rivals', label: 'Team Rocket’s Moltres ex' },
    { type: 'mini-tin', expansion: 'prismatic-evolutions' },
    { type: 'mini-tin', expansion: 'journey-together' },
    { type: 'collection-box', expansion: 'stellar-crown', label: 'Terapagos ex' },
    { type: 'collection-box', expansion: 'journey-together', label: 'Lillie’s Clefairy ex' },
    { type: 'premium-collection', expansion: 'prismatic-evolutions', label: 'Evoluciones Prismáticas' },
    { type: 'premium-collection', expansion: 'destined-rivals', label: 'Team Rocket’s Mewtwo ex', price: 2199 },
    { type: 'special-collection', expansion: 'prismatic-evolutions', label: 'bolsa Evoluciones Prismáticas' },
    { type: 'special-collection', expansion: 'surging-sparks', label: 'Chispas Fulgurantes' },
    { type: 'build-battle', expansion: 'temporal-forces' },
    { type: 'build-battle', expansion: 'twilight-masquerade' },
    { type: 'build-battle', expansion: 'destined-rivals' },
    { type: 'build-battle-stadium', expansion: 'temporal-forces' },
    { type: 'build-battle-stadium', expansion: 'surging-sparks' },
    { type: 'theme-deck', expansion: 'shrouded-fable', label: 'Pecharunt' },
    { type: 'theme-deck', expansion: 'stellar-crown', label: 'Terapagos' },
    { type: 'battle-deck', expansion: 'twilight-masquerade', label: 'Ogerpon ex' },
    { type: 'battle-deck', expansion: 'journey-together', label: 'Iono’s Bellibolt ex' },
    { type: 'binder', expansion: 'prismatic-evolutions' },
    { type: 'binder', expansion: 'journey-together' },
    { type: 'sleeves', expansion: 'destined-rivals' },
    { type: 'sleeves', expansion: 'surging-sparks' },
    { type: 'deck-box', expansion: 'destined-rivals' },
    { type: 'deck-box', expansion: 'twilight-masquerade' },
    { type: 'playmat', expansion: 'journey-together' },
    { type: 'playmat', expansion: 'prismatic-evolutions' },
    { type: 'graded-card', expansion: 'prismatic-evolutions', label: 'Umbreon ex (Ilustración especial)', price: 12999 },
    { type: 'graded-card', expansion: 'destined-rivals', label: 'Team Rocket’s Mewtwo ex', price: 6499 },
  );
  // Older Pokémon sets: singles, graded cards and a few sealed products.
  for (const expansion of Object.keys(FEATURED_SINGLES)) {
    if (SCARLET_VIOLET.includes(expansion)) continue;
    const [label, price] = FEATURED_SINGLES[expansion]!;
    list.push({ type: 'single-card', expansion, label, price });
  }
  list.push(
    { type: 'booster-pack', expansion: 'brilliant-stars', price: 149 },
    { type: 'booster-pack', expansion: 'lost-origin', price: 159 },
    { type: 'booster-pack', expansion: 'silver-tempest', price: 139 },
    { type: 'booster-pack', expansion: 'crown-zenith', price: 179 },
    { type: 'booster-pack', expansion: 'hidden-fates', price: 399, limit: 6 },
    { type: 'booster-pack', expansion: 'xy-evolutions', price: 1299, limit: 2, stock: 0 },
    { type: 'elite-trainer-box', expansion: 'brilliant-stars', price: 2499 },
    { type: 'elite-trainer-box', expansion: 'crown-zenith', price: 2199 },
    { type: 'graded-card', expansion: 'hidden-fates', label: 'Charizard GX Shiny', price: 9999 },
    { type: 'graded-card', expansion: 'xy-evolutions', label: 'Charizard (Evoluciones)', price: 7499 },
    { type: 'graded-card', expansion: 'plasma-storm', label: 'Charizard EX', price: 8999 },
    { type: 'graded-card', expansion: 'team-up', label: 'Pikachu & Zekrom GX', price: 4999 },
    { type: 'theme-deck', expansion: 'legendary-treasures', label: 'Reshiram y Zekrom', price: 899 },
    { type: 'booster-box', expansion: 'lost-origin', price: 5499, limit: 1 },
  );
  // One Piece: every set gets a booster box, a tournament pack, a promo and its starter deck.
  const starters: Record<string, string> = {
    'op-01': 'ST-01 Straw Hat Crew',
    'op-02': 'ST-03 The Seven Warlords of the Sea',
    'op-03': 'ST-08 Monkey.D.Luffy',
    'op-04': 'ST-10 The Three Captains',
    'op-05': 'ST-13 The Three Brothers',
  };
  for (const expansion of ['op-01', 'op-02', 'op-03', 'op-04', 'op-05']) {
    list.push(
      { type: 'op-booster-box', expansion, ...(expansion === 'op-01' ? { price: 4999, limit: 1 } : {}) },
      { type: 'op-tournament-pack', expansion },
      { type: 'op-flagship-promo', expansion },
      { type: 'op-starter-deck', expansion, label: starters[expansion]! },
    );
  }
  // Riftbound.
  const champions: Record<string, string[]> = {
    origins: ['Jinx', 'Viktor'],
    'proving-grounds': ['Annie'],
    spiritforged: ['Yasuo'],
    unleashed: ['Ahri'],
  };
  for (const expansion of ['origins', 'proving-grounds', 'spiritforged', 'unleashed']) {
    list.push({ type: 'rb-booster-pack', expansion }, { type: 'rb-booster-box', expansion });
    for (const champion of champions[expansion]!) list.push({ type: 'rb-champion-deck', expansion, label: champion });
  }
  list.push({ type: 'rb-origins-set', expansion: 'origins' });
  return list;
}

/** Expansions whose products count as new arrivals. */
export const NEW_ARRIVAL_EXPANSIONS = ['destined-rivals', 'journey-together', 'spiritforged', 'unleashed', 'op-05'];

const PREORDER_RELEASE = '2027-01-29';

/** Sealed products of the newest sets sold ahead of their (re)stock date. */
const PREORDER_IDS = new Set([
  'pk-etb-destined-rivals',
  'pk-boosterbox-destined-rivals',
  'pk-display-destined-rivals',
  'pk-tin-destined-rivals-team-rockets-moltres-ex',
  'op-starter-op-05-st-13-the-three-brothers',
  'rb-championdeck-unleashed-ahri',
  'rb-booster-unleashed',
]);

function slug(value: string): string {
  return value
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[’']/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

/** Whole pesos after taking `percent` off, so discounted prices look like shelf prices. */
function discounted(price: number, percent: number): number {
  return Math.max(1, Math.floor((price * (100 - percent)) / 100));
}

function buildProduct(entry: Entry, index: number, extraSuffix = ''): SeedProduct {
  const type = getProductType(entry.type);
  const expansion = getExpansion(entry.expansion);
  const info = TYPES[entry.type];
  if (!type || !expansion || !info) throw new Error(`Entrada de catálogo no válida: ${entry.type} / ${entry.expansion}`);
  const labelled =
    entry.label !== undefined &&
    [
      'single-card',
      'graded-card',
      'tin',
      'collection-box',
      'premium-collection',
      'special-collection',
      'theme-deck',
      'battle-deck',
      'op-starter-deck',
      'rb-champion-deck',
    ].includes(entry.type);
  const id = [FRANCHISE_PREFIX[type.franchiseId], info.code, expansion.id, labelled ? slug(entry.label!) : '', extraSuffix].filter(Boolean).join('-');
  const h = hash(id);
  const newArrival = NEW_ARRIVAL_EXPANSIONS.includes(expansion.id);
  const basePrice = entry.price ?? info.price;
  // Fixed rules: every fifth product is on sale, and every third new arrival.
  const preorder = PREORDER_IDS.has(id);
  const onSale = !preorder && (index % 5 === 2 || (newArrival && index % 3 === 0));
  const soldOut = entry.stock === 0 || (!preorder && index % 11 === 7);
  const percent = [10, 15, 20, 25][h % 4]!;
  const price = onSale ? discounted(basePrice, percent) : basePrice;
  const stock = soldOut ? 0 : (entry.stock ?? (info.limit <= 2 ? 2 + (h % 6) : 5 + (h % 40)));
  const imageCount = 1 + (h % 4);
  const images = Array.from({ length: imageCount }, (_, i) => `products/${id}-${i + 1}.svg`);
  const name = info.name(expansion.name, entry.label);
  return {
    id,
    name,
    description: info.description(expansion.name, entry.label),
    price,
    originalPrice: onSale ? basePrice : null,
    discount: onSale,
    preorder,
    stock,
    limitPerCustomer: entry.limit ?? info.limit,
    available: true,
    releaseDate: preorder ? PREORDER_RELEASE : (expansion.releaseDate ?? null),
    image: images[0]!,
    images,
    tags: [type.name, expansion.name, type.franchiseId],
    type: newArrival ? 'newArrivals' : null,
    franchiseId: type.franchiseId,
    collectionId: expansion.collectionId,
    expansionId: expansion.id,
    productTypeId: type.id,
    kind: info.kind,
  };
}

/** How a product type is drawn (its type image and its products' images). */
export function productTypeKind(typeId: string): ArtKind {
  return TYPES[typeId]?.kind ?? 'box';
}

/** A single's per-customer limit: a playset of cheap cards, two copies of a chase card. */
function singlesLimit(price: number): number {
  return price >= 1000 ? 2 : 4;
}

/** Gives a product of a singles type its printing and offers, and the price and stock they make. */
function withOffers(product: SeedProduct, printing: SeedPrinting, nmPrice: number, certificates: Certificates, scaled = false): SeedProduct {
  const fixed = FIXED_OFFERS[`${printing.setCode}:${printing.collectorNumber}`];
  const offers = offersFor(product.id, printing, nmPrice, certificates, { fixed: scaled ? undefined : fixed, slabImages: !scaled });
  const figures = productFigures(offers);
  const setName = setNameOf(product.expansionId, product.tags[1]);
  return Object.assign(product, {
    printing,
    offers,
    price: figures.price,
    originalPrice: figures.originalPrice,
    discount: figures.originalPrice !== null,
    preorder: false,
    stock: figures.stock,
    limitPerCustomer: singlesLimit(figures.price),
    description: singleDescription(
      printing,
      setName,
      offers.some((o) => o.gradingCompany !== null),
    ),
  });
}

/** A product for one card line of a set (scripts/seed/cards.ts). */
function singleProduct(set: CardSet, card: CardLine, certificates: Certificates, scaled?: { suffix: string; image: string }): SeedProduct {
  const [number, nameEn, nameEs, rarity, nmPrice] = card;
  const expansion = set.expansionId ? getExpansion(set.expansionId) : undefined;
  const setName = setNameOf(set.expansionId, set.setName);
  const typeId = SINGLES_TYPE[set.franchise];
  const id = [FRANCHISE_PREFIX[set.franchise], 'single', set.expansionId ?? slug(set.setCode), slug(nameEn), slug(number), scaled?.suffix ?? '']
    .filter(Boolean)
    .join('-');
  const images = scaled ? [scaled.image] : Array.from({ length: 1 + (hash(id) % 2) }, (_, i) => `products/${id}-${i + 1}.svg`);
  const product: SeedProduct = {
    id,
    name: singleName(set.franchise, card, setName),
    description: '',
    price: nmPrice,
    originalPrice: null,
    discount: false,
    preorder: false,
    stock: 0,
    limitPerCustomer: 4,
    available: true,
    releaseDate: expansion?.releaseDate ?? null,
    image: images[0]!,
    images,
    tags: [getProductType(typeId)?.name ?? 'Carta individual', setName, set.franchise, nameEn, ...(nameEs ? [nameEs] : []), number],
    type: null,
    franchiseId: set.franchise,
    collectionId: expansion?.collectionId ?? (set.franchise === 'pokemon' ? 'scarlet-violet' : null),
    expansionId: expansion?.id ?? null,
    productTypeId: typeId,
    kind: 'card',
  };
  const printing: SeedPrinting = { franchise: set.franchise, setCode: set.setCode, collectorNumber: number, rarity, nameEn, nameEs };
  return withOffers(product, printing, nmPrice, certificates, scaled !== undefined);
}

/** The demo catalogue, its slabs' certificates drawn from `certificates`. */
function demoCatalog(certificates: Certificates): SeedProduct[] {
  const products = curatedEntries().map((entry, index) => buildProduct(entry, index));
  const hero = products.find((p) => p.id === 'pk-boosterbox-journey-together');
  if (hero) {
    // The hero slide's product is always in stock.
    Object.assign(hero, { stock: 25, limitPerCustomer: 3 });
  }
  for (const id of PREORDER_IDS) {
    if (!products.some((p) => p.id === id)) throw new Error(`Preventa de un producto inexistente: ${id}`);
  }
  // The Pokémon singles of the curated list keep their ids and names and become printings.
  for (const product of products) {
    if (!isSinglesType(product.productTypeId)) continue;
    const spec = EXISTING_SINGLES[product.id];
    if (!spec) throw new Error(`Carta individual sin impresión: ${product.id}`);
    const [setCode, collectorNumber, nameEs, rarity, nmPrice] = spec;
    const nameEn = EXISTING_NAME_EN[product.id] ?? product.name.split(' – ')[0]!;
    withOffers(product, { franchise: product.franchiseId, setCode, collectorNumber, rarity, nameEn, nameEs }, nmPrice, certificates);
  }
  // The singles section: new printings after every other product, so the demo orders keep theirs.
  for (const set of CARD_SETS) {
    for (const card of set.cards) products.push(singleProduct(set, card, certificates));
  }
  const ids = new Set<string>();
  for (const product of products) {
    if (ids.has(product.id)) throw new Error(`Id de producto repetido: ${product.id}`);
    ids.add(product.id);
  }
  return products;
}

/** The hand-written demo catalogue (ids are stable across runs). */
export function demoProducts(): SeedProduct[] {
  return demoCatalog(new Certificates());
}

/**
 * A catalogue of `count` products for benchmarks: the demo catalogue followed by numbered copies.
 * Four of every five copies are singles with 2 to 6 offers (the card lines of every set in turn);
 * the rest cycle through every sealed type and expansion of the same franchise. Copies reuse the
 * product-type image instead of getting their own files.
 */
export function scaledProducts(count: number): SeedProduct[] {
  const certificates = new Certificates();
  const base = demoCatalog(certificates);
  if (count <= base.length) return base.slice(0, count);
  const pairs: Entry[] = [];
  for (const type of productTypes) {
    if (isSinglesType(type.id)) continue;
    for (const expansion of expansions) {
      if (expansion.franchiseId === type.franchiseId) pairs.push({ type: type.id, expansion: expansion.id });
    }
  }
  const cards = CARD_SETS.flatMap((set) => set.cards.map((card) => ({ set, card })));
  const products = [...base];
  let sealed = 0;
  let singles = 0;
  for (let i = 0; products.length < count; i += 1) {
    if (i % 5 !== 0) {
      const { set, card } = cards[singles % cards.length]!;
      const copy = Math.floor(singles / cards.length) + 1;
      singles += 1;
      const typeImage = `product-types/${SINGLES_TYPE[set.franchise]}.svg`;
      const product = singleProduct(set, card, certificates, { suffix: `v${copy}`, image: typeImage });
      products.push({ ...product, name: `${product.name} #${copy}` });
      continue;
    }
    const entry = pairs[sealed % pairs.length]!;
    const copy = Math.floor(sealed / pairs.length) + 1;
    sealed += 1;
    const product = buildProduct(entry, base.length + i, `v${copy}`);
    const typeImage = `product-types/${entry.type}.svg`;
    products.push({ ...product, name: `${product.name} #${copy}`, image: typeImage, images: [typeImage] });
  }
  return products;
}
