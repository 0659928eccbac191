import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { User } from '@supabase/supabase-js';
import { fakeSupabase, type Result } from '../../support/fake-supabase.ts';

let fake = fakeSupabase();
vi.mock('~/data/supabase.ts', () => ({ getSupabase: () => fake.client, supabaseUrl: () => 'http://127.0.0.1:54321' }));

const store = await import('~/stores/favorites.ts');
const { $session } = await import('~/stores/session.ts');

const USER = { id: '8a1c0f9e-2b3d-4c5e-9f01-23456789abcd' } as User;
const row = (productId: string, over: Record<string, unknown> = {}) => ({
  id: `fav-${productId}`,
  product_id: productId,
  created_at: '2026-11-29T12:00:00Z',
  products: { id: productId, name: `Producto ${productId}`, image: 'products/a.webp', price: '129.90', original_price: null, stock: 4, available: true },
  ...over,
});

const storage = new Map<string, string>();
vi.stubGlobal('sessionStorage', {
  getItem: (key: string) => storage.get(key) ?? null,
  setItem: (key: string, value: string) => void storage.set(key, value),
  removeItem: (key: string) => void storage.delete(key),
});

function signedIn(user: User | null, loading = false) {
  $session.set({ user, profile: null, loading, error: null, lastEvent: null });
}

function useTables(results: Record<string, Result[]>) {
  fake = fakeSupabase(results);
}

beforeEach(() => {
  storage.clear();
  store.$favoriteIds.set(new Set());
  store.$favorites.set({ loading: true, failed: false, value: null });
  useTables({});
});

describe('favorites store', () => {
  it('reads the favorites with their live price and stock, and which products carry a heart', async () => {
    useTables({ favorites: [{ data: [row('a'), row('b', { products: { id: 'b', name: 'B', image: '', price: 'x' } })], error: null }] });
    await store.reloadFavorites(USER.id);
    const list = store.$favorites.get().value!;
    expect(list.map((favorite) => [favorite.productId, favorite.live?.priceCentavos ?? null, favorite.live?.stock ?? null])).toEqual([
      ['a', 12990, 4],
      ['b', null, null],
    ]);
    expect([...store.$favoriteIds.get()]).toEqual(['a', 'b']);
    const steps = fake.calls[0]!.steps.map((step) => step.method);
    expect(steps).toEqual(['select', 'eq', 'is', 'order']);
  });

  it('a failed read keeps what was shown and says it failed', async () => {
    useTables({ favorites: [{ data: [row('a')], error: null }] });
    await store.reloadFavorites(USER.id);
    useTables({ favorites: [{ data: null, error: { message: 'caída' } }] });
    await store.reloadFavorites(USER.id);
    expect(store.$favorites.get()).toMatchObject({ loading: false, failed: true });
    expect(store.$favorites.get().value!.map((favorite) => favorite.productId)).toEqual(['a']);
  });

  it('signed out, a heart asks to sign in and is saved once the shopper has', async () => {
    signedIn(null);
    expect(await store.toggleFavorite('pk-etb')).toBe('sign-in');
    expect(fake.calls).toEqual([]);
    expect(storage.get(store.FAVORITE_INTENT_KEY)).toBe('pk-etb');

    signedIn(USER);
    expect(await store.applyFavoriteIntent(USER.id)).toBe(true);
    expect(fake.calls.map((call) => [call.table, call.steps[0]?.method, call.steps[0]?.args[0]])).toEqual([['favorites', 'insert', { product_id: 'pk-etb' }]]);
    expect(store.$favoriteIds.get().has('pk-etb')).toBe(true);
    // Once: the intent is gone.
    expect(await store.applyFavoriteIntent(USER.id)).toBe(false);
    expect(fake.calls).toHaveLength(1);
  });

  it('a heart tapped while the session still loads waits for it instead of asking to sign in', async () => {
    signedIn(null, true);
    const outcome = store.toggleFavorite('pk-etb');
    signedIn(USER);
    expect(await outcome).toBe('added');
    expect(storage.size).toBe(0);
  });

  it('tapping twice adds then removes; adding what is already there is no error', async () => {
    signedIn(USER);
    useTables({ favorites: [{ data: null, error: { code: '23505', message: 'duplicate key' } }] });
    expect(await store.toggleFavorite('pk-etb')).toBe('added');
    expect(store.$favoriteIds.get().has('pk-etb')).toBe(true);
    useTables({ favorites: [{ data: null, error: null }] });
    expect(await store.toggleFavorite('pk-etb')).toBe('removed');
    expect(store.$favoriteIds.get().has('pk-etb')).toBe(false);
    expect(fake.calls[0]!.steps.map((step) => [step.method, step.args[0]])).toEqual([
      ['delete', undefined],
      ['eq', 'user_id'],
      ['eq', 'product_id'],
      ['is', 'offer_id'],
    ]);
  });

  it('a failed save puts the heart back as it was', async () => {
    signedIn(USER);
    useTables({ favorites: [{ data: null, error: { code: '42501', message: 'permission denied' } }] });
    expect(await store.toggleFavorite('pk-etb')).toBe('failed');
    expect(store.$favoriteIds.get().has('pk-etb')).toBe(false);
  });
});
