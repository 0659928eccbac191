/**
 * POST /api/internal/catalog-edit: this server publishes a catalogue edit itself, without a build
 * (src/server/rebuild/fast-edit.ts). Only for the shop's own servers: the caller must present the
 * service role key as its bearer token.
 */
import type { APIRoute } from 'astro';
import { SUPABASE_SERVICE_ROLE_KEY } from 'astro:env/server';
import { PUBLIC_SUPABASE_URL } from 'astro:env/client';
import { exploreCatalogChanged } from '~/server/explore/catalog.ts';
import { prepareSearch } from '~/server/explore/warm-up.ts';
import { handle } from '~/server/http/json.ts';
import { postCatalogEdit } from '~/server/rebuild/fast-edit-endpoint.ts';

export const prerender = false;

// This server's /explore reads the catalogue an edit wrote at once, not at its next check (the
// other servers' within a second), and prepares its search before the edit goes on.
export const POST: APIRoute = ({ request }) =>
  handle(() => postCatalogEdit(request, SUPABASE_SERVICE_ROLE_KEY, PUBLIC_SUPABASE_URL, () => exploreCatalogChanged(prepareSearch)));
