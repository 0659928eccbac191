/**
 * The catalogue snapshot's rows as the build reads them: products parsed or refused by id, the
 * database's catalogue merged with the static one, and a stored copy read back.
 */
import { describe, expect, it } from 'vitest';
import { expansions as staticExpansions, franchises as staticFranchises } from '~/domain/catalog.ts';
import { mergeSnapshot, mergeSnapshotInSteps, parseProductRows, parseStoredSnapshot, staticSnapshot, type CatalogRows } from '~/server/snapshot/model.ts';
import { stepped } from '../../../support/steps.ts';

const goodRow = {
  id: 'pk-etb-test',
  name: 'Elite Trainer Box Prueba',
  price: '1299.50',
  original_price: '1499.00',
  discount: true,
  preorder: false,
  stock: 4,
  image: 'products/pk-etb-test-1.svg',
  images: ['products/pk-etb-test-1.svg'],
  franchise_id: 'pokemon',
  expansion_id: 'destined-rivals',
  product_type_id: 'elite-trainer-box',
  type: 'newArrivals',
  description: 'Caja de prueba',
};

function rows(partial: Partial<CatalogRows>): CatalogRows {
  return { franchises: [], collections: [], expansions: [], productTypes: [], products: [], ...partial };
}

describe('product rows', () => {
  it('turns numeric strings into centavos and keeps the flags', () => {
    const { products, rejected } = parseProductRows([goodRow]);
    expect(rejected).toEqual([]);
    expect(products).toHaveLength(1);
    expect(products[0]).toMatchObject({ id: 'pk-etb-test', priceCentavos: 129950, originalPriceCentavos: 149900, discount: true, stock: 4 });
  });

  it('leaves out bad rows and names them by id', () => {
    const { products, rejected } = parseProductRows([
      goodRow,
      { ...goodRow, id: 'sin-precio', price: 'gratis' },
      { ...goodRow, id: 'precio-negativo', price: -5 },
      { name: 'sin id', price: 10 },
      { ...goodRow, id: 'stock-raro', stock: 'muchos' },
      { ...goodRow }, // repeated id
    ]);
    expect(products.map((p) => p.id)).toEqual(['pk-etb-test']);
    expect(rejected.map((r) => r.id)).toEqual(['sin-precio', 'precio-negativo', '(sin id)', 'stock-raro', 'pk-etb-test']);
    expect(rejected.every((r) => r.table === 'products' && r.reason.length > 0)).toBe(true);
  });
});

describe('merge with the static catalogue', () => {
  it('without rows it is the static catalogue and no products', () => {
    const snapshot = staticSnapshot();
    expect(snapshot.franchises.map((f) => f.id)).toEqual(staticFranchises.map((f) => f.id));
    expect(snapshot.expansions).toHaveLength(staticExpansions.length);
    expect(snapshot.products).toEqual([]);
    expect(snapshot.fetchedAt).toBeNull();
  });

  it('database names win, static values fill the blanks, and database-only rows are added', () => {
    const { snapshot, rejected } = mergeSnapshot(
      rows({
        franchises: [
          { id: 'pokemon', name: 'Pokémon TCG', logo: null },
          { id: 'lorcana', name: 'Lorcana', logo: 'franchises/lorcana.svg' },
        ],
        expansions: [{ id: 'destined-rivals', name: '', franchise_id: 'pokemon', collection_id: null, image: '', release_date: null }],
        productTypes: [{ id: 'nuevo-tipo', name: 'Tipo nuevo', franchise_id: 'pokemon', image: null }],
        products: [goodRow],
      }),
      '2026-01-01T00:00:00.000Z',
    );
    expect(rejected).toEqual([]);
    const pokemon = snapshot.franchises.find((f) => f.id === 'pokemon');
    expect(pokemon).toEqual({ id: 'pokemon', name: 'Pokémon TCG', logo: '/images/franchises/pokemon.svg' });
    expect(snapshot.franchises.at(-1)).toEqual({ id: 'lorcana', name: 'Lorcana', logo: 'franchises/lorcana.svg' });
    const rivals = snapshot.expansions.find((e) => e.id === 'destined-rivals');
    expect(rivals).toMatchObject({
      name: 'Destined Rivals',
      image: 'expansions/destined-rivals.svg',
      collectionId: 'scarlet-violet',
      releaseDate: '2025-05-30',
    });
    expect(snapshot.productTypes.some((t) => t.id === 'nuevo-tipo' && t.name === 'Tipo nuevo')).toBe(true);
    expect(snapshot.products).toHaveLength(1);
    expect(snapshot.fetchedAt).toBe('2026-01-01T00:00:00.000Z');
  });

  it('reports bad catalogue rows and keeps the static entry', () => {
    const { snapshot, rejected } = mergeSnapshot(rows({ expansions: [{ id: 'journey-together', name: 'X' }] }), null);
    expect(rejected).toEqual([expect.objectContaining({ table: 'expansions', id: 'journey-together' })]);
    expect(snapshot.expansions.find((e) => e.id === 'journey-together')?.name).toBe('Journey Together');
  });

  it('in steps, pauses between slices of the products and merges the same, bad and repeated rows refused alike', () => {
    const products = Array.from({ length: 1600 }, (_, k) => (k === 700 ? { id: 'roto' } : { ...goodRow, id: `pk-etb-${k % 1500}`, name: `Caja ${k}` }));
    const { pauses, value } = stepped(mergeSnapshotInSteps(rows({ products }), '2026-01-01T00:00:00.000Z'));
    expect(value).toEqual(mergeSnapshot(rows({ products }), '2026-01-01T00:00:00.000Z'));
    expect(value.snapshot.products).toHaveLength(1499);
    expect(value.rejected).toHaveLength(101);
    expect(pauses).toBeGreaterThanOrEqual(3);
  });

  it('refuses a stored file that is not a snapshot', () => {
    expect(parseStoredSnapshot(null)).toBeNull();
    expect(parseStoredSnapshot({ rows: 'x' })).toBeNull();
  });
});

describe('a stored snapshot', () => {
  it('reads back the rows it was saved with, and keeps only the products asked for', () => {
    const stored = { fetchedAt: '2026-02-02T00:00:00.000Z', rows: rows({ products: [goodRow, { ...goodRow, id: 'otro' }, { id: 'malo' }] }) };
    const all = parseStoredSnapshot(JSON.parse(JSON.stringify(stored)));
    expect(all?.snapshot.products.map((p) => p.id)).toEqual(['pk-etb-test', 'otro']);
    expect(all?.snapshot.fetchedAt).toBe('2026-02-02T00:00:00.000Z');
    expect(all?.rejected.map((r) => r.id)).toEqual(['malo']);
    const some = parseStoredSnapshot(stored, (id) => id === 'otro');
    expect(some?.snapshot.products.map((p) => p.id)).toEqual(['otro']);
  });
});
