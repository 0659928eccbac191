/**
 * The signed-in user of this tab: the Supabase auth user, their profile (with the admin flag) and
 * whether either is still loading. Follows supabase.auth.onAuthStateChange, so signing in or out
 * in another tab, a confirmation link or a token refresh all land here. Change it only through the
 * functions exported here. Every auth flow of the shop is an action here too: sign-in, sign-up,
 * password recovery, Google, password change, resending the confirmation e-mail, profile reload.
 */
import { atom } from 'nanostores';
import type { AuthChangeEvent, Session, User } from '@supabase/supabase-js';
import { getSupabase } from '../data/supabase.ts';
import { createProfile, getProfile, usernameTaken, type Profile } from '../data/profiles.ts';
import {
  MESSAGES,
  PASSWORD_MIN_LENGTH,
  validateLogin,
  validatePasswordReset,
  validateRegistration,
  type RegistrationInput,
} from '../domain/validation.ts';

/** Messages the login flow shows, as the specification quotes them. */
export const SESSION_MESSAGES = {
  badCredentials: 'Credenciales incorrectas.',
  signInFailed: 'No se pudo iniciar sesión.',
  profileMissing: 'No se encontró el perfil de usuario.',
  sessionUnavailable: 'Sesión no disponible.',
  loadFailed: 'No se pudo cargar tu cuenta. Intenta nuevamente.',
} as const;

/** The profile as the screens use it. */
export interface SessionProfile extends Profile {
  isAdmin: boolean;
}

/** What the session store holds. */
export interface SessionState {
  user: User | null;
  profile: SessionProfile | null;
  loading: boolean;
  /**
   * Why the account could not be shown: 'unavailable' (the stored session is no longer valid)
   * or 'failed' (the profile could not be read, worth retrying); message is the text to show.
   */
  error: { kind: 'unavailable' | 'failed'; message: string } | null;
  /** The last auth event, e.g. PASSWORD_RECOVERY after a recovery link. */
  lastEvent: AuthChangeEvent | null;
}

export const $session = atom<SessionState>({ user: null, profile: null, loading: true, error: null, lastEvent: null });

let started = false;
let loadSeq = 0;
/**
 * Counts sign-ins and sign-outs. A read of the user started before one of them must not write its
 * answer afterwards: a shopper who signs out while the page is still checking the stored session
 * would otherwise see their account again, or a failure read as nobody.
 */
let authEpoch = 0;

function toSessionProfile(profile: Profile): SessionProfile {
  // Only the database column counts: user metadata is writable by the user.
  return { ...profile, isAdmin: profile.is_admin === true };
}

/** The profile load in flight, shared by callers for the same user so one read decides. */
let inflight: { userId: string; promise: Promise<void> } | null = null;

/**
 * Reads the user's profile into the session. supabase-js reports a restored session more than
 * once on page load (INITIAL_SESSION, then SIGNED_IN); joining the load in flight keeps those
 * from racing each other into contradicting screens.
 */
function loadProfileFor(user: User): Promise<void> {
  if (inflight && inflight.userId === user.id) return inflight.promise;
  const promise = readProfileInto(user).finally(() => {
    if (inflight?.promise === promise) inflight = null;
  });
  inflight = { userId: user.id, promise };
  return promise;
}

async function readProfileInto(user: User): Promise<void> {
  const seq = ++loadSeq;
  const result = await getProfile(user.id);
  if (seq !== loadSeq) return;
  if (result.error) {
    $session.set({
      ...$session.get(),
      user,
      profile: null,
      loading: false,
      error: { kind: 'failed', message: SESSION_MESSAGES.loadFailed },
    });
    return;
  }
  if (!result.data) {
    $session.set({
      ...$session.get(),
      user,
      profile: null,
      loading: false,
      error: { kind: 'unavailable', message: SESSION_MESSAGES.profileMissing },
    });
    return;
  }
  $session.set({ ...$session.get(), user, profile: toSessionProfile(result.data), loading: false, error: null });
}

function applySession(session: Session | null, event: AuthChangeEvent | null): void {
  const current = $session.get();
  if (!session) {
    loadSeq += 1;
    authEpoch += 1;
    $session.set({ user: null, profile: null, loading: false, error: null, lastEvent: event ?? current.lastEvent });
    return;
  }
  // After a failed load the account shows 'Reintentar'; a later event for the same user (supabase-js
  // repeats SIGNED_IN while it restores a stored session) must not swap that screen away behind
  // the shopper's back. The retry button, or a profile update, loads it again.
  if (current.user?.id === session.user.id && current.error?.kind === 'failed' && event !== 'USER_UPDATED') {
    $session.set({ ...current, user: session.user, lastEvent: event ?? current.lastEvent });
    return;
  }
  const sameUser = current.user?.id === session.user.id && current.profile !== null;
  $session.set({ ...current, user: session.user, loading: !sameUser, lastEvent: event ?? current.lastEvent });
  // A token refresh keeps the same profile; anything else reads it again.
  if (!sameUser || event === 'USER_UPDATED') void loadProfileFor(session.user);
}

/** Starts following the auth state (once per page); safe to call from every island. */
export function initSession(): void {
  if (started || typeof window === 'undefined') return;
  started = true;
  const supabase = getSupabase();
  supabase.auth.onAuthStateChange((event, session) => {
    // supabase-js must not be called again inside this callback (it holds a lock), hence the defer.
    setTimeout(() => {
      if (event === 'INITIAL_SESSION' && session) {
        void refresh();
        return;
      }
      applySession(session, event);
    }, 0);
  });
}

/**
 * Reads the user from the auth server (not just the stored session) and their profile again.
 * A stored session the server no longer accepts is dropped: 'Sesión no disponible.'.
 */
export async function refresh(): Promise<void> {
  const supabase = getSupabase();
  const epoch = authEpoch;
  const overtaken = () => epoch !== authEpoch;
  $session.set({ ...$session.get(), loading: true, error: null });
  try {
    const { data: sessionData } = await supabase.auth.getSession();
    if (overtaken()) return;
    if (!sessionData.session) {
      $session.set({ ...$session.get(), user: null, profile: null, loading: false, error: null });
      return;
    }
    const { data, error } = await supabase.auth.getUser();
    // Signed out (or in as someone else) meanwhile: that action owns the store now.
    if (overtaken()) return;
    if (error || !data.user) {
      // A 4xx means the session is gone for good; anything else may pass, so offer a retry.
      const status = (error as { status?: number } | null)?.status ?? 0;
      if (!error || (status >= 400 && status < 500)) {
        await supabase.auth.signOut({ scope: 'local' }).catch(() => undefined);
        $session.set({
          ...$session.get(),
          user: null,
          profile: null,
          loading: false,
          error: { kind: 'unavailable', message: SESSION_MESSAGES.sessionUnavailable },
        });
      } else {
        $session.set({ ...$session.get(), loading: false, error: { kind: 'failed', message: SESSION_MESSAGES.loadFailed } });
      }
      return;
    }
    await loadProfileFor(data.user);
  } catch {
    if (overtaken()) return;
    $session.set({ ...$session.get(), loading: false, error: { kind: 'failed', message: SESSION_MESSAGES.loadFailed } });
  }
}

/** Outcome of signIn: the signed-in profile, or the Spanish message to show. */
export type SignInResult = { ok: true; profile: SessionProfile } | { ok: false; message: string };

/** Signs in with e-mail (trimmed, lower-cased) and password; any auth error is 'Credenciales incorrectas.'. */
export async function signIn(email: string, password: string): Promise<SignInResult> {
  const parsed = validateLogin({ email, password });
  if (!parsed.ok) return { ok: false, message: parsed.formError };
  const supabase = getSupabase();
  try {
    const { data, error } = await supabase.auth.signInWithPassword(parsed.data);
    if (error) return { ok: false, message: SESSION_MESSAGES.badCredentials };
    if (!data.user) return { ok: false, message: SESSION_MESSAGES.signInFailed };
    const profile = await getProfile(data.user.id);
    if (profile.error) return { ok: false, message: SESSION_MESSAGES.signInFailed };
    if (!profile.data) {
      await supabase.auth.signOut({ scope: 'local' }).catch(() => undefined);
      return { ok: false, message: SESSION_MESSAGES.profileMissing };
    }
    const sessionProfile = toSessionProfile(profile.data);
    loadSeq += 1;
    authEpoch += 1;
    $session.set({ user: data.user, profile: sessionProfile, loading: false, error: null, lastEvent: 'SIGNED_IN' });
    return { ok: true, profile: sessionProfile };
  } catch {
    return { ok: false, message: SESSION_MESSAGES.signInFailed };
  }
}

/** Signs out of this browser and clears the store. */
export async function signOut(): Promise<void> {
  loadSeq += 1;
  authEpoch += 1;
  try {
    await getSupabase().auth.signOut({ scope: 'local' });
  } catch {
    // supabase-js drops the stored session even when the server cannot be reached.
  } finally {
    $session.set({ user: null, profile: null, loading: false, error: null, lastEvent: 'SIGNED_OUT' });
  }
}

/** Puts a freshly saved profile into the store (after an edit or a live change). */
export function setProfile(profile: Profile): void {
  const current = $session.get();
  if (current.user?.id !== profile.id) return;
  $session.set({ ...current, profile: toSessionProfile(profile) });
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

export const AUTH_MESSAGES = {
  emailTaken: 'Ese correo ya está registrado.',
  signUpFailed: 'No se pudo registrar.',
  noUser: 'No se obtuvo el usuario tras el registro.',
  profileFailed: 'Error al guardar el perfil.',
  signUpToast: 'No se pudo registrar',
  checkEmailToast: 'Revisa tu correo',
  checkEmail: 'Te enviamos un correo para confirmar tu cuenta. Abre el enlace y después inicia sesión.',
  resetFailed: 'No se pudo enviar el enlace de recuperación.',
  resetSent: 'Si el correo está registrado, te enviamos un enlace para crear una nueva contraseña.',
  welcome: 'Bienvenido',
} as const;

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
      message: MESSAGES.registrationUsernameTaken,
      fieldErrors: { username: MESSAGES.registrationUsernameTaken },
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
  return { error: error ? 'No se pudo iniciar sesión.' : null };
}

/** Messages of the password change (account) and of the recovery link's new password. */
export const PASSWORD_MESSAGES = {
  mismatch: 'Las contraseñas no coinciden.',
  failed: 'No se pudo actualizar la contraseña.',
  saved: 'Contraseña actualizada',
} as const;

/**
 * Sets a new password for the signed-in user (also the user a recovery link signed in); checks
 * length and confirmation first. Returns the message to show on failure, null when it was saved.
 */
export async function changePassword(password: string, confirm: string): Promise<string | null> {
  if (password.length < PASSWORD_MIN_LENGTH) return MESSAGES.passwordTooShort;
  if (password !== confirm) return PASSWORD_MESSAGES.mismatch;
  try {
    const { error } = await getSupabase().auth.updateUser({ password });
    return error ? PASSWORD_MESSAGES.failed : null;
  } catch {
    return PASSWORD_MESSAGES.failed;
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

/** Reads the signed-in user's profile again (after a live change of the row). */
export async function reloadProfile(): Promise<void> {
  const userId = $session.get().user?.id;
  if (!userId) return;
  const result = await getProfile(userId);
  if (result.data) setProfile(result.data);
}
