import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeSupabase } from './fake-supabase.ts';

let fake = fakeSupabase();
vi.mock('../../../src/data/supabase.ts', () => ({
  getSupabase: () => fake.client,
  supabaseUrl: () => 'http://127.0.0.1:54321',
}));

const { registerShopper, requestPasswordReset, AUTH_MESSAGES } = await import('../../../src/stores/auth.ts');

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

beforeEach(() => {
  vi.stubGlobal('window', { location: { origin: 'https://tienda.mx' } });
  fake = fakeSupabase({ 'rpc:username_available': [noRpc], profiles: [{ data: [], error: null }] });
});

describe('registerShopper', () => {
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
      profiles: [{ data: null, error: null }, { data: null, error: null }],
    });
    fake.auth.signUp.mockResolvedValue({ data: { user: newUser, session: { access_token: 't' } }, error: null });
    expect(await registerShopper(form)).toEqual({ status: 'signed-in' });
    const insert = fake.calls.find((c) => c.table === 'profiles' && c.steps.some((s) => s.method === 'insert'));
    expect(insert?.steps.find((s) => s.method === 'insert')?.args[0]).toMatchObject({ id: 'u9', username: 'lucia', is_admin: false });
  });

  it('says the profile could not be saved when creating it fails', async () => {
    fake = fakeSupabase({
      'rpc:username_available': [{ data: true, error: null }],
      profiles: [{ data: null, error: null }, { data: null, error: { message: 'denied' } }],
    });
    fake.auth.signUp.mockResolvedValue({ data: { user: newUser, session: { access_token: 't' } }, error: null });
    expect(await registerShopper(form)).toEqual({ status: 'error', message: 'Error al guardar el perfil.' });
  });
});

describe('requestPasswordReset', () => {
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
