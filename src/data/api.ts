/**
 * The one client of the shop's own /api endpoints from the browser: every call carries the
 * signed-in user's access token (the only place that reads it), and every successful answer is
 * checked against the schema the caller gives (src/domain/api-answers.ts, shared with the server's handlers) before anyone uses it. Uses
 * zod/mini, so it stays small in the pages that load it.
 */
import * as z from 'zod/mini';
import { ACCOUNT_API_MESSAGES } from '~/i18n/account.ts';
import { getSupabase } from './supabase.ts';

/** The signed-in user's access token, or null when nobody is signed in. */
export async function accessToken(): Promise<string | null> {
  const { data } = await getSupabase().auth.getSession();
  return data.session?.access_token ?? null;
}

/** The Authorization header for the shop's endpoints (none when nobody is signed in). */
export async function authHeaders(): Promise<Record<string, string>> {
  const token = await accessToken();
  return token ? { Authorization: `Bearer ${token}` } : {};
}

/** An answer from one of the shop's endpoints. */
export interface ApiAnswer<T> {
  ok: boolean;
  status: number;
  /** The checked body of a successful answer (null on failure). */
  data: T | null;
  /** The server's `message` on a failure, when it sent one. */
  message: string | null;
  /** The server's `error` code on a failure (e.g. 'address_incomplete'), when it sent one. */
  code?: string | null;
}

/** A call: method (GET unless a body is sent), JSON body, and the schema of a successful answer. */
export interface ApiRequest<T> {
  method?: 'GET' | 'POST';
  body?: unknown;
  /** What a successful answer must look like; one that does not match is ok false. */
  schema: z.ZodMiniType<T>;
}

const errorBody = z.looseObject({ message: z.optional(z.string()), error: z.optional(z.string()) });

/**
 * Calls a shop endpoint with the caller's token. Throws only when the network fails; a refusal is
 * an answer with ok false and the server's message.
 */
export async function callApi<T>(path: string, request: ApiRequest<T>): Promise<ApiAnswer<T>> {
  const hasBody = request.body !== undefined;
  const response = await fetch(path, {
    method: request.method ?? (hasBody ? 'POST' : 'GET'),
    headers: { ...(hasBody ? { 'Content-Type': 'application/json' } : {}), ...(await authHeaders()) },
    body: hasBody ? JSON.stringify(request.body) : undefined,
  });
  const json: unknown = await response.json().catch(() => null);
  if (!response.ok) {
    const failure = errorBody.safeParse(json);
    return {
      ok: false,
      status: response.status,
      data: null,
      message: failure.success ? (failure.data.message ?? null) : null,
      code: failure.success ? (failure.data.error ?? null) : null,
    };
  }
  const checked = request.schema.safeParse(json);
  // An answer that does not match is a failure; the caller says so in its own words.
  if (!checked.success) return { ok: false, status: response.status, data: null, message: null };
  return { ok: true, status: response.status, data: checked.data, message: null };
}

/** POSTs JSON to a shop endpoint with the caller's token (see callApi). */
export function postApi<T>(path: string, body: unknown, schema: z.ZodMiniType<T>): Promise<ApiAnswer<T>> {
  return callApi(path, { method: 'POST', body, schema });
}

/** As callApi, but a network failure is an answer too (status 0, a Spanish message). */
export async function safeCallApi<T>(path: string, request: ApiRequest<T>): Promise<ApiAnswer<T>> {
  try {
    return await callApi(path, request);
  } catch {
    return { ok: false, status: 0, data: null, message: ACCOUNT_API_MESSAGES.unreachable };
  }
}
