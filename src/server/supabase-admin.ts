/**
 * The server's Supabase client with the service role key: it bypasses row-level security, so it
 * is used only after the caller has been authenticated and only for what the caller may do.
 */
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import type { Database } from '~/data/database.types.ts';

const clients = new Map<string, SupabaseClient<Database>>();

/** A service-role client for a project; one per URL and key, reused across requests. */
export function createAdminClient(url: string, serviceRoleKey: string): SupabaseClient<Database> {
  const cacheKey = `${url}\n${serviceRoleKey}`;
  const cached = clients.get(cacheKey);
  if (cached) return cached;
  const client = createClient<Database>(url, serviceRoleKey, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
  });
  clients.set(cacheKey, client);
  return client;
}
