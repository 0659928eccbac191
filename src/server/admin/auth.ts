/**
 * Who may use the back office's endpoints: the caller's Supabase access token is verified with
 * Supabase Auth and profiles.is_admin is read with the service role, never taken from the token.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import type { Database } from '../../data/database.types.ts';
import { bearerToken } from '../auth.ts';
import { ApiError } from '../http.ts';

/** An admin calling a back-office endpoint, with the token to act as them in the database. */
export interface AdminCaller {
  id: string;
  token: string;
}

/** 401 without a valid token, 403 for anyone who is not an admin. */
export async function requireAdminCaller(request: Request, admin: SupabaseClient<Database>): Promise<AdminCaller> {
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
    throw new ApiError(403, 'No tienes acceso', 'forbidden');
  }
  return { id: data.user.id, token };
}
