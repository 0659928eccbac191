import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeSupabase } from '../../support/fake-supabase.ts';

let fake = fakeSupabase();
vi.mock('~/data/supabase.ts', () => ({
  getSupabase: () => fake.client,
  supabaseUrl: () => 'http://127.0.0.1:54321',
}));

const { $session, refresh } = await import('~/stores/session.ts');
const { signOut } = await import('~/stores/auth.ts');

const profileRow = {
  id: 'u1',
  username: 'ana',
  name: 'Ana',
  lastname: 'García',
  phone: null,
  is_admin: false,
  created_at: '2026-01-01T00:00:00Z',
  stripe_customer_id: null,
};

describe('signing out while the page is still checking the stored session', () => {
  beforeEach(() => {
    fake = fakeSupabase({ profiles: [{ data: profileRow, error: null }] });
    $session.set({ user: null, profile: null, loading: true, error: null, lastEvent: null });
  });

  it('stays signed out: the check that was under way neither reads the profile nor writes the store', async () => {
    fake.auth.getSession.mockResolvedValue({ data: { session: { user: { id: 'u1' } } as never }, error: null });
    let answerGetUser!: (value: unknown) => void;
    fake.auth.getUser.mockReturnValue(new Promise((resolve) => (answerGetUser = resolve)));
    const checking = refresh();
    await vi.waitFor(() => expect(fake.auth.getUser).toHaveBeenCalled());

    await signOut();
    answerGetUser({ data: { user: { id: 'u1' } }, error: null });
    await checking;

    expect($session.get()).toMatchObject({ user: null, profile: null, loading: false, error: null });
    expect(fake.calls.filter((call) => call.table === 'profiles')).toHaveLength(0);
  });

  it('without a sign-out, the same check reads the profile', async () => {
    fake.auth.getSession.mockResolvedValue({ data: { session: { user: { id: 'u1' } } as never }, error: null });
    fake.auth.getUser.mockResolvedValue({ data: { user: { id: 'u1' } }, error: null });
    await refresh();
    expect($session.get()).toMatchObject({ user: { id: 'u1' }, profile: { username: 'ana' }, loading: false, error: null });
  });
});
