/** POST /api/admin/rebuild starts a catalogue rebuild (admins only); GET reports its status. */
import type { APIRoute } from 'astro';
import { rebuildContext } from '~/server/context.ts';
import { getRebuild, postRebuild } from '~/server/admin/rebuild.ts';

export const prerender = false;

export const POST: APIRoute = ({ request }) => postRebuild(request, rebuildContext());
export const GET: APIRoute = ({ request }) => getRebuild(request, rebuildContext());
