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

const OFFER = '0b7f3a52-9d3e-4c8a-9a0e-4d1f2c3b4a59';
const offerRow = (over: Record<string, unknown> = {}) =>
  row('pk-pikachu', {
    id: 'fav-offer',
    offer_id: OFFER,
    card_offers: {
      id: OFFER,
      condition: 'NM',
      language: 'es',
      finish: 'normal',
      grading_company: null,
      grade: null,
      price: '89.50',
      original_price: null,
      stock: 2,
    },
    ...over,
  });

function fakeStorage() {
  const map = new Map<string, string>();
  return {
    map,
    api: {
      getItem: (key: string) => map.get(key) ?? null,
      setItem: (key: string, value: string) => void map.set(key, value),
      removeItem: (key: string) => void map.delete(key),
    },
  };
}
const session = fakeStorage();
const storage = session.map;
vi.stubGlobal('sessionStorage', session.api);
const local = fakeStorage();
vi.stubGlobal('localStorage', local.api);

function signedIn(user: User | null, loading = false) {
  $session.set({ user, profile: null, loading, error: null, lastEvent: null });
}

const TOKEN = 'token-of-the-shopper';

/** A fresh client answering `results`, its browser signed in as USER unless told otherwise. */
function useTables(results: Record<string, Result[]>, browserUser: User | null = USER) {
  fake = fakeSupabase(results);
  fake.auth.getSession.mockResolvedValue({
    data: { session: browserUser ? { user: browserUser, access_token: TOKEN } : null },
    error: null,
  } as never);
}

beforeEach(() => {
  storage.clear();
  local.map.clear();
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
    expect(steps).toEqual(['select', 'eq', 'order', 'setHeader']);
    // The read is sent as the shopper it is for, whatever the session is by the time it leaves.
    expect(fake.calls[0]!.steps[3]!.args).toEqual(['Authorization', `Bearer ${TOKEN}`]);
  });

  it('reads nothing once the browser is no longer signed in as that shopper, and leaves what is shown', async () => {
    useTables({ favorites: [{ data: [row('a')], error: null }] });
    await store.reloadFavorites(USER.id);
    for (const browserUser of [null, { id: 'otro-comprador' } as User]) {
      useTables({ favorites: [{ data: [], error: null }] }, browserUser);
      await store.reloadFavorites(USER.id);
      expect(fake.calls).toEqual([]);
      expect(store.$favorites.get()).toMatchObject({ loading: false, failed: false });
      expect(store.$favorites.get().value!.map((favorite) => favorite.productId)).toEqual(['a']);
    }
  });

  it("reads an offer's favorite with the offer's label, price and stock, keyed apart from the product, and keeps a copy for the next page", async () => {
    useTables({ favorites: [{ data: [offerRow(), row('pk-etb'), offerRow({ id: 'fav-gone', card_offers: null })], error: null }] });
    await store.reloadFavorites(USER.id);
    const [offer, product, gone] = store.$favorites.get().value!;
    expect(offer).toMatchObject({
      productId: 'pk-pikachu',
      offerId: OFFER,
      offer: { id: OFFER, label: 'NM · Español · Normal', priceCentavos: 8950, stock: 2 },
    });
    expect(product).toMatchObject({ productId: 'pk-etb', offerId: null, offer: null });
    // An offer that is gone stays listed (to remove it), without a price of its own.
    expect(gone).toMatchObject({ offerId: OFFER, offer: null });
    expect([...store.$favoriteIds.get()]).toEqual([`pk-pikachu#${OFFER}`, 'pk-etb']);
    expect(JSON.parse(local.map.get('favorites')!)).toEqual({ userId: USER.id, keys: [`pk-pikachu#${OFFER}`, 'pk-etb'] });
  });

  it("an offer's heart saves and removes that offer only", async () => {
    signedIn(USER);
    useTables({ favorites: [{ data: null, error: null }] });
    expect(await store.toggleFavorite('pk-pikachu', OFFER)).toBe('added');
    expect(store.$favoriteIds.get().has(`pk-pikachu#${OFFER}`)).toBe(true);
    expect(store.$favoriteIds.get().has('pk-pikachu')).toBe(false);
    expect(fake.calls[0]!.steps[0]).toEqual({ method: 'insert', args: [{ product_id: 'pk-pikachu', offer_id: OFFER }] });
    expect(await store.toggleFavorite('pk-pikachu', OFFER)).toBe('removed');
    expect(fake.calls[1]!.steps.map((step) => [step.method, ...step.args])).toEqual([
      ['delete'],
      ['eq', 'user_id', USER.id],
      ['eq', 'product_id', 'pk-pikachu'],
      ['eq', 'offer_id', OFFER],
    ]);
    expect(JSON.parse(local.map.get('favorites')!)).toEqual({ userId: USER.id, keys: [] });
  });

  it("signed out, an offer's heart is kept and saved as that offer after signing in", async () => {
    signedIn(null);
    expect(await store.toggleFavorite('pk-pikachu', OFFER)).toBe('sign-in');
    signedIn(USER);
    expect(await store.applyFavoriteIntent(USER.id)).toBe(true);
    expect(fake.calls.map((call) => call.steps[0]?.args[0])).toEqual([{ product_id: 'pk-pikachu', offer_id: OFFER }]);
    expect(store.$favoriteIds.get().has(`pk-pikachu#${OFFER}`)).toBe(true);
  });

  it("follows another device's removals: one of the shopper's favorites removed reads them again, anyone else's does not", async () => {
    useTables({
      favorites: [
        { data: [row('a')], error: null },
        { data: [], error: null },
      ],
    });
    const removals: Array<(payload: { old: Record<string, unknown> }) => void> = [];
    const channel = {
      on: (_type: string, filter: { event: string }, handler: (payload: { old: Record<string, unknown> }) => void) => {
        if (filter.event === 'DELETE') removals.push(handler);
        return channel;
      },
      subscribe: () => channel,
    };
    const removeChannel = vi.fn(async () => 'ok');
    Object.assign(fake.client, { channel: () => channel, removeChannel });
    await store.reloadFavorites(USER.id);
    const stop = store.followFavorites(USER.id);
    expect(removals).toHaveLength(1);

    removals[0]!({ old: { id: 'fav-of-someone-else' } });
    await Promise.resolve();
    expect(fake.calls).toHaveLength(1);
    removals[0]!({ old: { id: 'fav-a' } });
    await vi.waitFor(() => expect(store.$favorites.get().value).toEqual([]));
    expect(fake.calls).toHaveLength(2);
    expect(store.$favoriteIds.get().size).toBe(0);

    stop();
    expect(removeChannel).toHaveBeenCalledTimes(2);
  });

  it('a damaged intent saves nothing', async () => {
    storage.set(store.FAVORITE_INTENT_KEY, '{"productId":');
    expect(await store.applyFavoriteIntent(USER.id)).toBe(false);
    expect(fake.calls).toEqual([]);
    expect(storage.size).toBe(0);
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
