import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeSupabase } from './fake-supabase.ts';

let fake = fakeSupabase();
vi.mock('../../../src/data/supabase.ts', () => ({
  getSupabase: () => fake.client,
  supabaseUrl: () => 'http://127.0.0.1:54321',
}));

const { $session, refresh, SESSION_MESSAGES } = await import('../../../src/stores/session.ts');
const { safeNextPath, signIn, signOut } = await import('../../../src/stores/auth.ts');

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

describe('safeNextPath', () => {
  it.each([
    ['/checkout/summary', '/checkout/summary'],
    ['/product/pk-1?x=1#top', '/product/pk-1?x=1#top'],
    [' /account ', '/account'],
  ])('keeps the same-site path %s', (next, expected) => {
    expect(safeNextPath(next)).toBe(expected);
  });

  it.each([
    null,
    '',
    'https://ejemplo.com/robo',
    '//ejemplo.com',
    '/\\ejemplo.com',
    'javascript:alert(1)',
    '/auth',
    '/auth/reset',
    '/ok\nLocation: x',
  ])('falls back to /account for %j', (next) => {
    expect(safeNextPath(next)).toBe('/account');
  });
});

describe('signIn', () => {
  beforeEach(() => {
    fake = fakeSupabase();
    $session.set({ user: null, profile: null, loading: true, error: null, lastEvent: null });
  });

  it('asks for both fields without calling the server', async () => {
    expect(await signIn('  ', 'x')).toEqual({ ok: false, message: 'Ingresa correo y contraseña.' });
    expect(await signIn('a@b.mx', '')).toEqual({ ok: false, message: 'Ingresa correo y contraseña.' });
    expect(fake.auth.signInWithPassword).not.toHaveBeenCalled();
  });

  it('trims and lower-cases the e-mail and reports any auth error as bad credentials', async () => {
    fake.auth.signInWithPassword.mockResolvedValue({ data: { user: null, session: null }, error: { message: 'Email not confirmed' } });
    expect(await signIn('  Ana@Demo.MX ', 'Secreta123!')).toEqual({ ok: false, message: SESSION_MESSAGES.badCredentials });
    expect(fake.auth.signInWithPassword).toHaveBeenCalledWith({ email: 'ana@demo.mx', password: 'Secreta123!' });
  });

  it('fails without a user, and when the request throws', async () => {
    fake.auth.signInWithPassword.mockResolvedValueOnce({ data: { user: null, session: null }, error: null });
    expect(await signIn('a@b.mx', 'x')).toEqual({ ok: false, message: 'No se pudo iniciar sesión.' });
    fake.auth.signInWithPassword.mockRejectedValueOnce(new Error('red caída'));
    expect(await signIn('a@b.mx', 'x')).toEqual({ ok: false, message: 'No se pudo iniciar sesión.' });
  });

  it('signs out again when the profile is missing', async () => {
    fake = fakeSupabase({ profiles: [{ data: null, error: null }] });
    fake.auth.signInWithPassword.mockResolvedValue({ data: { user: { id: 'u1' }, session: {} }, error: null });
    expect(await signIn('a@b.mx', 'x')).toEqual({ ok: false, message: 'No se encontró el perfil de usuario.' });
    expect(fake.auth.signOut).toHaveBeenCalled();
    expect($session.get().user).toBeNull();
  });

  it('stores the user and profile; only the profile column makes an admin', async () => {
    fake = fakeSupabase({ profiles: [{ data: profileRow, error: null }] });
    const user = { id: 'u1', email: 'a@b.mx', user_metadata: { isAdmin: true, is_admin: true } };
    fake.auth.signInWithPassword.mockResolvedValue({ data: { user, session: {} }, error: null });
    const result = await signIn('a@b.mx', 'x');
    expect(result.ok).toBe(true);
    expect($session.get()).toMatchObject({ user, loading: false, error: null, profile: { username: 'ana', isAdmin: false } });

    fake = fakeSupabase({ profiles: [{ data: { ...profileRow, is_admin: true }, error: null }] });
    fake.auth.signInWithPassword.mockResolvedValue({ data: { user, session: {} }, error: null });
    await signIn('a@b.mx', 'x');
    expect($session.get().profile?.isAdmin).toBe(true);
  });

  it('signOut clears the store even when the server call fails', async () => {
    $session.set({ user: { id: 'u1' } as never, profile: null, loading: false, error: null, lastEvent: null });
    fake.auth.signOut.mockRejectedValueOnce(new Error('sin red'));
    await expect(signOut()).resolves.toBeUndefined();
    expect($session.get().user).toBeNull();
  });
});

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
