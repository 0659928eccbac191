/**
 * Every auth flow of the shop, as actions the islands call: sign-in and sign-out, sign-up,
 * password recovery, Google, password change and resending the confirmation e-mail. What they
 * change lands in the session store (./session.ts).
 */
import { getSupabase } from '~/data/supabase.ts';
import { createProfile, getProfile, usernameTaken } from '~/data/profiles.ts';
import { PASSWORD_MIN_LENGTH, validateLogin, validatePasswordReset, validateRegistration, type RegistrationInput } from '~/domain/validation/auth.ts';
import { AUTH_MESSAGES, AUTH_PASSWORD_MESSAGES, AUTH_SESSION_MESSAGES } from '~/i18n/auth.ts';
import { VALIDATION_MESSAGES } from '~/i18n/validation.ts';
import { $session, overtakeSessionReads, toSessionProfile, type SessionProfile } from './session.ts';
import { applyFavoriteIntent } from './favorites.ts';

/** Outcome of signIn: the signed-in profile, or the Spanish message to show. */
export type SignInResult = { ok: true; profile: SessionProfile } | { ok: false; message: string };

/** Signs in with e-mail (trimmed, lower-cased) and password; any auth error is 'Credenciales incorrectas.'. */
export async function signIn(email: string, password: string): Promise<SignInResult> {
  const parsed = validateLogin({ email, password });
  if (!parsed.ok) return { ok: false, message: parsed.formError };
  const supabase = getSupabase();
  try {
    const { data, error } = await supabase.auth.signInWithPassword(parsed.data);
    if (error) return { ok: false, message: AUTH_SESSION_MESSAGES.badCredentials };
    if (!data.user) return { ok: false, message: AUTH_SESSION_MESSAGES.signInFailed };
    const profile = await getProfile(data.user.id);
    if (profile.error) return { ok: false, message: AUTH_SESSION_MESSAGES.signInFailed };
    if (!profile.data) {
      await supabase.auth.signOut({ scope: 'local' }).catch(() => undefined);
      return { ok: false, message: AUTH_SESSION_MESSAGES.profileMissing };
    }
    const sessionProfile = toSessionProfile(profile.data);
    overtakeSessionReads();
    $session.set({ user: data.user, profile: sessionProfile, loading: false, error: null, lastEvent: 'SIGNED_IN' });
    // A heart tapped before signing in is saved now, before the page moves on.
    await applyFavoriteIntent(data.user.id).catch(() => false);
    return { ok: true, profile: sessionProfile };
  } catch {
    return { ok: false, message: AUTH_SESSION_MESSAGES.signInFailed };
  }
}

/** Signs out of this browser and clears the store. */
export async function signOut(): Promise<void> {
  overtakeSessionReads();
  try {
    await getSupabase().auth.signOut({ scope: 'local' });
  } catch {
    // supabase-js drops the stored session even when the server cannot be reached.
  } finally {
    $session.set({ user: null, profile: null, loading: false, error: null, lastEvent: 'SIGNED_OUT' });
  }
}

/**
 * A same-site path to continue to after signing in, from a `next` parameter; anything else
 * (other origins, protocol-relative '//host', backslashes, the auth page itself) gives the fallback.
 */
export function safeNextPath(next: string | null | undefined, fallback = '/account'): string {
  if (typeof next !== 'string') return fallback;
  const value = next.trim();
  if (!value.startsWith('/') || value.startsWith('//') || value.includes('\\')) return fallback;
  // eslint-disable-next-line no-control-regex -- control characters in a redirect target are refused on purpose
  if (/[\u0000-\u001f]/.test(value)) return fallback;
  try {
    const url = new URL(value, 'http://shop.invalid');
    if (url.origin !== 'http://shop.invalid') return fallback;
    if (url.pathname === '/auth' || url.pathname.startsWith('/auth/')) return fallback;
    return `${url.pathname}${url.search}${url.hash}`;
  } catch {
    return fallback;
  }
}

// Sign-up, recovery, Google, password ----------------------------------------------------------

/** Outcome of a sign-up attempt. */
export type SignUpResult =
  | { status: 'invalid'; message: string; fieldErrors: Record<string, string> }
  | { status: 'error'; message: string }
  | { status: 'confirm' }
  | { status: 'signed-in' };

/** Where e-mail links and Google send the user back to. */
export function siteUrl(path: string): string {
  return new URL(path, window.location.origin).href;
}

/** Registers a shopper; the database trigger creates the profile (never an admin). */
export async function registerShopper(input: unknown, redirectPath = '/account'): Promise<SignUpResult> {
  const parsed = validateRegistration(input);
  if (!parsed.ok) return { status: 'invalid', message: parsed.formError, fieldErrors: parsed.fieldErrors };
  const form: RegistrationInput = parsed.data;
  if (await usernameTaken(form.username)) {
    return {
      status: 'invalid',
      message: VALIDATION_MESSAGES.registrationUsernameTaken,
      fieldErrors: { username: VALIDATION_MESSAGES.registrationUsernameTaken },
    };
  }
  const supabase = getSupabase();
  let result;
  try {
    result = await supabase.auth.signUp({
      email: form.email,
      password: form.password,
      options: {
        data: { username: form.username, name: form.name, lastname: form.lastname, phone: form.phone },
        emailRedirectTo: siteUrl(redirectPath),
      },
    });
  } catch {
    return { status: 'error', message: AUTH_MESSAGES.signUpFailed };
  }
  const { data, error } = result;
  if (error) {
    const registered = /registered/i.test(error.message) || error.code === 'user_already_exists' || error.code === 'email_exists';
    return { status: 'error', message: registered ? AUTH_MESSAGES.emailTaken : AUTH_MESSAGES.signUpFailed };
  }
  if (!data.user) return { status: 'error', message: AUTH_MESSAGES.noUser };
  // With e-mail confirmation on, an address that already has an account gets a stand-in user
  // with no identities instead of an error.
  if (Array.isArray(data.user.identities) && data.user.identities.length === 0) {
    return { status: 'error', message: AUTH_MESSAGES.emailTaken };
  }
  if (!data.session) return { status: 'confirm' };
  const profile = await getProfile(data.user.id);
  if (profile.error) return { status: 'error', message: AUTH_MESSAGES.profileFailed };
  if (!profile.data) {
    // The trigger normally creates it; create it here when a project lacks the trigger.
    const { error: insertError } = await createProfile(data.user.id, {
      username: form.username,
      name: form.name,
      lastname: form.lastname,
      phone: form.phone,
    });
    if (insertError) return { status: 'error', message: AUTH_MESSAGES.profileFailed };
  }
  return { status: 'signed-in' };
}

/** Sends the password-recovery e-mail; its link opens /auth/reset. */
export async function requestPasswordReset(email: string): Promise<{ ok: boolean; message: string }> {
  const parsed = validatePasswordReset({ email });
  if (!parsed.ok) return { ok: false, message: parsed.formError };
  try {
    const { error } = await getSupabase().auth.resetPasswordForEmail(parsed.data.email, {
      redirectTo: siteUrl('/auth/reset'),
    });
    if (error) return { ok: false, message: AUTH_MESSAGES.resetFailed };
    return { ok: true, message: AUTH_MESSAGES.resetSent };
  } catch {
    return { ok: false, message: AUTH_MESSAGES.resetFailed };
  }
}

/** Leaves for Google's consent screen; the user comes back signed in at `nextPath`. */
export async function continueWithGoogle(nextPath: string): Promise<{ error: string | null }> {
  const { error } = await getSupabase().auth.signInWithOAuth({
    provider: 'google',
    options: { redirectTo: siteUrl(nextPath) },
  });
  return { error: error ? AUTH_MESSAGES.googleFailed : null };
}

/**
 * Sets a new password for the signed-in user (also the user a recovery link signed in); checks
 * length and confirmation first. Returns the message to show on failure, null when it was saved.
 */
export async function changePassword(password: string, confirm: string): Promise<string | null> {
  if (password.length < PASSWORD_MIN_LENGTH) return VALIDATION_MESSAGES.passwordTooShort;
  if (password !== confirm) return AUTH_PASSWORD_MESSAGES.mismatch;
  try {
    const { error } = await getSupabase().auth.updateUser({ password });
    return error ? AUTH_PASSWORD_MESSAGES.failed : null;
  } catch {
    return AUTH_PASSWORD_MESSAGES.failed;
  }
}

/** Sends the sign-up confirmation e-mail again; whether it was sent. */
export async function resendConfirmation(email: string): Promise<boolean> {
  try {
    const { error } = await getSupabase().auth.resend({ type: 'signup', email, options: { emailRedirectTo: window.location.origin } });
    return !error;
  } catch {
    return false;
  }
}
