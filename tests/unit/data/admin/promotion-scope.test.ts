/**
 * What the promotion form's scope is picked from: the catalogue's names read as lists, the product
 * search bounded (a name / id filter and a limit, never the whole catalogue) and the names of the
 * products a promotion names.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeSupabase } from '../../../support/fake-supabase.ts';

let fake = fakeSupabase();
vi.mock('astro:env/client', () => ({ PUBLIC_SUPABASE_URL: undefined, PUBLIC_SUPABASE_ANON_KEY: undefined }));
vi.mock('~/data/supabase.ts', () => ({
  getSupabase: () => fake.client,
  supabaseUrl: () => 'http://127.0.0.1:54321',
}));

const { loadScopeOptions, searchScopeProducts, loadScopeProducts } = await import('~/data/admin/promotion-scope.ts');

const stepsOf = (table: string) => fake.calls.find((c) => c.table === table)?.steps ?? [];

beforeEach(() => {
  fake = fakeSupabase();
});

describe('loadScopeOptions', () => {
  it('reads franchises, product types and expansions with their names and franchise', async () => {
    fake = fakeSupabase({
      franchises: [{ data: [{ id: 'pokemon', name: 'Pokémon' }], error: null }],
      product_types: [{ data: [{ id: 'booster-box', name: 'Caja de sobres', franchise_id: 'pokemon' }], error: null }],
      expansions: [{ data: [{ id: 'journey-together', name: 'Journey Together', franchise_id: 'pokemon' }], error: null }],
    });
    expect(await loadScopeOptions()).toEqual({
      franchises: [{ id: 'pokemon', name: 'Pokémon', franchiseId: '' }],
      productTypes: [{ id: 'booster-box', name: 'Caja de sobres', franchiseId: 'pokemon' }],
      expansions: [{ id: 'journey-together', name: 'Journey Together', franchiseId: 'pokemon' }],
    });
    expect(stepsOf('expansions')).toContainEqual({ method: 'order', args: ['name'] });
  });

  it('answers null when any list cannot be read', async () => {
    fake = fakeSupabase({ expansions: [{ data: null, error: { message: 'Failed to fetch' } }] });
    expect(await loadScopeOptions()).toBeNull();
  });
});

describe('searchScopeProducts', () => {
  it('asks for at most 10 products whose name or id holds the text', async () => {
    fake = fakeSupabase({ products: [{ data: [{ id: 'op-single-op05-119', name: 'Monkey.D.Luffy (OP05-119)' }], error: null }] });
    expect(await searchScopeProducts(' OP05/119 ')).toEqual([{ id: 'op-single-op05-119', name: 'Monkey.D.Luffy (OP05-119)' }]);
    const steps = stepsOf('products');
    expect(steps).toContainEqual({ method: 'limit', args: [10] });
    const or = steps.find((s) => s.method === 'or')!.args[0] as string;
    expect(or).toContain('name.ilike.*OP05/119*');
    expect(or).toContain('name.ilike.*OP05*119*');
  });

  it('asks nothing for an empty text, and answers null on failure', async () => {
    expect(await searchScopeProducts('  ')).toEqual([]);
    expect(fake.calls).toHaveLength(0);
    fake = fakeSupabase({ products: [{ data: null, error: { message: 'Failed to fetch' } }] });
    expect(await searchScopeProducts('luffy')).toBeNull();
  });
});

describe('loadScopeProducts', () => {
  it('reads the names of the given products only', async () => {
    fake = fakeSupabase({ products: [{ data: [{ id: 'pk-box', name: 'Caja' }], error: null }] });
    expect(await loadScopeProducts(['pk-box'])).toEqual([{ id: 'pk-box', name: 'Caja' }]);
    expect(stepsOf('products')).toContainEqual({ method: 'in', args: ['id', ['pk-box']] });
    expect(await loadScopeProducts([])).toEqual([]);
  });
});
