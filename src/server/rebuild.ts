/**
 * Catalogue rebuilds for the running shop: the endpoint's context, built once from astro:env.
 * The rebuilds themselves are created by scripts/serve.mjs (see src/server/rebuild/).
 */
import { SUPABASE_SERVICE_ROLE_KEY } from 'astro:env/server';
import { PUBLIC_SUPABASE_URL } from 'astro:env/client';
import { registeredRebuilds } from './rebuild/manager.ts';
import type { RebuildContext } from './rebuild/endpoint.ts';
import { createAdminClient } from './supabase-admin.ts';
import { LOCAL_SUPABASE_URL } from '../domain/local-stack.ts';

/**
 * The rebuild endpoints' context: service-role client and the registered rebuilds; the request
 * limit is the endpoint's default, counted in the database so it holds across the server processes.
 */
export function rebuildContext(): RebuildContext {
  const url = (PUBLIC_SUPABASE_URL ?? LOCAL_SUPABASE_URL).replace(/\/+$/, '');
  const admin = SUPABASE_SERVICE_ROLE_KEY ? createAdminClient(url, SUPABASE_SERVICE_ROLE_KEY) : null;
  return { admin, rebuilds: registeredRebuilds() };
}
