/**
 * The single cards of the demo catalogue: real-looking printings of the three games, by set. Each
 * line is [collector number as printed, English name, Spanish name when it differs (Pokémon only),
 * rarity code of src/domain/singles.ts, price of a Near Mint copy in pesos].
 *
 * Pokémon numbers are 'number/set total' (secret rares above the total), One Piece 'OP05-119' and
 * Riftbound 'OGN-042'. Cards marked with `existing` were already in the catalogue as products
 * (scripts/seed/products.ts, FEATURED_SINGLES) and keep their product ids and names.
 */
import type { FranchiseId } from '~/domain/catalog.ts';

export type CardLine = [number: string, nameEn: string, nameEs: string | null, rarity: string, nmPrice: number];

/** One set's singles. */
export interface CardSet {
  franchise: FranchiseId;
  /** The catalogue expansion (src/domain/catalog.ts), or null for a set the catalogue does not list. */
  expansionId: string | null;
  /** The set's name on product names when it has no catalogue expansion. */
  setName?: string;
  /** The set code stored in card_printings.expansion. */
  setCode: string;
  cards: CardLine[];
}

/** Offer rules a card must have (the demo journeys rely on them). */
export interface FixedOffer {
  condition: 'NM' | 'LP' | 'MP' | 'HP' | 'DMG' | null;
  language: string;
  finish: string;
  stock: number;
  /** A slab: company and grade (the certificate is generated). */
  slab?: { company: 'PSA' | 'BGS' | 'CGC'; grade: number };
}

/**
 * Products already in the catalogue as Pokémon singles: product id → [set code, number, Spanish name
 * when it differs, rarity, NM price]. Their English name is the product's label.
 */
export const EXISTING_SINGLES: Record<string, [setCode: string, number: string, nameEs: string | null, rarity: string, nmPrice: number]> = {
  'pk-single-temporal-forces-walking-wake-ex': ['SV5', '205/162', 'Ondulagua ex', 'special-illustration-rare', 1290],
  'pk-single-twilight-masquerade-ogerpon-hearthflame-ex': ['SV6', '222/167', 'Ogerpon Máscara Horno ex', 'special-illustration-rare', 890],
  'pk-single-shrouded-fable-pecharunt-ex': ['SV6.5', '093/064', null, 'special-illustration-rare', 690],
  'pk-single-stellar-crown-terapagos-ex': ['SV7', '170/142', null, 'special-illustration-rare', 1490],
  'pk-single-surging-sparks-pikachu-ex': ['SV8', '238/191', null, 'special-illustration-rare', 8990],
  'pk-single-prismatic-evolutions-umbreon-ex': ['SV8.5', '161/131', null, 'special-illustration-rare', 21990],
  'pk-single-journey-together-lillies-clefairy-ex': ['SV9', '184/159', 'Clefairy ex de Lillie', 'special-illustration-rare', 3290],
  'pk-single-destined-rivals-team-rockets-mewtwo-ex': ['SV10', '231/182', 'Mewtwo ex del Team Rocket', 'special-illustration-rare', 4990],
  'pk-single-journey-together-ns-zoroark-ex': ['SV9', '185/159', 'Zoroark ex de N', 'special-illustration-rare', 2290],
  'pk-single-destined-rivals-ethans-ho-oh-ex': ['SV10', '230/182', 'Ho-Oh ex de Eco', 'special-illustration-rare', 2190],
  'pk-single-brilliant-stars-charizard-vstar': ['SWSH9', '018/172', null, 'ultra-rare', 690],
  'pk-single-lost-origin-giratina-v-arte-alternativo': ['SWSH11', '186/196', null, 'ultra-rare', 9490],
  'pk-single-silver-tempest-lugia-v-arte-alternativo': ['SWSH12', '186/195', null, 'ultra-rare', 6990],
  'pk-single-crown-zenith-mewtwo-vstar': ['SWSH12.5', 'GG44/GG70', null, 'ultra-rare', 450],
  'pk-single-team-up-pikachu-zekrom-gx': ['SM9', '33/181', null, 'ultra-rare', 950],
  'pk-single-hidden-fates-charizard-gx-shiny': ['SM11.5', 'SV49/SV94', null, 'ultra-rare', 2900],
  'pk-single-cosmic-eclipse-arceus-dialga-palkia-gx': ['SM12', '156/236', null, 'ultra-rare', 1100],
  'pk-single-furious-fists-lucario-ex': ['XY3', '54/111', null, 'ultra-rare', 390],
  'pk-single-steam-siege-volcanion-ex': ['XY11', '26/114', null, 'ultra-rare', 320],
  'pk-single-xy-evolutions-charizard-evoluciones': ['XY12', '11/108', null, 'holo-rare', 1600],
  'pk-single-boundaries-crossed-landorus-ex': ['BW7', '89/149', null, 'ultra-rare', 280],
  'pk-single-plasma-storm-charizard-ex': ['BW8', '136/135', null, 'ultra-rare', 2100],
  'pk-single-legendary-treasures-reshiram-arte-completo': ['BW11', '113/113', null, 'ultra-rare', 760],
};

/** The English names of existing singles whose catalogue label carries a note ('(Arte alternativo)'). */
export const EXISTING_NAME_EN: Record<string, string> = {
  'pk-single-lost-origin-giratina-v-arte-alternativo': 'Giratina V',
  'pk-single-silver-tempest-lugia-v-arte-alternativo': 'Lugia V',
  'pk-single-xy-evolutions-charizard-evoluciones': 'Charizard',
  'pk-single-legendary-treasures-reshiram-arte-completo': 'Reshiram',
  'pk-single-twilight-masquerade-ogerpon-hearthflame-ex': 'Hearthflame Mask Ogerpon ex',
};

const DR = 'double-rare';
const SIR = 'special-illustration-rare';
const IR = 'illustration-rare';
const UR = 'ultra-rare';
const HR = 'hyper-rare';

/** New singles, by set. */
export const CARD_SETS: readonly CardSet[] = [
  {
    franchise: 'pokemon',
    expansionId: 'temporal-forces',
    setCode: 'SV5',
    cards: [
      ['025/162', 'Iron Leaves ex', 'Ferroverdor ex', DR, 45],
      ['038/162', 'Gouging Fire ex', 'Flamariete ex', DR, 60],
      ['050/162', 'Walking Wake ex', 'Ondulagua ex', DR, 55],
      ['081/162', 'Iron Crown ex', 'Ferrotesta ex', DR, 55],
      ['123/162', 'Raging Bolt ex', 'Electrofuria ex', DR, 70],
      ['157/162', 'Prime Catcher', null, 'ace-spec', 90],
      ['203/162', 'Iron Leaves ex', 'Ferroverdor ex', SIR, 650],
      ['208/162', 'Raging Bolt ex', 'Electrofuria ex', SIR, 950],
    ],
  },
  {
    franchise: 'pokemon',
    expansionId: 'twilight-masquerade',
    setCode: 'SV6',
    cards: [
      ['025/167', 'Teal Mask Ogerpon ex', 'Ogerpon Máscara Turquesa ex', DR, 60],
      ['106/167', 'Greninja ex', null, DR, 120],
      ['130/167', 'Dragapult ex', null, DR, 90],
      ['141/167', 'Bloodmoon Ursaluna ex', 'Ursaluna Luna Carmesí ex', DR, 55],
      ['163/167', 'Rare Candy', 'Caramelo Raro', 'uncommon', 15],
      ['211/167', 'Teal Mask Ogerpon ex', 'Ogerpon Máscara Turquesa ex', SIR, 900],
      ['214/167', 'Greninja ex', null, SIR, 2390],
    ],
  },
  {
    franchise: 'pokemon',
    expansionId: 'shrouded-fable',
    setCode: 'SV6.5',
    cards: [
      ['036/064', 'Pecharunt ex', null, DR, 35],
      ['038/064', 'Fezandipiti ex', null, DR, 40],
      ['057/064', 'Night Stretcher', null, 'uncommon', 20],
      ['090/064', 'Fezandipiti ex', null, SIR, 650],
      ['092/064', 'Okidogi ex', null, SIR, 520],
    ],
  },
  {
    franchise: 'pokemon',
    expansionId: 'stellar-crown',
    setCode: 'SV7',
    cards: [
      ['041/142', 'Lapras ex', null, DR, 40],
      ['076/142', 'Galvantula ex', null, DR, 30],
      ['128/142', 'Terapagos ex', null, DR, 45],
      ['138/142', 'Crispin', null, 'uncommon', 12],
      ['172/142', 'Galvantula ex', null, SIR, 650],
      ['173/142', 'Lapras ex', null, SIR, 700],
      ['175/142', 'Terapagos ex', null, HR, 990],
    ],
  },
  {
    franchise: 'pokemon',
    expansionId: 'surging-sparks',
    setCode: 'SV8',
    cards: [
      ['064/191', 'Milotic ex', null, DR, 45],
      ['086/191', 'Sylveon ex', null, DR, 35],
      ['119/191', 'Hydreigon ex', null, DR, 30],
      ['177/191', 'Jasmine’s Gaze', 'Mirada de Yasmina', 'uncommon', 12],
      ['188/191', 'Latias ex', null, DR, 60],
      ['240/191', 'Milotic ex', null, SIR, 1100],
      ['245/191', 'Latias ex', null, SIR, 1890],
    ],
  },
  {
    franchise: 'pokemon',
    expansionId: 'prismatic-evolutions',
    setCode: 'SV8.5',
    cards: [
      ['006/131', 'Leafeon ex', null, DR, 90],
      ['014/131', 'Flareon ex', null, DR, 90],
      ['026/131', 'Vaporeon ex', null, DR, 95],
      ['030/131', 'Glaceon ex', null, DR, 90],
      ['033/131', 'Jolteon ex', null, DR, 85],
      ['034/131', 'Espeon ex', null, DR, 100],
      ['060/131', 'Umbreon ex', null, DR, 220],
      ['041/131', 'Sylveon ex', null, DR, 110],
      ['155/131', 'Espeon ex', null, SIR, 4790],
      ['149/131', 'Vaporeon ex', null, SIR, 3190],
      ['156/131', 'Sylveon ex', null, SIR, 3590],
    ],
  },
  {
    franchise: 'pokemon',
    expansionId: 'journey-together',
    setCode: 'SV9',
    cards: [
      ['050/159', 'Iono’s Bellibolt ex', null, DR, 45],
      ['056/159', 'Lillie’s Clefairy ex', 'Clefairy ex de Lillie', DR, 60],
      ['098/159', 'N’s Zoroark ex', 'Zoroark ex de N', DR, 70],
      ['111/159', 'Hop’s Zacian ex', 'Zacian ex de Paul', DR, 120],
      ['119/159', 'Lillie’s Determination', 'Determinación de Lillie', 'uncommon', 25],
      ['176/159', 'Lillie’s Determination', 'Determinación de Lillie', UR, 450],
      ['186/159', 'Hop’s Zacian ex', 'Zacian ex de Paul', SIR, 1490],
    ],
  },
  {
    franchise: 'pokemon',
    expansionId: 'destined-rivals',
    setCode: 'SV10',
    cards: [
      ['010/182', 'Team Rocket’s Moltres ex', 'Moltres ex del Team Rocket', DR, 45],
      ['039/182', 'Ethan’s Ho-Oh ex', 'Ho-Oh ex de Eco', DR, 60],
      ['081/182', 'Team Rocket’s Mewtwo ex', 'Mewtwo ex del Team Rocket', DR, 90],
      ['104/182', 'Cynthia’s Garchomp ex', 'Garchomp ex de Cintia', DR, 80],
      ['179/182', 'Team Rocket’s Transceiver', 'Transceptor del Team Rocket', 'uncommon', 12],
      ['232/182', 'Cynthia’s Garchomp ex', 'Garchomp ex de Cintia', SIR, 1590],
      ['243/182', 'Team Rocket’s Nidoking ex', 'Nidoking ex del Team Rocket', HR, 890],
    ],
  },
  {
    franchise: 'pokemon',
    expansionId: null,
    setName: 'Escarlata y Púrpura 151',
    setCode: 'SV3.5',
    cards: [
      ['006/165', 'Charizard ex', null, DR, 150],
      ['151/165', 'Mew ex', null, DR, 90],
      ['166/165', 'Bulbasaur', null, IR, 280],
      ['168/165', 'Charmander', null, IR, 450],
      ['169/165', 'Charmeleon', null, IR, 320],
      ['193/165', 'Mew ex', null, SIR, 1290],
      ['198/165', 'Venusaur ex', null, SIR, 950],
      ['199/165', 'Charizard ex', null, SIR, 2190],
      ['200/165', 'Blastoise ex', null, SIR, 1090],
      ['205/165', 'Mew ex', null, HR, 590],
    ],
  },
  {
    franchise: 'pokemon',
    expansionId: 'brilliant-stars',
    setCode: 'SWSH9',
    cards: [
      ['123/172', 'Arceus VSTAR', null, UR, 120],
      ['132/172', 'Ultra Ball', null, 'uncommon', 10],
      ['154/172', 'Charizard V', null, UR, 1590],
    ],
  },
  {
    franchise: 'pokemon',
    expansionId: 'lost-origin',
    setCode: 'SWSH11',
    cards: [
      ['079/196', 'Comfey', null, 'uncommon', 12],
      ['131/196', 'Giratina VSTAR', null, UR, 180],
    ],
  },
  {
    franchise: 'pokemon',
    expansionId: 'silver-tempest',
    setCode: 'SWSH12',
    cards: [
      ['139/195', 'Lugia VSTAR', null, UR, 150],
      ['147/195', 'Nest Ball', 'Nido Ball', 'uncommon', 10],
    ],
  },
  {
    franchise: 'pokemon',
    expansionId: 'crown-zenith',
    setCode: 'SWSH12.5',
    cards: [
      ['GG69/GG70', 'Giratina VSTAR', null, HR, 3190],
      ['GG05/GG70', 'Leafeon', null, IR, 220],
    ],
  },
  {
    franchise: 'pokemon',
    expansionId: 'hidden-fates',
    setCode: 'SM11.5',
    cards: [['SV41/SV94', 'Eevee', null, 'holo-rare', 90]],
  },
  {
    franchise: 'pokemon',
    expansionId: 'xy-evolutions',
    setCode: 'XY12',
    cards: [
      ['12/108', 'Charmeleon', null, 'uncommon', 45],
      ['9/108', 'Charmander', null, 'common', 35],
      ['13/108', 'Charizard EX', null, UR, 890],
    ],
  },
  {
    franchise: 'pokemon',
    expansionId: 'cosmic-eclipse',
    setCode: 'SM12',
    cards: [['195/236', 'Professor’s Research', 'Investigación de Profesores', 'uncommon', 10]],
  },
  {
    franchise: 'pokemon',
    expansionId: 'furious-fists',
    setCode: 'XY3',
    cards: [['102/111', 'Switch', 'Cambio', 'uncommon', 8]],
  },
  {
    franchise: 'one-piece',
    expansionId: 'op-01',
    setCode: 'OP01',
    cards: [
      ['OP01-001', 'Roronoa Zoro', null, 'L', 60],
      ['OP01-003', 'Monkey.D.Luffy', null, 'L', 80],
      ['OP01-006', 'Otama', null, 'UC', 8],
      ['OP01-013', 'Sanji', null, 'R', 30],
      ['OP01-016', 'Nami', null, 'R', 35],
      ['OP01-024', 'Monkey.D.Luffy', null, 'SR', 120],
      ['OP01-025', 'Roronoa Zoro', null, 'SR', 90],
      ['OP01-051', 'Eustass"Captain"Kid', null, 'L', 60],
      ['OP01-060', 'Donquixote Doflamingo', null, 'L', 70],
      ['OP01-070', 'Dracule Mihawk', null, 'SR', 80],
      ['OP01-078', 'Boa Hancock', null, 'SR', 90],
      ['OP01-120', 'Shanks', null, 'SEC', 1190],
      ['OP01-121', 'Yamato', null, 'SEC', 690],
    ],
  },
  {
    franchise: 'one-piece',
    expansionId: 'op-02',
    setCode: 'OP02',
    cards: [
      ['OP02-001', 'Edward.Newgate', null, 'L', 50],
      ['OP02-004', 'Edward.Newgate', null, 'SR', 90],
      ['OP02-009', 'Marco', null, 'R', 25],
      ['OP02-013', 'Portgas.D.Ace', null, 'SR', 250],
      ['OP02-026', 'Sanji', null, 'L', 45],
      ['OP02-062', 'Monkey.D.Luffy', null, 'SR', 150],
      ['OP02-085', 'Magellan', null, 'R', 20],
      ['OP02-093', 'Smoker', null, 'L', 40],
      ['OP02-096', 'Kuzan', null, 'UC', 8],
      ['OP02-114', 'Borsalino', null, 'SR', 70],
      ['OP02-120', 'Uta', null, 'SEC', 590],
      ['OP02-121', 'Kuzan', null, 'SEC', 450],
    ],
  },
  {
    franchise: 'one-piece',
    expansionId: 'op-03',
    setCode: 'OP03',
    cards: [
      ['OP03-001', 'Portgas.D.Ace', null, 'L', 60],
      ['OP03-008', 'Buggy', null, 'R', 20],
      ['OP03-022', 'Arlong', null, 'L', 35],
      ['OP03-040', 'Nami', null, 'L', 50],
      ['OP03-058', 'Iceburg', null, 'UC', 10],
      ['OP03-076', 'Rob Lucci', null, 'L', 45],
      ['OP03-092', 'Rob Lucci', null, 'SR', 90],
      ['OP03-099', 'Charlotte Katakuri', null, 'L', 70],
      ['OP03-112', 'Charlotte Pudding', null, 'R', 40],
      ['OP03-114', 'Charlotte Linlin', null, 'SR', 120],
      ['OP03-122', 'Sogeking', null, 'SEC', 450],
      ['OP03-123', 'Charlotte Katakuri', null, 'SEC', 380],
    ],
  },
  {
    franchise: 'one-piece',
    expansionId: 'op-04',
    setCode: 'OP04',
    cards: [
      ['OP04-001', 'Nefeltari Vivi', null, 'L', 60],
      ['OP04-019', 'Donquixote Doflamingo', null, 'L', 55],
      ['OP04-031', 'Donquixote Doflamingo', null, 'SR', 120],
      ['OP04-040', 'Queen', null, 'L', 40],
      ['OP04-044', 'Kaido', null, 'SR', 90],
      ['OP04-058', 'Crocodile', null, 'L', 45],
      ['OP04-064', 'Ms. All Sunday', null, 'R', 25],
      ['OP04-083', 'Sabo', null, 'SR', 110],
      ['OP04-090', 'Monkey.D.Luffy', null, 'SR', 160],
      ['OP04-112', 'Yamato', null, 'SR', 130],
      ['OP04-118', 'Nefeltari Vivi', null, 'SEC', 550],
      ['OP04-119', 'Donquixote Rosinante', null, 'SEC', 590],
    ],
  },
  {
    franchise: 'one-piece',
    expansionId: 'op-05',
    setCode: 'OP05',
    cards: [
      ['OP05-001', 'Sabo', null, 'L', 55],
      ['OP05-002', 'Belo Betty', null, 'L', 40],
      ['OP05-015', 'Belo Betty', null, 'UC', 8],
      ['OP05-022', 'Donquixote Rosinante', null, 'L', 50],
      ['OP05-041', 'Sakazuki', null, 'L', 40],
      ['OP05-060', 'Monkey.D.Luffy', null, 'L', 90],
      ['OP05-067', 'Zoro-Juurou', null, 'R', 30],
      ['OP05-069', 'Trafalgar Law', null, 'SR', 180],
      ['OP05-074', 'Eustass"Captain"Kid', null, 'SR', 200],
      ['OP05-091', 'Rebecca', null, 'SR', 60],
      ['OP05-098', 'Enel', null, 'L', 70],
      ['OP05-100', 'Enel', null, 'SR', 110],
      ['OP05-118', 'Kaido', null, 'SEC', 450],
      ['OP05-119', 'Monkey.D.Luffy', null, 'SEC', 1890],
    ],
  },
  {
    franchise: 'riftbound',
    expansionId: 'origins',
    setCode: 'OGN',
    cards: [
      ['OGN-007', 'Flame Chompers', null, 'common', 6],
      ['OGN-019', 'Noxian Fervor', null, 'uncommon', 12],
      ['OGN-030', 'Jinx, Loose Cannon', null, 'epic', 160],
      ['OGN-042', 'Jinx, Rebel', null, 'rare', 45],
      ['OGN-066', 'Lux, Lady of Luminosity', null, 'epic', 140],
      ['OGN-089', 'Garen, Might of Demacia', null, 'rare', 40],
      ['OGN-113', 'Viktor, Herald of the Arcane', null, 'epic', 150],
      ['OGN-151', 'Darius, Hand of Noxus', null, 'rare', 35],
      ['OGN-204', 'Teemo, Swift Scout', null, 'uncommon', 10],
      ['OGN-301', 'Jinx, Loose Cannon', null, 'showcase', 1290],
      ['OGN-303', 'Viktor, Herald of the Arcane', null, 'showcase', 990],
    ],
  },
  {
    franchise: 'riftbound',
    expansionId: 'proving-grounds',
    setCode: 'OGS',
    cards: [
      ['OGS-003', 'Annie, Dark Child', null, 'rare', 35],
      ['OGS-009', 'Master Yi, Wuju Bladesman', null, 'rare', 30],
      ['OGS-017', 'Lee Sin, Blind Monk', null, 'epic', 120],
      ['OGS-021', 'Tibbers', null, 'common', 6],
    ],
  },
  {
    franchise: 'riftbound',
    expansionId: 'spiritforged',
    setCode: 'SFD',
    cards: [
      ['SFD-011', 'Yasuo, Unforgiven', null, 'epic', 170],
      ['SFD-024', 'Wind Wall', null, 'uncommon', 10],
      ['SFD-058', 'Kai’Sa, Daughter of the Void', null, 'rare', 45],
      ['SFD-090', 'Sett, The Boss', null, 'rare', 40],
      ['SFD-133', 'Steel Tempest', null, 'common', 6],
      ['SFD-221', 'Yasuo, Unforgiven', null, 'showcase', 1490],
    ],
  },
  {
    franchise: 'riftbound',
    expansionId: 'unleashed',
    setCode: 'UNL',
    cards: [
      ['UNL-005', 'Ahri, Nine-Tailed Fox', null, 'epic', 180],
      ['UNL-027', 'Charm', null, 'common', 6],
      ['UNL-048', 'Volibear, Relentless Storm', null, 'rare', 40],
      ['UNL-077', 'Miss Fortune, Bounty Hunter', null, 'rare', 45],
      ['UNL-112', 'Leona, Radiant Dawn', null, 'uncommon', 12],
      ['UNL-230', 'Ahri, Nine-Tailed Fox', null, 'showcase', 1690],
    ],
  },
];

/** Cards whose offers are fixed, keyed by set code and collector number. */
export const FIXED_OFFERS: Record<string, FixedOffer[]> = {
  // The One Piece chase card of the demo: the search, picker and cart journeys use these offers.
  'OP05:OP05-119': [
    { condition: 'NM', language: 'en', finish: 'parallel', stock: 2 },
    { condition: 'LP', language: 'en', finish: 'parallel', stock: 3 },
    { condition: 'NM', language: 'ja', finish: 'parallel', stock: 1 },
    { condition: 'MP', language: 'ja', finish: 'normal', stock: 0 },
    { condition: null, language: 'ja', finish: 'parallel', stock: 1, slab: { company: 'PSA', grade: 10 } },
  ],
  'SV3.5:199/165': [
    { condition: 'NM', language: 'es', finish: 'holo', stock: 2 },
    { condition: 'NM', language: 'en', finish: 'holo', stock: 3 },
    { condition: 'LP', language: 'es', finish: 'holo', stock: 1 },
    { condition: 'MP', language: 'en', finish: 'holo', stock: 0 },
    { condition: null, language: 'en', finish: 'holo', stock: 1, slab: { company: 'PSA', grade: 10 } },
  ],
  'SV8.5:161/131': [
    { condition: 'NM', language: 'es', finish: 'holo', stock: 1 },
    { condition: 'NM', language: 'en', finish: 'holo', stock: 2 },
    { condition: 'LP', language: 'en', finish: 'holo', stock: 1 },
    { condition: null, language: 'en', finish: 'holo', stock: 1, slab: { company: 'CGC', grade: 10 } },
    { condition: null, language: 'ja', finish: 'holo', stock: 1, slab: { company: 'BGS', grade: 9.5 } },
  ],
};
