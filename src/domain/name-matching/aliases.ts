/**
 * The abbreviations and other names card players type for a franchise, an expansion or a product
 * type, each pointing at the name the catalogue (./../catalog.ts) gives it. The search matches an
 * alias through that name, which every product of the franchise, expansion or type carries in its
 * search text (catalogTags in ./matching.ts), so 'etb' finds what 'Elite Trainer Box' finds.
 *
 * Keys are written as typed; they are compared without case, accents, spaces or punctuation, so
 * 'OP-05', 'op05' and 'op 05' are one key. Only whole words are aliases ('etb', not 'et'), up to
 * three words long ('surging sparks'). tests/unit/domain/name-matching/aliases.test.ts checks that every
 * target is a franchise, expansion or product type name of the catalogue.
 */
export const SEARCH_ALIASES: Readonly<Record<string, string>> = {
  // Franchises.
  pkm: 'Pokémon',
  pkmn: 'Pokémon',
  optcg: 'One Piece',
  // Product types.
  etb: 'Elite Trainer Box',
  'booster box': 'Caja de sobres',
  'booster pack': 'Sobre',
  'mini tin': 'Mini lata',
  tin: 'Lata',
  sleeves: 'Protectores de cartas',
  playmat: 'Tapete de juego',
  binder: 'Carpeta',
  'deck box': 'Portamazo',
  // One Piece expansions by their code (also printed in every collector number: 'OP05-119').
  op01: 'OP-01 Romance Dawn',
  op02: 'OP-02 Paramount War',
  op03: 'OP-03 Pillars of Strength',
  op04: 'OP-04 Kingdoms of Intrigue',
  op05: 'OP-05 Awakening of the New Era',
  // Pokémon expansions by their set code and their English name.
  tef: 'Fuerzas Temporales',
  'temporal forces': 'Fuerzas Temporales',
  twm: 'Máscaras del Crepúsculo',
  'twilight masquerade': 'Máscaras del Crepúsculo',
  sfa: 'Fábula Sombría',
  'shrouded fable': 'Fábula Sombría',
  scr: 'Corona Astral',
  'stellar crown': 'Corona Astral',
  ssp: 'Chispas Fulgurantes',
  'surging sparks': 'Chispas Fulgurantes',
  'prismatic evolutions': 'Evoluciones Prismáticas',
  jtg: 'Journey Together',
  dri: 'Destined Rivals',
  'brilliant stars': 'Astros Brillantes',
  'lost origin': 'Origen Perdido',
  'silver tempest': 'Tempestad Plateada',
  'crown zenith': 'Cenit Supremo',
  'team up': 'Unión de Aliados',
  'hidden fates': 'Destinos Ocultos',
  'cosmic eclipse': 'Eclipse Cósmico',
  // Riftbound expansions by the code of their collector numbers ('OGN-066').
  ogn: 'Origins',
  ogs: 'Proving Grounds',
  sfd: 'Spiritforged',
  unl: 'Unleashed',
};

/** Longest alias, in words. */
export const ALIAS_MAX_WORDS = 3;
