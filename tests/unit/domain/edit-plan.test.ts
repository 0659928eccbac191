/**
 * The edit planner (src/domain/edit-plan.ts): the pages a price change, a stock change, a rename,
 * an offer edit, a discount, a hidden product and a new expansion make the site render again.
 */
import { describe, expect, it } from 'vitest';
import { planEdit, prepareEditPlan } from '~/domain/edit-plan.ts';
import { parseProduct, type Product } from '~/domain/product-schema.ts';
import { HOME_PATH, catalogPages, expansionListingPath, pageHref, pagesShowing, productPath, typeListingPath, type RouteCatalog } from '~/domain/routes.ts';

function product(overrides: Record<string, unknown>): Product {
  const parsed = parseProduct({ id: 'p', name: 'Producto', price: 100, stock: 5, franchise_id: 'pokemon', ...overrides });
  if (!parsed) throw new Error('producto de prueba no válido');
  return parsed;
}

const offer = (price: number) => ({ id: 'o1', condition: 'NM', language: 'en', finish: 'normal', price, stock: 2 });

// 60 Destined Rivals booster packs (two listing pages of 48), a One Piece single with an offer.
const packs = Array.from({ length: 60 }, (_, i) =>
  product({ id: `pk-dr-${String(i).padStart(2, '0')}`, expansion_id: 'destined-rivals', product_type_id: 'booster-pack' }),
);
const single = product({
  id: 'op-single-luffy',
  name: 'Monkey.D.Luffy',
  franchise_id: 'one-piece',
  expansion_id: 'op-05',
  product_type_id: 'op-single',
  card_printings: { expansion: 'OP05', collector_number: 'OP05-119', rarity: 'SEC', name_en: 'Monkey.D.Luffy', name_es: null },
  card_offers: [offer(900)],
});
const before: RouteCatalog = {
  products: [...packs, single],
  franchises: [
    { id: 'pokemon', name: 'Pokémon' },
    { id: 'one-piece', name: 'One Piece' },
  ],
  expansions: [
    { id: 'destined-rivals', name: 'Destined Rivals', franchiseId: 'pokemon' },
    { id: 'op-05', name: 'Awakening of the New Era', franchiseId: 'one-piece' },
  ],
  productTypes: [
    { id: 'booster-pack', name: 'Sobres', franchiseId: 'pokemon' },
    { id: 'op-single', name: 'Cartas individuales', franchiseId: 'one-piece' },
  ],
};

/** `before` with product `id` replaced by `change` of it (the other product objects kept, as the server keeps them). */
function edited(id: string, change: (p: Product) => Product): RouteCatalog {
  return { ...before, products: before.products.map((p) => (p.id === id ? change(p) : p)) };
}

const packsType = typeListingPath('pokemon', 'booster-pack');
const packsExpansion = expansionListingPath('pokemon', 'destined-rivals');

describe('the pages an edit renders again', () => {
  it('a price change: the product page, the listing pages that show it and the home slider it is in; /explore, not search', () => {
    // pk-dr-50 is on the second page of both its listings, past the home slider's first twelve.
    const plan = planEdit(
      before,
      edited('pk-dr-50', (p) => ({ ...p, priceCentavos: (p.priceCentavos + 1000) as Product['priceCentavos'] })),
    );
    expect(plan.fallback).toBeNull();
    expect(plan.changed).toEqual(['pk-dr-50']);
    expect(plan.render.sort()).toEqual([pageHref(packsExpansion, 2), pageHref(packsType, 2), productPath('pk-dr-50')].sort());
    expect(plan).toMatchObject({ removed: [], explore: true, search: false });
    // One of the first twelve is in the home's slider too.
    const first = planEdit(
      before,
      edited('pk-dr-03', (p) => ({ ...p, priceCentavos: (p.priceCentavos + 1000) as Product['priceCentavos'] })),
    );
    expect(first.render.sort()).toEqual([HOME_PATH, packsExpansion, packsType, productPath('pk-dr-03')].sort());
  });

  it('plans the same after the catalogue before the edit was prepared (its shared pages listed ahead)', () => {
    const after = edited('pk-dr-03', (p) => ({ ...p, name: `${p.name} nuevo` }));
    const cold = planEdit({ ...before }, after);
    const ready = { ...before };
    prepareEditPlan(ready);
    expect(planEdit(ready, after)).toEqual(cold);
    expect(cold.render).toContain(HOME_PATH);
  });

  it('plans each edit of a chain from the catalogue the edit before left as it plans it from scratch', () => {
    // The server plans an edit against the catalogue the edit before left, whose listings and
    // shared pages are made from the ones before (routes.ts, relistAfterEdit): a stock change
    // (nothing shown), a discount (into the sale listing), a rename on the home page, a price.
    const changes: Array<[string, (p: Product) => Product]> = [
      ['pk-dr-05', (p) => ({ ...p, stock: (p.stock ?? 0) + 1 })],
      ['pk-dr-50', (p) => ({ ...p, originalPriceCentavos: (p.priceCentavos * 2) as Product['priceCentavos'] })],
      ['pk-dr-03', (p) => ({ ...p, name: `${p.name} nuevo` })],
      ['pk-dr-50', (p) => ({ ...p, priceCentavos: (p.priceCentavos + 500) as Product['priceCentavos'] })],
      ['pk-etb-destined-rivals', (p) => ({ ...p, name: 'Caja de entrenador' })],
    ];
    // With a product the home carousel shows a picture of.
    const hero = product({ id: 'pk-etb-destined-rivals', expansion_id: 'destined-rivals', product_type_id: 'booster-pack' });
    let from: RouteCatalog = { ...before, products: [...before.products, hero] };
    prepareEditPlan(from);
    const rendered: string[][] = [];
    for (const [id, change] of changes) {
      const to = { ...from, products: from.products.map((p) => (p.id === id ? change(p) : p)) };
      const planned = planEdit(from, to);
      // The same catalogues as new lists: nothing made for them before.
      expect(planned).toEqual(planEdit({ ...from, products: [...from.products] }, { ...to, products: [...to.products] }));
      rendered.push(planned.render);
      from = to;
    }
    expect(rendered[0]).toEqual([]);
    expect(rendered[1]).toContain(typeListingPath('pokemon', 'sale'));
    expect(rendered[2]).toContain(HOME_PATH);
    expect(rendered[3]).toContain(typeListingPath('pokemon', 'sale'));
    expect(rendered[4]).toContain(HOME_PATH);
  });

  it('a product that already named an expansion the site lacks still makes every edit a whole build', () => {
    const stray = product({ id: 'pk-stray', expansion_id: 'unknown-set', product_type_id: 'booster-pack' });
    const from: RouteCatalog = { ...before, products: [...before.products, stray] };
    prepareEditPlan(from);
    const to = { ...from, products: from.products.map((p) => (p.id === 'pk-dr-50' ? { ...p, name: 'Otro nombre' } : p)) };
    expect(planEdit(from, to).fallback).toBe('new-expansion');
  });

  it('renders for a price change exactly the pages routes.ts says show the product', () => {
    for (const id of ['pk-dr-00', 'pk-dr-47', 'pk-dr-48', 'op-single-luffy']) {
      const after = edited(id, (p) => ({ ...p, priceCentavos: (p.priceCentavos + 1) as Product['priceCentavos'] }));
      expect(planEdit(before, after).render.sort()).toEqual(pagesShowing(after, [id]).sort());
    }
  });

  it('gives each page it renders with the products and counts catalogPages lists for it (what its fingerprint is made of)', () => {
    for (const [id, change] of [
      ['pk-dr-50', (p: Product) => ({ ...p, priceCentavos: (p.priceCentavos + 1000) as Product['priceCentavos'] })],
      ['pk-dr-10', (p: Product) => ({ ...p, originalPriceCentavos: (p.priceCentavos * 2) as Product['priceCentavos'] })],
      ['op-single-luffy', (p: Product) => ({ ...p, name: 'Luffy' })],
    ] as const) {
      const after = edited(id, change);
      const plan = planEdit(before, after);
      const listed = new Map(catalogPages(after).map((page) => [page.path, page]));
      expect(plan.pages.length).toBeGreaterThan(1);
      expect(plan.pages.map((page) => page.path)).toEqual(plan.render);
      for (const page of plan.pages) expect(page).toEqual(listed.get(page.path));
    }
  });

  it('a stock change renders nothing: every page reads live stock', () => {
    const plan = planEdit(
      before,
      edited('pk-dr-03', (p) => ({ ...p, stock: 0 })),
    );
    expect(plan).toEqual({ fallback: null, changed: [], render: [], pages: [], removed: [], explore: false, search: false });
  });

  it('a rename: the same pages, and the header search files as well', () => {
    const plan = planEdit(
      before,
      edited('pk-dr-50', (p) => ({ ...p, name: 'Sobre renombrado' })),
    );
    expect(plan.render.sort()).toEqual([pageHref(packsExpansion, 2), pageHref(packsType, 2), productPath('pk-dr-50')].sort());
    expect(plan).toMatchObject({ explore: true, search: true });
  });

  it("an offer edit: the single's page and its listings; the search files stay (no name or card text changed)", () => {
    const after = edited('op-single-luffy', (p) => product({ ...JSON.parse(JSON.stringify(rowOf(p))), card_offers: [offer(750)] }));
    const plan = planEdit(before, after);
    expect(plan.changed).toEqual(['op-single-luffy']);
    expect(plan.render.sort()).toEqual(
      [productPath('op-single-luffy'), typeListingPath('one-piece', 'op-single'), expansionListingPath('one-piece', 'op-05')].sort(),
    );
    expect(plan).toMatchObject({ fallback: null, explore: true, search: false });
  });

  it('a discount moves the product into the sale listing: its pages and counts are rendered again', () => {
    const plan = planEdit(
      before,
      edited('pk-dr-10', (p) => ({ ...p, originalPriceCentavos: (p.priceCentavos * 2) as Product['priceCentavos'] })),
    );
    expect(plan.render).toContain(typeListingPath('pokemon', 'sale'));
    expect(plan.render).toContain(productPath('pk-dr-10'));
  });

  it('hiding a product removes its page and renders what showed it; a listing losing its last product keeps its empty first page', () => {
    const plan = planEdit(before, { ...before, products: before.products.filter((p) => p.id !== 'op-single-luffy') });
    expect(plan.changed).toEqual(['op-single-luffy']);
    expect(plan.removed).toEqual([productPath('op-single-luffy')]);
    expect(plan.render).toContain(typeListingPath('one-piece', 'op-single'));
    expect(plan.search).toBe(true);
  });

  it('a product hidden and another shown in its place, the count the same: both are changes', () => {
    const shownPack = product({ id: 'pk-dr-new', expansion_id: 'destined-rivals', product_type_id: 'booster-pack' });
    const plan = planEdit(before, { ...before, products: [...packs, shownPack] });
    expect(plan.changed.sort()).toEqual(['op-single-luffy', 'pk-dr-new']);
    expect(plan.removed).toEqual([productPath('op-single-luffy')]);
    expect(plan.render).toContain(productPath('pk-dr-new'));
    expect(plan.search).toBe(true);
  });

  it('a new expansion falls back to a whole build (new listings and pickers)', () => {
    const newExpansion = { id: 'op-06', name: 'Wings of the Captain', franchiseId: 'one-piece' };
    expect(planEdit(before, { ...before, expansions: [...before.expansions, newExpansion] }).fallback).toBe('new-expansion');
    // A product moved into an expansion the site does not have yet, too.
    const moved = planEdit(
      before,
      edited('op-single-luffy', (p) => ({ ...p, expansion_id: 'op-06' })),
    );
    expect(moved).toMatchObject({ fallback: 'new-expansion', render: [] });
  });
});

/** A product back as the row it was parsed from (for an edit of its offers). */
function rowOf(p: Product): Record<string, unknown> {
  return {
    id: p.id,
    name: p.name,
    price: 100,
    stock: p.stock,
    franchise_id: p.franchise_id,
    expansion_id: p.expansion_id,
    product_type_id: p.product_type_id,
    card_printings: { expansion: 'OP05', collector_number: 'OP05-119', rarity: 'SEC', name_en: 'Monkey.D.Luffy', name_es: null },
  };
}
