/**
 * POST and GET /api/admin/rebuild, independent of Astro so tests can call them with a plain
 * Request. Only an admin may ask: the caller's Supabase access token is verified with Supabase
 * Auth and profiles.is_admin is read with the service role, never taken from the token's claims.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { bearerToken } from '../auth.ts';
import { ApiError, errorResponse, json } from '../http.ts';
import type { Rebuilds } from './manager.ts';

/** What the rebuild endpoints need from the server. */
export interface RebuildContext {
  /** Service-role client; null when the server has no service role key. */
  admin: SupabaseClient | null;
  /** The server's rebuild manager; null when this server cannot rebuild (e.g. astro dev). */
  rebuilds: Rebuilds | null;
}

/** 401 without a valid token, 403 for a signed-in shopper; resolves for an admin. */
export async function requireAdmin(request: Request, admin: SupabaseClient): Promise<string> {
  const token = bearerToken(request);
  if (!token || token.length > 8192) {
    throw new ApiError(401, 'Debes iniciar sesión como administrador.', 'not_authenticated');
  }
  const { data, error } = await admin.auth.getUser(token);
  if (error || !data.user) {
    throw new ApiError(401, 'Tu sesión no es válida o expiró. Inicia sesión de nuevo.', 'not_authenticated');
  }
  const profile = await admin.from('profiles').select('is_admin').eq('id', data.user.id).maybeSingle();
  if (profile.error) throw new ApiError(502, 'No se pudo verificar tu cuenta. Intenta de nuevo.', 'upstream_error');
  if (profile.data?.is_admin !== true) {
    throw new ApiError(403, 'Solo un administrador puede reconstruir el catálogo.', 'forbidden');
  }
  return data.user.id;
}

async function guarded(request: Request, ctx: RebuildContext, run: (rebuilds: Rebuilds) => Response): Promise<Response> {
  try {
    if (!ctx.admin) throw new ApiError(503, 'Falta SUPABASE_SERVICE_ROLE_KEY en el servidor.', 'not_configured');
    await requireAdmin(request, ctx.admin);
    if (!ctx.rebuilds) {
      throw new ApiError(503, 'Este servidor no puede reconstruir el catálogo; inícialo con `npm start`.', 'not_available');
    }
    return run(ctx.rebuilds);
  } catch (error) {
    if (error instanceof ApiError) return errorResponse(error.status, error.message, error.code);
    console.error('[rebuild] error inesperado', error);
    return errorResponse(502, 'No se pudo verificar tu cuenta. Intenta de nuevo.', 'upstream_error');
  }
}

/** POST: starts a rebuild, or queues one more if one is running; 202 {status}. */
export function postRebuild(request: Request, ctx: RebuildContext): Promise<Response> {
  return guarded(request, ctx, (rebuilds) => {
    const state = rebuilds.request('admin');
    return json({ status: state.status, startedAt: state.startedAt }, 202);
  });
}

/** GET: the rebuild status. */
export function getRebuild(request: Request, ctx: RebuildContext): Promise<Response> {
  return guarded(request, ctx, (rebuilds) => json(rebuilds.status()));
}
