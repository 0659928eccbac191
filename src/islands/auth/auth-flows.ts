/**
 * Sign-up, password recovery and Google sign-in as the auth screen runs them, with the
 * specification's Spanish messages. Returns outcomes; the island decides what to show.
 */
import { getSupabase } from '../../data/supabase.ts';
import { getProfile, isUsernameTaken } from '../../data/profiles.ts';
import { MESSAGES, validatePasswordReset, validateRegistration, type RegistrationInput } from '../../domain/validation.ts';

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

/**
 * Whether a username is taken. Asks the database function username_available when the project
 * has one (anonymous visitors cannot read profiles); otherwise falls back to reading profiles,
 * which only finds names the caller may see.
 */
export async function usernameTaken(username: string): Promise<boolean> {
  const { data, error } = await getSupabase().rpc('username_available', { username });
  if (!error && typeof data === 'boolean') return !data;
  return isUsernameTaken(username);
}

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
    const { error: insertError } = await supabase.from('profiles').insert({
      id: data.user.id,
      username: form.username,
      name: form.name,
      lastname: form.lastname,
      phone: form.phone,
      is_admin: false,
      created_at: new Date().toISOString(),
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
