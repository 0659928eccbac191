/**
 * The local auth server through the shop's own client, @supabase/supabase-js: sign-up with
 * e-mail confirmation, password sign-in, refresh-token rotation, the user endpoint,
 * sign-out, password recovery, resend, the local Google sign-in and rate limits.
 */
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestStack, type TestStack } from './helpers.ts';

const SITE = 'http://localhost:4321';

let stack: TestStack;
let seq = 0;

beforeAll(async () => {
  stack = await startTestStack({ autoconfirm: false, siteUrl: SITE });
}, 60_000);
afterAll(async () => {
  await stack?.stop();
});
afterEach(() => {
  delete process.env.LOCAL_SUPABASE_RATE_LIMITS;
});

function client(): SupabaseClient {
  return createClient(stack.url, stack.anonKey, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
  });
}

/** A fresh address per test, so the one-e-mail-per-minute limit never couples tests. */
function newEmail(tag: string): string {
  seq += 1;
  return `${tag}.${seq}.${Date.now()}@correo.mx`;
}

interface Mail {
  id: string;
  to: string;
  subject: string;
  html: string;
  text: string;
  created_at: string;
  links: string[];
}

async function mailbox(to: string): Promise<Mail[]> {
  // Reading the mailbox needs the service key: its e-mails hold sign-in links.
  const res = await fetch(`${stack.url}/mailbox/api/messages?to=${encodeURIComponent(to)}`, {
    headers: { apikey: stack.serviceRoleKey, authorization: `Bearer ${stack.serviceRoleKey}` },
  });
  expect(res.status).toBe(200);
  return (await res.json()) as Mail[];
}

/** Follows an e-mail link without following the redirect; returns the Location and its fragment. */
async function followLink(link: string): Promise<{ status: number; location: URL; fragment: URLSearchParams }> {
  const res = await fetch(link, { redirect: 'manual' });
  const location = new URL(res.headers.get('location') ?? 'about:blank');
  return { status: res.status, location, fragment: new URLSearchParams(location.hash.slice(1)) };
}

async function signUpConfirmed(email: string, password: string, data: Record<string, unknown> = {}) {
  const sb = client();
  const { error } = await sb.auth.signUp({ email, password, options: { data } });
  expect(error).toBeNull();
  const [mail] = await mailbox(email);
  const { fragment } = await followLink(mail!.links[0]!);
  expect(fragment.get('access_token')).toBeTruthy();
  const signedIn = await sb.auth.signInWithPassword({ email, password });
  expect(signedIn.error).toBeNull();
  return { sb, session: signedIn.data.session!, user: signedIn.data.user! };
}

describe('auth calls the shop makes (spec section 7)', () => {
  it('signUp with emailRedirectTo /account: returns the user without a session, sends the Spanish confirmation e-mail, and its link confirms and redirects with a session', async () => {
    const email = newEmail('registro');
    const sb = client();
    const { data, error } = await sb.auth.signUp({
      email: email.toUpperCase(),
      password: 'secreto-largo-1',
      options: {
        emailRedirectTo: `${SITE}/account`,
        data: { username: `usuario${seq}`, name: 'Lucía', lastname: 'Pérez', phone: '55 1234 5678' },
      },
    });
    expect(error).toBeNull();
    expect(data.session).toBeNull();
    expect(data.user?.email).toBe(email);
    expect(data.user?.email_confirmed_at).toBeUndefined();
    expect(data.user?.user_metadata).toMatchObject({ name: 'Lucía', lastname: 'Pérez' });
    expect(data.user?.identities).toHaveLength(1);
    expect(data.user?.identities?.[0]?.provider).toBe('email');

    const mails = await mailbox(email);
    expect(mails).toHaveLength(1);
    const mail = mails[0]!;
    expect(mail.subject).toBe('Confirma tu cuenta en Cartas Mx');
    expect(mail.text).toContain('Confirma tu cuenta');
    expect(mail.links).toHaveLength(1);
    const link = new URL(mail.links[0]!);
    expect(link.pathname).toBe('/auth/v1/verify');
    expect(link.searchParams.get('type')).toBe('signup');
    expect(link.searchParams.get('redirect_to')).toBe(`${SITE}/account`);

    // Before following the link the account cannot sign in.
    const early = await sb.auth.signInWithPassword({ email, password: 'secreto-largo-1' });
    expect(early.error?.code).toBe('email_not_confirmed');
    expect(early.error?.status).toBe(400);
    expect(early.error?.message).toBe('Email not confirmed');

    const followed = await followLink(link.toString());
    expect(followed.status).toBe(303);
    expect(`${followed.location.origin}${followed.location.pathname}`).toBe(`${SITE}/account`);
    expect(followed.fragment.get('type')).toBe('signup');
    expect(followed.fragment.get('token_type')).toBe('bearer');
    expect(followed.fragment.get('expires_in')).toBe('3600');
    expect(Number(followed.fragment.get('expires_at'))).toBeGreaterThan(Date.now() / 1000);
    expect(followed.fragment.get('refresh_token')).toBeTruthy();
    const fromLink = await sb.auth.getUser(followed.fragment.get('access_token')!);
    expect(fromLink.error).toBeNull();
    expect(fromLink.data.user?.email_confirmed_at).toBeTruthy();

    // A link works once.
    const again = await followLink(link.toString());
    expect(again.fragment.get('error_code')).toBe('otp_expired');

    const signedIn = await sb.auth.signInWithPassword({ email, password: 'secreto-largo-1' });
    expect(signedIn.error).toBeNull();
    expect(signedIn.data.session?.access_token).toBeTruthy();
    expect(signedIn.data.user?.id).toBe(data.user?.id);
  });

  it('signInWithPassword: the seeded customer signs in with a Supabase-shaped session and access token', async () => {
    const sb = client();
    const { data, error } = await sb.auth.signInWithPassword({ email: 'cliente@demo.mx', password: 'Cliente123!' });
    expect(error).toBeNull();
    const session = data.session!;
    expect(session.token_type).toBe('bearer');
    expect(session.expires_in).toBe(3600);
    expect(session.refresh_token.length).toBeGreaterThan(10);
    expect(session.user.email).toBe('cliente@demo.mx');
    expect(session.user.last_sign_in_at).toBeTruthy();
    const claims = JSON.parse(Buffer.from(session.access_token.split('.')[1]!, 'base64url').toString('utf8'));
    expect(claims).toMatchObject({
      iss: `${stack.url}/auth/v1`,
      sub: session.user.id,
      aud: 'authenticated',
      role: 'authenticated',
      email: 'cliente@demo.mx',
      aal: 'aal1',
      is_anonymous: false,
      app_metadata: { provider: 'email', providers: ['email'] },
    });
    expect(claims.exp - claims.iat).toBe(3600);
    expect(typeof claims.session_id).toBe('string');
    expect(claims.amr[0].method).toBe('password');
  });

  it('getUser: answers the signed-in user with identities, and refuses a missing or forged token', async () => {
    const sb = client();
    const { data } = await sb.auth.signInWithPassword({ email: 'cliente@demo.mx', password: 'Cliente123!' });
    const { data: got, error } = await sb.auth.getUser();
    expect(error).toBeNull();
    expect(got.user?.id).toBe(data.user?.id);
    expect(got.user?.identities?.[0]).toMatchObject({ provider: 'email', user_id: data.user?.id });
    expect(got.user?.user_metadata).toMatchObject({ name: 'Ana' });

    const forged = data.session!.access_token.slice(0, -4) + 'AAAA';
    const bad = await client().auth.getUser(forged);
    expect(bad.data.user).toBeNull();
    expect(bad.error?.status).toBe(403);

    const res = await fetch(`${stack.url}/auth/v1/user`, { headers: { apikey: stack.anonKey } });
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ code: 401, error_code: 'no_authorization' });
  });

  it('signOut: revokes the session so its refresh token and access token stop working', async () => {
    const sb = client();
    const { data } = await sb.auth.signInWithPassword({ email: 'cliente@demo.mx', password: 'Cliente123!' });
    const session = data.session!;
    const { error } = await sb.auth.signOut();
    expect(error).toBeNull();
    expect((await sb.auth.getSession()).data.session).toBeNull();

    const refreshed = await client().auth.refreshSession({ refresh_token: session.refresh_token });
    expect(refreshed.error?.message).toMatch(/^Invalid Refresh Token/);
    // supabase-js turns GoTrue's 403 session_not_found into AuthSessionMissingError.
    const user = await client().auth.getUser(session.access_token);
    expect(user.data.user).toBeNull();
    expect(user.error?.name).toBe('AuthSessionMissingError');
    const raw = await fetch(`${stack.url}/auth/v1/user`, {
      headers: { apikey: stack.anonKey, authorization: `Bearer ${session.access_token}` },
    });
    expect(raw.status).toBe(403);
    expect(await raw.json()).toMatchObject({ error_code: 'session_not_found' });
  });

  it('resetPasswordForEmail with redirectTo /account: sends the recovery e-mail whose link signs in with type=recovery, then updateUser sets the new password', async () => {
    const email = newEmail('recupera');
    await signUpConfirmed(email, 'anterior-123');
    const sb = client();
    const { error } = await sb.auth.resetPasswordForEmail(email, { redirectTo: `${SITE}/account` });
    expect(error).toBeNull();
    const [mail] = await mailbox(email);
    expect(mail!.subject).toContain('Restablece tu contraseña');
    const link = new URL(mail!.links[0]!);
    expect(link.searchParams.get('type')).toBe('recovery');

    const { status, location, fragment } = await followLink(link.toString());
    expect(status).toBe(303);
    expect(location.pathname).toBe('/account');
    expect(fragment.get('type')).toBe('recovery');
    const set = await sb.auth.setSession({
      access_token: fragment.get('access_token')!,
      refresh_token: fragment.get('refresh_token')!,
    });
    expect(set.error).toBeNull();
    const updated = await sb.auth.updateUser({ password: 'nueva-clave-456' });
    expect(updated.error).toBeNull();

    expect((await client().auth.signInWithPassword({ email, password: 'anterior-123' })).error?.code).toBe('invalid_credentials');
    expect((await client().auth.signInWithPassword({ email, password: 'nueva-clave-456' })).error).toBeNull();

    // Unknown addresses get the same answer and no e-mail, so accounts cannot be probed.
    const stranger = newEmail('nadie');
    expect((await sb.auth.resetPasswordForEmail(stranger)).error).toBeNull();
    expect(await mailbox(stranger)).toHaveLength(0);
  });

  it('signInWithOAuth google with redirectTo /account: builds the authorize URL, the local page answers, and choosing an account redirects with a google session', async () => {
    const sb = client();
    const { data, error } = await sb.auth.signInWithOAuth({
      provider: 'google',
      options: { redirectTo: `${SITE}/account`, skipBrowserRedirect: true },
    });
    expect(error).toBeNull();
    const url = new URL(data.url!);
    expect(`${url.origin}${url.pathname}`).toBe(`${stack.url}/auth/v1/authorize`);
    expect(url.searchParams.get('provider')).toBe('google');
    expect(url.searchParams.get('redirect_to')).toBe(`${SITE}/account`);

    const page = await fetch(url);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    const html = await page.text();
    expect(html).toContain('Continuar con Google');
    expect(html).toContain('action="/auth/v1/callback"');
    expect(html).toContain(`value="${SITE}/account"`);

    const email = newEmail('google');
    const choose = () =>
      fetch(`${stack.url}/auth/v1/callback`, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ name: 'Gabriela Google', email, redirect_to: `${SITE}/account` }),
      });
    const res = await choose();
    expect(res.status).toBe(302);
    const location = new URL(res.headers.get('location')!);
    expect(location.pathname).toBe('/account');
    const fragment = new URLSearchParams(location.hash.slice(1));
    for (const key of ['access_token', 'refresh_token', 'expires_in', 'expires_at', 'provider_token']) {
      expect(fragment.get(key), key).toBeTruthy();
    }
    expect(fragment.get('token_type')).toBe('bearer');
    const { data: got } = await sb.auth.getUser(fragment.get('access_token')!);
    expect(got.user?.email).toBe(email);
    expect(got.user?.app_metadata.provider).toBe('google');
    expect(got.user?.identities?.map((i) => i.provider)).toEqual(['google']);
    expect(got.user?.user_metadata.full_name).toBe('Gabriela Google');
    expect(got.user?.email_confirmed_at).toBeTruthy();

    // The same Google account signs in to the same user; the page never lists accounts.
    const second = new URLSearchParams(new URL((await choose()).headers.get('location')!).hash.slice(1));
    const { data: again } = await sb.auth.getUser(second.get('access_token')!);
    expect(again.user?.id).toBe(got.user?.id);
    expect(await (await fetch(url)).text()).not.toContain(email);

    // A bad form answers the page again with a Spanish message, not a crash.
    const bad = await fetch(`${stack.url}/auth/v1/callback`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ name: 'X', email: 'no-es-correo', redirect_to: `${SITE}/account` }),
    });
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain('Escribe un correo válido.');
  });

  it('resend signup with emailRedirectTo the site origin: a new confirmation e-mail whose link works, while the old link stops working', async () => {
    const email = newEmail('reenvio');
    const sb = client();
    await sb.auth.signUp({ email, password: 'secreto-123' });
    // One e-mail per address per minute, like Supabase: an immediate resend is refused.
    const tooSoon = await sb.auth.resend({ type: 'signup', email, options: { emailRedirectTo: SITE } });
    expect(tooSoon.error?.status).toBe(429);
    expect(tooSoon.error?.code).toBe('over_email_send_rate_limit');
    expect(tooSoon.error?.message).toMatch(/^For security purposes, you can only request this after \d+ seconds\.$/);

    process.env.LOCAL_SUPABASE_RATE_LIMITS = 'email_interval=0';
    const { error } = await sb.auth.resend({ type: 'signup', email, options: { emailRedirectTo: SITE } });
    expect(error).toBeNull();
    const mails = await mailbox(email);
    expect(mails).toHaveLength(2);
    expect(mails[0]!.subject).toBe('Confirma tu cuenta en Cartas Mx');
    const newest = new URL(mails[0]!.links[0]!);
    expect(newest.searchParams.get('redirect_to')).toBe(new URL(SITE).toString());

    const old = await followLink(mails[1]!.links[0]!);
    expect(old.fragment.get('error')).toBe('access_denied');
    expect(old.fragment.get('error_code')).toBe('otp_expired');
    expect(old.fragment.get('error_description')).toBe('Email link is invalid or has expired');
    const fresh = await followLink(newest.toString());
    expect(fresh.fragment.get('type')).toBe('signup');
    expect((await sb.auth.signInWithPassword({ email, password: 'secreto-123' })).error).toBeNull();
  });
});

describe('sign-in errors', () => {
  it('a wrong password and an unknown e-mail both give invalid_credentials', async () => {
    const sb = client();
    const wrong = await sb.auth.signInWithPassword({ email: 'cliente@demo.mx', password: 'otra-cosa' });
    expect(wrong.error?.code).toBe('invalid_credentials');
    expect(wrong.error?.status).toBe(400);
    expect(wrong.error?.message).toBe('Invalid login credentials');
    expect(wrong.data.session).toBeNull();
    const unknown = await sb.auth.signInWithPassword({ email: newEmail('nadie'), password: 'Cliente123!' });
    expect(unknown.error?.code).toBe('invalid_credentials');
  });

  it('sign-up validation: short password is weak_password 422, missing password and bad e-mail are validation_failed', async () => {
    const sb = client();
    const weak = await sb.auth.signUp({ email: newEmail('debil'), password: '12345' });
    expect(weak.error?.status).toBe(422);
    expect(weak.error?.code).toBe('weak_password');
    expect(weak.error?.message).toBe('Password should be at least 6 characters.');
    const missing = await sb.auth.signUp({ email: newEmail('sin'), password: '' });
    expect(missing.error?.code).toBe('validation_failed');
    const badEmail = await sb.auth.signUp({ email: 'no-es-un-correo', password: 'secreto-123' });
    expect(badEmail.error?.code).toBe('validation_failed');
    expect(badEmail.error?.status).toBe(400);

    const raw = await fetch(`${stack.url}/auth/v1/signup`, {
      method: 'POST',
      headers: { apikey: stack.anonKey, 'content-type': 'application/json' },
      body: '{"email": ',
    });
    expect(raw.status).toBe(400);
    expect(await raw.json()).toMatchObject({ error_code: 'bad_json' });
  });
});

describe('duplicate e-mail', () => {
  it('with confirmation on: no error, an obfuscated user with no identities, and no e-mail', async () => {
    const sb = client();
    const { data, error } = await sb.auth.signUp({ email: 'cliente@demo.mx', password: 'otra-clave-1' });
    expect(error).toBeNull();
    expect(data.session).toBeNull();
    expect(data.user?.identities).toEqual([]);
    expect(data.user?.id).not.toBe('5b1c2a9e-7d3f-4c4e-9a61-0c2f6b1e8a01');
    expect(await mailbox('cliente@demo.mx')).toHaveLength(0);
    // The original password still works.
    expect((await sb.auth.signInWithPassword({ email: 'cliente@demo.mx', password: 'Cliente123!' })).error).toBeNull();
  });

  it('with LOCAL_SUPABASE_AUTOCONFIRM: sign-up returns a session at once and a duplicate is 422 user_already_exists', async () => {
    const auto = await startTestStack({ autoconfirm: true, siteUrl: SITE });
    try {
      const sb = createClient(auto.url, auto.anonKey, { auth: { persistSession: false, autoRefreshToken: false } });
      const email = newEmail('auto');
      const first = await sb.auth.signUp({ email, password: 'secreto-123' });
      expect(first.error).toBeNull();
      expect(first.data.session?.access_token).toBeTruthy();
      expect(first.data.user?.email_confirmed_at).toBeTruthy();
      const dup = await sb.auth.signUp({ email, password: 'secreto-456' });
      expect(dup.error?.status).toBe(422);
      expect(dup.error?.code).toBe('user_already_exists');
      expect(dup.error?.message).toBe('User already registered');
      const settings = await (await fetch(`${auto.url}/auth/v1/settings`, { headers: { apikey: auto.anonKey } })).json();
      expect(settings).toMatchObject({ mailer_autoconfirm: true, external: { google: true, email: true } });
    } finally {
      await auto.stop();
    }
  }, 60_000);
});

describe('sessions', () => {
  it('refreshSession rotates the refresh token; the token just replaced is tolerated briefly, an older one ends the session', async () => {
    const sb = client();
    const { data } = await sb.auth.signInWithPassword({ email: 'cliente@demo.mx', password: 'Cliente123!' });
    const t0 = data.session!.refresh_token;
    const r1 = await sb.auth.refreshSession();
    expect(r1.error).toBeNull();
    const t1 = r1.data.session!.refresh_token;
    expect(t1).not.toBe(t0);
    expect(r1.data.session!.access_token).not.toBe(data.session!.access_token);

    // Two tabs refreshing at once: the token just replaced gets the current one back.
    const concurrent = await client().auth.refreshSession({ refresh_token: t0 });
    expect(concurrent.error).toBeNull();
    expect(concurrent.data.session!.refresh_token).toBe(t1);

    const r2 = await sb.auth.refreshSession();
    const t2 = r2.data.session!.refresh_token;
    expect(t2).not.toBe(t1);

    const reused = await client().auth.refreshSession({ refresh_token: t0 });
    expect(reused.error?.status).toBe(400);
    expect(reused.error?.message).toMatch(/^Invalid Refresh Token: /);
    // Reuse of an old token looks like a leak: the whole session is gone.
    const after = await client().auth.refreshSession({ refresh_token: t2 });
    expect(after.error?.message).toMatch(/^Invalid Refresh Token: /);

    const unknown = await client().auth.refreshSession({ refresh_token: 'no-existe' });
    expect(unknown.error?.code).toBe('refresh_token_not_found');
  });

  it('updateUser: merges metadata, refuses a weak password, and a new password replaces the old one', async () => {
    const email = newEmail('perfil');
    const { sb } = await signUpConfirmed(email, 'primera-123', { name: 'Luis', phone: '5512345678' });
    const meta = await sb.auth.updateUser({ data: { lastname: 'Hernández', phone: null } });
    expect(meta.error).toBeNull();
    expect(meta.data.user?.user_metadata).toMatchObject({ name: 'Luis', lastname: 'Hernández' });
    expect(meta.data.user?.user_metadata).not.toHaveProperty('phone');

    const weak = await sb.auth.updateUser({ password: '123' });
    expect(weak.error?.code).toBe('weak_password');
    expect(weak.error?.status).toBe(422);

    expect((await sb.auth.updateUser({ password: 'segunda-456' })).error).toBeNull();
    expect((await client().auth.signInWithPassword({ email, password: 'primera-123' })).error?.code).toBe('invalid_credentials');
    const relogin = await client().auth.signInWithPassword({ email, password: 'segunda-456' });
    expect(relogin.error).toBeNull();
    expect(relogin.data.user?.user_metadata.lastname).toBe('Hernández');
  });

  it('updateUser with a new e-mail sends a confirmation to the new address; its link switches the account over', async () => {
    const oldEmail = newEmail('cambio');
    const newAddress = newEmail('cambio-nuevo');
    const { sb, user } = await signUpConfirmed(oldEmail, 'secreto-123');
    const { data, error } = await sb.auth.updateUser({ email: newAddress }, { emailRedirectTo: `${SITE}/account` });
    expect(error).toBeNull();
    expect(data.user?.email).toBe(oldEmail);
    expect(data.user?.new_email).toBe(newAddress);

    const [mail] = await mailbox(newAddress);
    expect(mail!.subject).toBe('Confirma tu nuevo correo en Cartas Mx');
    const { fragment } = await followLink(mail!.links[0]!);
    expect(fragment.get('type')).toBe('email_change');
    const { data: after } = await sb.auth.getUser(fragment.get('access_token')!);
    expect(after.user?.id).toBe(user.id);
    expect(after.user?.email).toBe(newAddress);
    expect((await client().auth.signInWithPassword({ email: newAddress, password: 'secreto-123' })).error).toBeNull();
    expect((await client().auth.signInWithPassword({ email: oldEmail, password: 'secreto-123' })).error?.code).toBe('invalid_credentials');
    // An address that belongs to someone else is refused.
    const taken = await sb.auth.updateUser({ email: 'admin@demo.mx' });
    expect(taken.error?.code).toBe('email_exists');
    expect(taken.error?.status).toBe(422);
  });

  it('verifyOtp with a token hash (POST /verify) signs in once', async () => {
    const admin = createClient(stack.url, stack.serviceRoleKey, { auth: { persistSession: false, autoRefreshToken: false } });
    const email = newEmail('otp');
    await admin.auth.admin.createUser({ email, password: 'secreto-123', email_confirm: true });
    const link = await admin.auth.admin.generateLink({ type: 'recovery', email });
    const sb = client();
    const first = await sb.auth.verifyOtp({ token_hash: link.data.properties!.hashed_token, type: 'recovery' });
    expect(first.error).toBeNull();
    expect(first.data.session?.user.email).toBe(email);
    const second = await client().auth.verifyOtp({ token_hash: link.data.properties!.hashed_token, type: 'recovery' });
    expect(second.error?.code).toBe('otp_expired');
    expect(second.error?.status).toBe(403);
  });

  it('the profile row is created by the trigger from the sign-up data, readable by its owner, with is_admin false', async () => {
    const email = newEmail('trigger');
    const username = `perfil_${seq}_${Date.now() % 100000}`;
    const { sb, user } = await signUpConfirmed(email, 'secreto-123', {
      username,
      name: 'Marta',
      lastname: 'Ríos',
      phone: '+52 81 1234 5678',
      is_admin: true,
    });
    const { data, error } = await sb.from('profiles').select('*').eq('id', user.id).single();
    expect(error).toBeNull();
    expect(data).toMatchObject({ id: user.id, username, name: 'Marta', lastname: 'Ríos', is_admin: false });
  });
});

describe('admin API (the server uses auth.admin.getUserById for receipts)', () => {
  it('getUserById, createUser, updateUserById, listUsers, generateLink and deleteUser work with the service role only', async () => {
    const admin = createClient(stack.url, stack.serviceRoleKey, { auth: { persistSession: false, autoRefreshToken: false } });
    const byId = await admin.auth.admin.getUserById('5b1c2a9e-7d3f-4c4e-9a61-0c2f6b1e8a01');
    expect(byId.error).toBeNull();
    expect(byId.data.user?.email).toBe('cliente@demo.mx');
    const missing = await admin.auth.admin.getUserById('00000000-0000-4000-8000-000000000000');
    expect(missing.error?.status).toBe(404);

    const email = newEmail('admin-api');
    const created = await admin.auth.admin.createUser({
      email,
      password: 'secreto-123',
      email_confirm: true,
      user_metadata: { name: 'Creado' },
    });
    expect(created.error).toBeNull();
    const id = created.data.user!.id;
    expect(created.data.user?.email_confirmed_at).toBeTruthy();
    expect((await client().auth.signInWithPassword({ email, password: 'secreto-123' })).error).toBeNull();

    const updated = await admin.auth.admin.updateUserById(id, { user_metadata: { lastname: 'Admin' }, password: 'otra-456' });
    expect(updated.error).toBeNull();
    expect(updated.data.user?.user_metadata).toMatchObject({ name: 'Creado', lastname: 'Admin' });
    expect((await client().auth.signInWithPassword({ email, password: 'otra-456' })).error).toBeNull();

    const list = await admin.auth.admin.listUsers({ page: 1, perPage: 1000 });
    expect(list.error).toBeNull();
    expect(list.data.users.map((u) => u.email)).toEqual(expect.arrayContaining([email, 'admin@demo.mx']));

    const link = await admin.auth.admin.generateLink({ type: 'magiclink', email, options: { redirectTo: `${SITE}/account` } });
    expect(link.error).toBeNull();
    expect(link.data.properties?.verification_type).toBe('magiclink');
    const followed = await followLink(link.data.properties!.action_link);
    expect(followed.fragment.get('type')).toBe('magiclink');
    expect(followed.fragment.get('access_token')).toBeTruthy();

    const shopper = await client().auth.signInWithPassword({ email: 'cliente@demo.mx', password: 'Cliente123!' });
    const asShopper = createClient(stack.url, shopper.data.session!.access_token, {
      auth: { persistSession: false, autoRefreshToken: false },
    });
    const refused = await asShopper.auth.admin.getUserById(id);
    expect(refused.error?.status).toBe(403);

    expect((await admin.auth.admin.deleteUser(id)).error).toBeNull();
    expect((await admin.auth.admin.getUserById(id)).error?.status).toBe(404);
    expect((await client().auth.signInWithPassword({ email, password: 'otra-456' })).error?.code).toBe('invalid_credentials');
  });
});

describe('bad input', () => {
  it('malformed bodies, wrong types and unknown routes get 4xx JSON, never a 5xx', async () => {
    process.env.LOCAL_SUPABASE_RATE_LIMITS = 'off';
    const bodies = [
      '',
      'null',
      '[]',
      '"texto"',
      '{"email": ',
      '{"email": 123, "password": {}}',
      '{"email": ["a@b.mx"], "password": "secreto-123", "data": "no-objeto"}',
      '{"email": "a@b.mx", "password": 1234567}',
      JSON.stringify({ email: `${'x'.repeat(300)}@correo.mx`, password: 'secreto-123' }),
      JSON.stringify({ email: 'a@b.mx', password: 'x'.repeat(100) }),
      JSON.stringify({ refresh_token: 42 }),
      JSON.stringify({ email: 'a@b.mx', type: 'desconocido' }),
      JSON.stringify({ token_hash: 'x', type: 'signup' }),
    ];
    const routes = [
      ['POST', '/signup'],
      ['POST', '/token?grant_type=password'],
      ['POST', '/token?grant_type=refresh_token'],
      ['POST', '/token?grant_type=inventado'],
      ['POST', '/recover'],
      ['POST', '/resend'],
      ['POST', '/verify'],
      ['PUT', '/user'],
      ['POST', '/logout?scope=todas'],
      ['POST', '/otra-ruta'],
    ] as const;
    let refused = 0;
    for (const [method, route] of routes) {
      for (const body of bodies) {
        const res = await fetch(`${stack.url}/auth/v1${route}`, {
          method,
          headers: { apikey: stack.anonKey, authorization: `Bearer ${stack.anonKey}`, 'content-type': 'application/json' },
          body,
        });
        const label = `${method} ${route} ${body.slice(0, 40)}`;
        expect(res.status, label).toBeLessThan(500);
        const json = (await res.json()) as { msg?: unknown };
        // Some bodies are valid for some routes (a recovery for a@b.mx is fine); every refusal is a GoTrue error.
        if (res.status >= 400) {
          refused++;
          expect(typeof json.msg, label).toBe('string');
        }
      }
    }
    expect(refused).toBeGreaterThan(routes.length * bodies.length - 10);
  });
});

describe('links and limits', () => {
  it('an invalid e-mail link redirects with otp_expired in the fragment', async () => {
    const link = `${stack.url}/auth/v1/verify?token=inventado&type=signup&redirect_to=${encodeURIComponent(SITE + '/account')}`;
    const { status, location, fragment } = await followLink(link);
    expect(status).toBe(303);
    expect(location.pathname).toBe('/account');
    expect(fragment.get('error')).toBe('access_denied');
    expect(fragment.get('error_code')).toBe('otp_expired');
    expect(fragment.get('access_token')).toBeNull();
    // A non-http or foreign redirect target falls back to the site.
    const script = await followLink(`${stack.url}/auth/v1/verify?token=x&type=signup&redirect_to=javascript:alert(1)`);
    expect(script.location.origin).toBe(SITE);
    const foreign = await followLink(`${stack.url}/auth/v1/verify?token=x&type=signup&redirect_to=${encodeURIComponent('https://ajeno.example/robar')}`);
    expect(foreign.location.origin).toBe(SITE);
  });

  it('too many /token requests from one address get 429 over_request_rate_limit', async () => {
    process.env.LOCAL_SUPABASE_RATE_LIMITS = 'token=1';
    const sb = client();
    await sb.auth.signInWithPassword({ email: 'cliente@demo.mx', password: 'Cliente123!' });
    const limited = await sb.auth.signInWithPassword({ email: 'cliente@demo.mx', password: 'Cliente123!' });
    expect(limited.error?.status).toBe(429);
    expect(limited.error?.code).toBe('over_request_rate_limit');
    const raw = await fetch(`${stack.url}/auth/v1/token?grant_type=password`, {
      method: 'POST',
      headers: { apikey: stack.anonKey, 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'cliente@demo.mx', password: 'Cliente123!' }),
    });
    expect(raw.status).toBe(429);
    expect(await raw.json()).toEqual({ code: 429, error_code: 'over_request_rate_limit', msg: 'Request rate limit reached' });

    process.env.LOCAL_SUPABASE_RATE_LIMITS = 'off';
    expect((await sb.auth.signInWithPassword({ email: 'cliente@demo.mx', password: 'Cliente123!' })).error).toBeNull();
  });

  it('GET /health and /settings answer without a session', async () => {
    const health = await fetch(`${stack.url}/auth/v1/health`);
    expect(health.status).toBe(200);
    const settings = await (await fetch(`${stack.url}/auth/v1/settings`)).json();
    expect(settings).toMatchObject({ mailer_autoconfirm: false, external: { google: true, email: true } });
    const unknown = await fetch(`${stack.url}/auth/v1/authorize?provider=github`);
    expect(unknown.status).toBe(400);
  });
});
