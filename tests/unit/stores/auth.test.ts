import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeSupabase } from '../../support/fake-supabase.ts';
import { AUTH_MESSAGES, AUTH_SESSION_MESSAGES as SESSION_MESSAGES } from '~/i18n/auth.ts';

let fake = fakeSupabase();
vi.mock('~/data/supabase.ts', () => ({
  getSupabase: () => fake.client,
  supabaseUrl: () => 'http://127.0.0.1:54321',
}));

const { $session } = await import('~/stores/session.ts');
const { registerShopper, requestPasswordReset, safeNextPath, signIn, signOut } = await import('~/stores/auth.ts');

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

  it.each([null, '', 'https://ejemplo.com/robo', '//ejemplo.com', '/\\ejemplo.com', 'javascript:alert(1)', '/auth', '/auth/reset', '/ok\nLocation: x'])(
    'falls back to /account for %j',
    (next) => {
      expect(safeNextPath(next)).toBe('/account');
    },
  );
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

const form = {
  username: 'lucia',
  email: '  Lucia@Prueba.MX ',
  password: 'Segura123!',
  name: 'Lucía',
  lastname: 'Pérez',
  phone: '55 1234 5678',
};
const newUser = { id: 'u9', identities: [{ id: 'i1' }] };
// The username check: the RPC is missing (PGRST202), so the profiles read decides.
const noRpc = { data: null, error: { code: 'PGRST202', message: 'not found' } };

describe('registerShopper', () => {
  beforeEach(() => {
    vi.stubGlobal('window', { location: { origin: 'https://tienda.mx' } });
    fake = fakeSupabase({ 'rpc:username_available': [noRpc], profiles: [{ data: [], error: null }] });
  });

  it('validates before calling the server', async () => {
    const result = await registerShopper({ ...form, lastname: '' });
    expect(result).toMatchObject({ status: 'invalid', message: 'Completa todos los campos.' });
    expect(fake.auth.signUp).not.toHaveBeenCalled();
  });

  it('refuses a taken username (answer of username_available)', async () => {
    fake = fakeSupabase({ 'rpc:username_available': [{ data: false, error: null }] });
    const result = await registerShopper(form);
    expect(result).toMatchObject({ status: 'invalid', message: 'Ese nombre de usuario ya está en uso.' });
    expect(fake.auth.signUp).not.toHaveBeenCalled();
  });

  it('refuses a taken username found in profiles when there is no RPC', async () => {
    fake = fakeSupabase({ 'rpc:username_available': [noRpc], profiles: [{ data: [{ id: 'x', username: 'Lucia' }], error: null }] });
    expect(await registerShopper(form)).toMatchObject({ status: 'invalid', message: 'Ese nombre de usuario ya está en uso.' });
  });

  it('signs up with the metadata the trigger reads, never an admin flag, and the confirmation redirect', async () => {
    fake.auth.signUp.mockResolvedValue({ data: { user: newUser, session: null }, error: null });
    expect(await registerShopper(form, '/checkout/summary')).toEqual({ status: 'confirm' });
    expect(fake.auth.signUp).toHaveBeenCalledWith({
      email: 'lucia@prueba.mx',
      password: 'Segura123!',
      options: {
        data: { username: 'lucia', name: 'Lucía', lastname: 'Pérez', phone: '55 1234 5678' },
        emailRedirectTo: 'https://tienda.mx/checkout/summary',
      },
    });
  });

  it('detects an e-mail already registered, as an error or as a user without identities', async () => {
    fake.auth.signUp.mockResolvedValueOnce({ data: { user: null, session: null }, error: { message: 'User already registered', code: 'user_already_exists' } });
    expect(await registerShopper(form)).toEqual({ status: 'error', message: AUTH_MESSAGES.emailTaken });
    fake.auth.signUp.mockResolvedValueOnce({ data: { user: { id: 'fake', identities: [] }, session: null }, error: null });
    expect(await registerShopper(form)).toEqual({ status: 'error', message: 'Ese correo ya está registrado.' });
  });

  it('reports other failures with the specification texts', async () => {
    fake.auth.signUp.mockResolvedValueOnce({ data: { user: null, session: null }, error: { message: 'Signups not allowed' } });
    expect(await registerShopper(form)).toEqual({ status: 'error', message: 'No se pudo registrar.' });
    fake.auth.signUp.mockRejectedValueOnce(new Error('sin red'));
    expect(await registerShopper(form)).toEqual({ status: 'error', message: 'No se pudo registrar.' });
    fake.auth.signUp.mockResolvedValueOnce({ data: { user: null, session: null }, error: null });
    expect(await registerShopper(form)).toEqual({ status: 'error', message: 'No se obtuvo el usuario tras el registro.' });
  });

  it('with a session back: signed in, creating the profile when the trigger did not', async () => {
    fake = fakeSupabase({
      'rpc:username_available': [{ data: true, error: null }],
      profiles: [
        { data: null, error: null },
        { data: null, error: null },
      ],
    });
    fake.auth.signUp.mockResolvedValue({ data: { user: newUser, session: { access_token: 't' } }, error: null });
    expect(await registerShopper(form)).toEqual({ status: 'signed-in' });
    const insert = fake.calls.find((c) => c.table === 'profiles' && c.steps.some((s) => s.method === 'insert'));
    expect(insert?.steps.find((s) => s.method === 'insert')?.args[0]).toMatchObject({ id: 'u9', username: 'lucia', is_admin: false });
  });

  it('says the profile could not be saved when creating it fails', async () => {
    fake = fakeSupabase({
      'rpc:username_available': [{ data: true, error: null }],
      profiles: [
        { data: null, error: null },
        { data: null, error: { message: 'denied' } },
      ],
    });
    fake.auth.signUp.mockResolvedValue({ data: { user: newUser, session: { access_token: 't' } }, error: null });
    expect(await registerShopper(form)).toEqual({ status: 'error', message: 'Error al guardar el perfil.' });
  });
});

describe('requestPasswordReset', () => {
  beforeEach(() => {
    vi.stubGlobal('window', { location: { origin: 'https://tienda.mx' } });
    fake = fakeSupabase({ 'rpc:username_available': [noRpc], profiles: [{ data: [], error: null }] });
  });

  it('needs a valid e-mail and sends the link to /auth/reset', async () => {
    expect(await requestPasswordReset('nope')).toEqual({ ok: false, message: 'Escribe tu correo para enviarte el enlace de recuperación.' });
    expect(fake.auth.resetPasswordForEmail).not.toHaveBeenCalled();
    expect((await requestPasswordReset(' Ana@Demo.mx ')).ok).toBe(true);
    expect(fake.auth.resetPasswordForEmail).toHaveBeenCalledWith('ana@demo.mx', { redirectTo: 'https://tienda.mx/auth/reset' });
  });

  it('reports a failure to send', async () => {
    fake.auth.resetPasswordForEmail.mockResolvedValueOnce({ data: null, error: { message: 'rate limit' } } as never);
    expect(await requestPasswordReset('ana@demo.mx')).toEqual({ ok: false, message: 'No se pudo enviar el enlace de recuperación.' });
  });
});
