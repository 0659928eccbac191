/**
 * The server's Supabase clients and the project URL they talk to, in one place:
 * - projectUrl: PUBLIC_SUPABASE_URL as configured, else the local stack's, without a trailing slash;
 * - createAdminClient: the service-role client, which bypasses row-level security, so it is used
 *   only after the caller has been authenticated and only for what the caller may do;
 * - createUserClient: the anonymous key, acting as a signed-in user when given their token (the
 *   back office's admin actions, so the database's RLS and grants decide), else as anyone (the
 *   live stock's reads).
 * Free of astro:env, so scripts and tests build the same clients from their own settings.
 */
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import type { Database } from '~/data/database.types.ts';
import { LOCAL_SUPABASE_URL } from '~/domain/local-stack.ts';

/** No session stored, refreshed or read from the address: every server client is per request or per process. */
const NO_SESSION = { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false } as const;

/** The project URL the server talks to: the configured one, else the local stack's; no trailing slash. */
export function projectUrl(configured: string | null | undefined): string {
  return (configured || LOCAL_SUPABASE_URL).replace(/\/+$/, '');
}

const clients = new Map<string, SupabaseClient<Database>>();

/** A service-role client for a project; one per URL and key, reused across requests. */
export function createAdminClient(url: string, serviceRoleKey: string): SupabaseClient<Database> {
  const cacheKey = `${url}\n${serviceRoleKey}`;
  const cached = clients.get(cacheKey);
  if (cached) return cached;
  const client = createClient<Database>(url, serviceRoleKey, { auth: NO_SESSION });
  clients.set(cacheKey, client);
  return client;
}

/** A client with the anonymous key, acting as the user whose access token is given (else as anyone). */
export function createUserClient(url: string, anonKey: string | null | undefined, token?: string): SupabaseClient<Database> {
  return createClient<Database>(url, anonKey || 'anon-key-missing', {
    auth: NO_SESSION,
    ...(token ? { global: { headers: { Authorization: `Bearer ${token}` } } } : {}),
  });
}
