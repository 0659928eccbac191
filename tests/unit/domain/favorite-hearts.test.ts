import { describe, expect, it } from 'vitest';
import { cachedFavoriteKeys, favoriteKey, favoritesBadge, favoritesCacheValue, heartTarget, storedSessionUserId } from '~/domain/favorite-hearts.ts';

const USER = '8a1c0f9e-2b3d-4c5e-9f01-23456789abcd';
const OTHER = '11111111-2222-4333-8444-555555555555';
const OFFER = '0b7f3a52-9d3e-4c8a-9a0e-4d1f2c3b4a59';

describe('hearts: what a heart keeps', () => {
  it('a product is keyed by its id, one offer of a single by product and offer', () => {
    expect(favoriteKey('pk-etb')).toBe('pk-etb');
    expect(favoriteKey('pk-etb', null)).toBe('pk-etb');
    expect(favoriteKey('pk-pikachu', OFFER)).toBe(`pk-pikachu#${OFFER}`);
    expect(favoriteKey('pk-pikachu', OFFER)).not.toBe(favoriteKey('pk-pikachu'));
  });

  it("reads a heart button's product and offer, and refuses a button without a product", () => {
    expect(heartTarget({ favoriteProduct: 'pk-etb' })).toEqual({ productId: 'pk-etb', offerId: null });
    expect(heartTarget({ favoriteProduct: ' pk-pikachu ', favoriteOffer: OFFER })).toEqual({ productId: 'pk-pikachu', offerId: OFFER });
    expect(heartTarget({ favoriteProduct: 'pk-etb', favoriteOffer: '' })).toEqual({ productId: 'pk-etb', offerId: null });
    expect(heartTarget({ favoriteProduct: '  ' })).toBeNull();
    expect(heartTarget({ favoriteOffer: OFFER })).toBeNull();
  });
});

describe("hearts: the browser's copy of the favorites", () => {
  it("round-trips the signed-in shopper's favorites", () => {
    const raw = favoritesCacheValue(USER, new Set(['pk-etb', `pk-pikachu#${OFFER}`]));
    expect(cachedFavoriteKeys(raw, USER)).toEqual(['pk-etb', `pk-pikachu#${OFFER}`]);
  });

  it("never shows another shopper's hearts, nor any when nobody is signed in", () => {
    const raw = favoritesCacheValue(USER, ['pk-etb']);
    expect(cachedFavoriteKeys(raw, OTHER)).toBeNull();
    expect(cachedFavoriteKeys(raw, null)).toBeNull();
  });

  it('ignores a missing or damaged copy and anything in it that is not a key', () => {
    expect(cachedFavoriteKeys(null, USER)).toBeNull();
    expect(cachedFavoriteKeys('{not json', USER)).toBeNull();
    expect(cachedFavoriteKeys('null', USER)).toBeNull();
    expect(cachedFavoriteKeys(JSON.stringify({ userId: USER, keys: 'pk-etb' }), USER)).toBeNull();
    expect(cachedFavoriteKeys(JSON.stringify({ userId: USER, keys: ['pk-etb', 3, '', null] }), USER)).toEqual(['pk-etb']);
  });
});

describe('hearts: who is signed in, from the stored session', () => {
  const session = (id: unknown) => JSON.stringify({ access_token: 'a.b.c', refresh_token: 'r', expires_at: 1, user: { id, email: 'x@example.com' } });

  it("reads the user of supabase-js's stored session", () => {
    expect(
      storedSessionUserId([
        ['cart', '[]'],
        ['sb-127-auth-token', session(USER)],
      ]),
    ).toBe(USER);
    expect(storedSessionUserId([['sb-abcdefghijkl-auth-token', session(OTHER)]])).toBe(OTHER);
  });

  it('is nobody without a session, or with one that is not readable', () => {
    expect(storedSessionUserId([])).toBeNull();
    expect(storedSessionUserId([['favorites', favoritesCacheValue(USER, [])]])).toBeNull();
    expect(storedSessionUserId([['sb-127-auth-token', null]])).toBeNull();
    expect(storedSessionUserId([['sb-127-auth-token', '{broken']])).toBeNull();
    expect(storedSessionUserId([['sb-127-auth-token', session(42)]])).toBeNull();
    expect(storedSessionUserId([['sb-127-auth-token-code-verifier', JSON.stringify('v')]])).toBeNull();
  });
});

describe("hearts: the header's count", () => {
  it('is hidden at 0 and caps at 99+', () => {
    expect(favoritesBadge(0)).toBe('');
    expect(favoritesBadge(-1)).toBe('');
    expect(favoritesBadge(3)).toBe('3');
    expect(favoritesBadge(99)).toBe('99');
    expect(favoritesBadge(100)).toBe('99+');
  });
});
