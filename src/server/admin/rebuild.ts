/**
 * POST and GET /api/admin/rebuild: an admin asks for a catalogue rebuild, or reads how it goes.
 * Independent of Astro so tests can call them with a plain Request; the context is built by
 * rebuildContext() in ../context.ts. Only an admin may ask (requireAdmin, as every back-office
 * endpoint); the rebuilds themselves run outside requests (../rebuild/).
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import type { Database } from '~/data/database.types.ts';
import { requireAdmin } from '../http/auth.ts';
import { answer, ApiError, errorResponse, json } from '../http/json.ts';
import type { Rebuilds } from '../rebuild/types.ts';
import * as answers from '~/domain/api-answers.ts';
import { ADMIN_REBUILD_API_TEXT } from '~/i18n/admin.ts';

/** What the rebuild endpoints need from the server. */
export interface RebuildContext {
  /** Service-role client; null when the server has no service role key. */
  admin: SupabaseClient<Database> | null;
  /** The server's registered rebuilds; null when this server cannot rebuild (e.g. astro dev). */
  rebuilds: Rebuilds | null;
  /** The admins' request limit; default: counted in the database (sharedRateLimiter). */
  limiter?: RequestLimiter;
}

/** Counts requests per key; take() answers 0 when one more is allowed, else the seconds to wait. */
export interface RequestLimiter {
  readonly limit: number;
  take(key: string): number | Promise<number>;
}

/** Six rebuild requests an hour per admin: more answer 429 (a build costs the server minutes). */
export const REBUILDS_PER_HOUR = 6;

/**
 * The same limit counted in the database (take_rebuild_request), so an admin gets six requests an
 * hour whichever of several server processes answers them.
 */
export function sharedRateLimiter(admin: SupabaseClient<Database>, limit = REBUILDS_PER_HOUR, windowMs = 60 * 60 * 1000): RequestLimiter {
  return {
    limit,
    async take(key: string): Promise<number> {
      const { data, error } = await admin.rpc('take_rebuild_request', { p_admin: key, p_limit: limit, p_window_seconds: Math.round(windowMs / 1000) });
      if (error) throw new ApiError(502, ADMIN_REBUILD_API_TEXT.limitUnavailable, 'upstream_error');
      return Number(data) || 0;
    },
  };
}

async function guarded(
  request: Request,
  ctx: RebuildContext,
  run: (rebuilds: Rebuilds, adminId: string, admin: SupabaseClient<Database>) => Response | Promise<Response>,
): Promise<Response> {
  try {
    if (!ctx.admin) throw new ApiError(503, ADMIN_REBUILD_API_TEXT.notConfigured, 'not_configured');
    const { id: adminId } = await requireAdmin(request, ctx.admin, ADMIN_REBUILD_API_TEXT.adminsOnly);
    if (!ctx.rebuilds) {
      throw new ApiError(503, ADMIN_REBUILD_API_TEXT.notAvailable, 'not_available');
    }
    return await run(ctx.rebuilds, adminId, ctx.admin);
  } catch (error) {
    if (error instanceof ApiError) return errorResponse(error.status, error.message, error.code);
    console.error('[rebuild] error inesperado', error);
    return errorResponse(502, ADMIN_REBUILD_API_TEXT.accountCheckFailed, 'upstream_error');
  }
}

/**
 * POST: starts a rebuild, or queues one more if one is running; 202 {status}. An admin may ask
 * six times an hour; beyond that 429 with Retry-After.
 */
export function postRebuild(request: Request, ctx: RebuildContext, given: RequestLimiter | undefined = ctx.limiter): Promise<Response> {
  return guarded(request, ctx, async (rebuilds, adminId, admin) => {
    const limiter = given ?? sharedRateLimiter(admin);
    const wait = await limiter.take(adminId);
    if (wait > 0) {
      return json({ error: 'rate_limited', message: ADMIN_REBUILD_API_TEXT.rateLimited(limiter.limit, Math.ceil(wait / 60)) }, 429, {
        'retry-after': String(wait),
      });
    }
    // An admin's request rebuilds everything (the admin may have changed more than products).
    const state = await Promise.resolve()
      .then(() => rebuilds.request('admin'))
      .catch((error: unknown) => {
        console.error('[rebuild] no se pudo pedir la reconstrucción', error);
        throw new ApiError(502, ADMIN_REBUILD_API_TEXT.requestFailed, 'upstream_error');
      });
    return answer(answers.rebuildStartedAnswer, { status: state.status, startedAt: state.startedAt }, 202);
  });
}

/** GET: the rebuild status (of every server process of the site, with shared rebuilds). */
export function getRebuild(request: Request, ctx: RebuildContext): Promise<Response> {
  return guarded(request, ctx, async (rebuilds) => {
    const status = await Promise.resolve()
      .then(() => rebuilds.status())
      .catch((error: unknown) => {
        console.error('[rebuild] no se pudo leer el estado', error);
        throw new ApiError(502, ADMIN_REBUILD_API_TEXT.statusFailed, 'upstream_error');
      });
    return answer(answers.rebuildStatusAnswer, status);
  });
}
