/** The back office's server context: the shop's context plus a client that acts as the caller. */
import { createClient } from '@supabase/supabase-js';
import type { Database } from '../../data/database.types.ts';
import { PUBLIC_SUPABASE_ANON_KEY, PUBLIC_SUPABASE_URL } from 'astro:env/client';
import { serverContext } from '../context.ts';
import type { AdminContext } from './orders.ts';
import { LOCAL_SUPABASE_URL } from '../../domain/local-stack.ts';

/** serverContext() plus asUser(token): the database sees the admin, and its RLS and grants decide. */
export function adminContext(): AdminContext {
  const base = serverContext();
  const url = (PUBLIC_SUPABASE_URL ?? LOCAL_SUPABASE_URL).replace(/\/+$/, '');
  return {
    ...base,
    asUser: (token: string) =>
      createClient<Database>(url, PUBLIC_SUPABASE_ANON_KEY ?? 'anon-key-missing', {
        auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
        global: { headers: { Authorization: `Bearer ${token}` } },
      }),
  };
}
