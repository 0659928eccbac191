import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { AuthChangeEvent, Session } from '@supabase/supabase-js';

type Listener = (event: AuthChangeEvent, session: Session | null) => void;
let listener: Listener | null = null;
const getUser = vi.fn();
vi.mock('~/data/supabase.ts', () => ({
  getSupabase: () => ({
    auth: {
      onAuthStateChange: (callback: Listener) => {
        listener = callback;
        return { data: { subscription: { unsubscribe: () => undefined } } };
      },
      getUser,
    },
  }),
}));
const reloadFavorites = vi.fn(async () => undefined);
const followFavorites = vi.fn(() => () => undefined);
const { atom } = await import('nanostores');
const $favoriteIds = atom(new Set<string>(['vieja']));
vi.mock('~/stores/favorites.ts', () => ({ $favoriteIds, followFavorites, reloadFavorites, toggleFavorite: vi.fn() }));
vi.mock('~/stores/session.ts', () => ({ initSession: vi.fn() }));
vi.mock('~/stores/toast.ts', () => ({ flashToast: vi.fn(), notify: vi.fn() }));

const { startFavoriteSync } = await import('~/scripts/favorite-sync.ts');

const ANA = 'ana-0001';
const session = (userId: string, token = `token-${userId}`) => ({ access_token: token, user: { id: userId } }) as unknown as Session;
const settle = () => new Promise((resolve) => setTimeout(resolve, 5));

describe('the hearts follow the signed-in shopper', () => {
  beforeEach(() => {
    startFavoriteSync();
  });

  it('a stored session the auth server refuses, told as SIGNED_IN while supabase-js recovers it, reads nothing', async () => {
    getUser.mockResolvedValue({ data: { user: null }, error: { status: 401 } });
    listener!('SIGNED_IN', session(ANA, 'token-caducado'));
    listener!('INITIAL_SESSION', session(ANA, 'token-caducado'));
    await settle();
    expect(getUser).toHaveBeenCalled();
    expect(reloadFavorites).not.toHaveBeenCalled();
    expect([...$favoriteIds.get()]).toEqual([]);
  });

  it('a session the auth server accepts is read and followed once; a sign-out during a check is not undone by it', async () => {
    getUser.mockResolvedValue({ data: { user: { id: ANA } }, error: null });
    listener!('SIGNED_IN', session(ANA));
    await settle();
    expect(reloadFavorites).toHaveBeenCalledTimes(1);
    expect(reloadFavorites).toHaveBeenCalledWith(ANA);
    expect(followFavorites).toHaveBeenCalledTimes(1);
    listener!('TOKEN_REFRESHED', session(ANA, 'token-nuevo'));
    await settle();
    expect(reloadFavorites).toHaveBeenCalledTimes(1);

    listener!('SIGNED_OUT', null);
    await settle();
    let answer: (value: unknown) => void = () => undefined;
    getUser.mockReturnValueOnce(new Promise((resolve) => (answer = resolve)));
    listener!('SIGNED_IN', session('beto-0002'));
    await settle();
    listener!('SIGNED_OUT', null);
    await settle();
    answer({ data: { user: { id: 'beto-0002' } }, error: null });
    await settle();
    expect(reloadFavorites).toHaveBeenCalledTimes(1);
  });
});
