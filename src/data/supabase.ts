/**
 * The one browser Supabase client of the shop. Every data module and island imports it from here
 * so the whole page shares a single auth session and a single realtime connection.
 */
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import { PUBLIC_SUPABASE_ANON_KEY, PUBLIC_SUPABASE_URL } from 'astro:env/client';
import type { Database } from './database.types.ts';
import { LOCAL_SUPABASE_URL } from '~/domain/local-stack.ts';

let client: SupabaseClient<Database> | null = null;

/** The project URL the shop talks to (configured, else the local stack). */
export function supabaseUrl(): string {
  return (PUBLIC_SUPABASE_URL ?? LOCAL_SUPABASE_URL).replace(/\/+$/, '');
}

/** The shared Supabase client, created on first use. */
export function getSupabase(): SupabaseClient<Database> {
  if (client) return client;
  client = createClient<Database>(supabaseUrl(), PUBLIC_SUPABASE_ANON_KEY ?? 'anon-key-missing', {
    auth: {
      // Outside the browser (build, server routes) there is no storage to keep a session in.
      persistSession: typeof window !== 'undefined',
      autoRefreshToken: typeof window !== 'undefined',
      detectSessionInUrl: typeof window !== 'undefined',
    },
  });
  return client;
}
