/**
 * The signed-in user of this tab: the Supabase auth user, their profile (with the admin flag) and
 * whether either is still loading. Follows supabase.auth.onAuthStateChange, so signing in or out
 * in another tab, a confirmation link or a token refresh all land here. Change it only through the
 * functions exported here and the auth flows of ./auth.ts (sign-in, sign-out, sign-up, password
 * recovery, Google, password change, resending the confirmation e-mail).
 */
import { atom } from 'nanostores';
import type { AuthChangeEvent, Session, User } from '@supabase/supabase-js';
import { getSupabase } from '~/data/supabase.ts';
import { getProfile, type Profile } from '~/data/profiles.ts';
import { AUTH_SESSION_MESSAGES } from '~/i18n/auth.ts';

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

/** The profile as the store keeps it. */
export function toSessionProfile(profile: Profile): SessionProfile {
  // Only the database column counts: user metadata is writable by the user.
  return { ...profile, isAdmin: profile.is_admin === true };
}

/**
 * A sign-in or sign-out is taking over the store: a read of the user or profile started before it
 * must not write its answer afterwards (src/stores/auth.ts calls this before it changes the store).
 */
export function overtakeSessionReads(): void {
  loadSeq += 1;
  authEpoch += 1;
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
      error: { kind: 'failed', message: AUTH_SESSION_MESSAGES.loadFailed },
    });
    return;
  }
  if (!result.data) {
    $session.set({
      ...$session.get(),
      user,
      profile: null,
      loading: false,
      error: { kind: 'unavailable', message: AUTH_SESSION_MESSAGES.profileMissing },
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
          error: { kind: 'unavailable', message: AUTH_SESSION_MESSAGES.sessionUnavailable },
        });
      } else {
        $session.set({ ...$session.get(), loading: false, error: { kind: 'failed', message: AUTH_SESSION_MESSAGES.loadFailed } });
      }
      return;
    }
    await loadProfileFor(data.user);
  } catch {
    if (overtaken()) return;
    $session.set({ ...$session.get(), loading: false, error: { kind: 'failed', message: AUTH_SESSION_MESSAGES.loadFailed } });
  }
}

/** Puts a freshly saved profile into the store (after an edit or a live change). */
export function setProfile(profile: Profile): void {
  const current = $session.get();
  if (current.user?.id !== profile.id) return;
  $session.set({ ...current, profile: toSessionProfile(profile) });
}

/** Reads the signed-in user's profile again (after a live change of the row). */
export async function reloadProfile(): Promise<void> {
  const userId = $session.get().user?.id;
  if (!userId) return;
  const result = await getProfile(userId);
  if (result.data) setProfile(result.data);
}
