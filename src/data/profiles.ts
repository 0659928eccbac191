/**
 * The `profiles` table: one row per auth user, created by a database trigger at sign-up.
 * A user reads and edits only their own row (row-level security plus column grants).
 */
import type { PostgrestError } from '@supabase/supabase-js';
import { getSupabase } from './supabase.ts';
import type { Tables } from './database.types.ts';

/** A profile row as stored. */
export type Profile = Tables<'profiles'>;

/** The fields a user may change on their own profile. */
export interface ProfileUpdate {
  username: string | null;
  name: string | null;
  lastname: string | null;
  phone: string | null;
}

/** Result of a data call: the value or the backend error, never a throw. */
export type DataResult<T> = { data: T; error: null } | { data: null; error: PostgrestError | Error };

const PROFILE_COLUMNS = 'id, username, name, lastname, phone, is_admin, created_at, stripe_customer_id';

/** The profile of a user, or null when the row does not exist (or RLS hides it). */
export async function getProfile(userId: string): Promise<DataResult<Profile | null>> {
  const { data, error } = await getSupabase().from('profiles').select(PROFILE_COLUMNS).eq('id', userId).maybeSingle();
  if (error) return { data: null, error };
  return { data: data ?? null, error: null };
}

/** Saves the editable fields of a profile; empty username and phone become null. */
export async function updateProfile(userId: string, input: ProfileUpdate): Promise<DataResult<Profile>> {
  const blankToNull = (value: string | null) => (value === null || value.trim() === '' ? null : value.trim());
  const { data, error } = await getSupabase()
    .from('profiles')
    .update({
      username: blankToNull(input.username),
      name: input.name?.trim() ?? null,
      lastname: input.lastname?.trim() ?? null,
      phone: blankToNull(input.phone),
    })
    .eq('id', userId)
    .select(PROFILE_COLUMNS)
    .single();
  if (error) return { data: null, error };
  return { data, error: null };
}

/**
 * Whether another profile already uses this username (case-insensitive, as the unique index is).
 * Only signed-in users can read profiles, and only their own, so for anyone else this reports
 * "free" and the database's unique index has the last word.
 */
export async function isUsernameTaken(username: string, exceptId?: string | null): Promise<boolean> {
  const wanted = username.trim();
  if (wanted === '') return false;
  // ilike without wildcards is a case-insensitive equality; escape the pattern characters.
  const pattern = wanted.replace(/[\\%_]/g, (c) => `\\${c}`);
  let query = getSupabase().from('profiles').select('id, username').ilike('username', pattern).limit(5);
  if (exceptId) query = query.neq('id', exceptId);
  const { data, error } = await query;
  if (error) return false;
  return (data ?? []).length > 0;
}

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

/** The fields of a new shopper's profile. */
export interface NewProfile {
  username: string;
  name: string;
  lastname: string;
  phone: string;
}

/** Creates a shopper's profile row (never an admin); for projects without the sign-up trigger. */
export async function createProfile(userId: string, input: NewProfile): Promise<{ error: PostgrestError | null }> {
  const { error } = await getSupabase()
    .from('profiles')
    .insert({ id: userId, ...input, is_admin: false, created_at: new Date().toISOString() });
  return { error };
}

/** Whether a failed profile write was the unique username index refusing a taken name. */
export function isUsernameConflict(error: unknown): boolean {
  if (!error || typeof error !== 'object') return false;
  const e = error as { code?: unknown; message?: unknown; details?: unknown };
  const text = `${String(e.message ?? '')} ${String(e.details ?? '')}`;
  return e.code === '23505' && /username/i.test(text);
}
