/** Who is calling: the Supabase user behind the request's `Authorization: Bearer` access token. */
import type { SupabaseClient } from '@supabase/supabase-js';
import type { Database } from '../data/database.types.ts';
import { ApiError } from './http.ts';

/** The authenticated caller of an endpoint. */
export interface Caller {
  id: string;
  email: string | null;
}

/** The bearer token of a request, or null. */
export function bearerToken(request: Request): string | null {
  const header = request.headers.get('authorization') ?? '';
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match ? match[1]! : null;
}

/** Verifies the caller's access token with Supabase Auth; 401 when missing or not valid. */
export async function authenticate(request: Request, admin: SupabaseClient<Database>): Promise<Caller> {
  const token = bearerToken(request);
  if (!token || token.length > 8192) {
    throw new ApiError(401, 'Debes iniciar sesión para finalizar tu compra.', 'not_authenticated');
  }
  const { data, error } = await admin.auth.getUser(token);
  if (error || !data.user) {
    throw new ApiError(401, 'Tu sesión no es válida o expiró. Inicia sesión de nuevo.', 'not_authenticated');
  }
  return { id: data.user.id, email: data.user.email ?? null };
}
