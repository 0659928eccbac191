import { beforeEach, describe, expect, it, vi } from 'vitest';
import { cachedFavoriteKeys, FAVORITES_CACHE_KEY } from '~/domain/favorite-hearts.ts';
import { $favoriteIds, showFavoriteIds } from '~/stores/favorite-ids.ts';

const USER = '8a1c0f9e-2b3d-4c5e-9f01-23456789abcd';
const stored = new Map<string, string>();

beforeEach(() => {
  stored.clear();
  $favoriteIds.set(new Set());
  vi.stubGlobal('localStorage', {
    getItem: (key: string) => stored.get(key) ?? null,
    setItem: (key: string, value: string) => void stored.set(key, value),
  });
});

describe('the hearts shown and their copy', () => {
  it("shows the favorites on every heart and keeps the shopper's copy for the next page", () => {
    showFavoriteIds(USER, new Set(['pk-etb', 'pk-pikachu#0b7f3a52-9d3e-4c8a-9a0e-4d1f2c3b4a59']));
    expect([...$favoriteIds.get()]).toEqual(['pk-etb', 'pk-pikachu#0b7f3a52-9d3e-4c8a-9a0e-4d1f2c3b4a59']);
    expect(cachedFavoriteKeys(stored.get(FAVORITES_CACHE_KEY) ?? null, USER)).toEqual(['pk-etb', 'pk-pikachu#0b7f3a52-9d3e-4c8a-9a0e-4d1f2c3b4a59']);

    showFavoriteIds(USER, new Set());
    expect($favoriteIds.get().size).toBe(0);
    expect(cachedFavoriteKeys(stored.get(FAVORITES_CACHE_KEY) ?? null, USER)).toEqual([]);
  });

  it('without storage (private mode, quota) the hearts are still shown', () => {
    vi.stubGlobal('localStorage', {
      setItem: () => {
        throw new Error('QuotaExceededError');
      },
    });
    showFavoriteIds(USER, new Set(['pk-etb']));
    expect($favoriteIds.get().has('pk-etb')).toBe(true);
  });
});
