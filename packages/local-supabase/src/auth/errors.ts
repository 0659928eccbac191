/** GoTrue-shaped error responses for the local auth server. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { corsHeaders } from '../http.ts';

/** An error that becomes a GoTrue error response. */
export class AuthError extends Error {
  constructor(
    readonly status: number,
    readonly errorCode: string,
    message: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

/** Headers every auth response carries; the API version must be readable by browser code. */
export function authHeaders(): Record<string, string> {
  return {
    ...corsHeaders(),
    'access-control-expose-headers': 'content-range, content-location, location, x-supabase-api-version, x-sb-error-code',
  };
}

/** Writes a JSON auth response, echoing the API version header as GoTrue does. */
export function sendAuthJson(req: IncomingMessage, res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (res.headersSent) return;
  const apiVersion = req.headers['x-supabase-api-version'];
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    ...authHeaders(),
    ...(typeof apiVersion === 'string' && apiVersion >= '2024-01-01' ? { 'x-supabase-api-version': '2024-01-01' } : {}),
    ...headers,
  });
  res.end(body === undefined ? '' : JSON.stringify(body));
}

/**
 * Writes an AuthError. Clients that announce the 2024-01-01 API read the string `code`;
 * older ones read `error_code`; both read the message from `msg`/`message`.
 */
export function sendAuthError(req: IncomingMessage, res: ServerResponse, err: AuthError): void {
  const apiVersion = req.headers['x-supabase-api-version'];
  const modern = typeof apiVersion === 'string' && apiVersion >= '2024-01-01';
  const body = modern
    ? { code: err.errorCode, error_code: err.errorCode, msg: err.message, message: err.message, ...err.extra }
    : { code: err.status, error_code: err.errorCode, msg: err.message, ...err.extra };
  sendAuthJson(req, res, err.status, body, { 'x-sb-error-code': err.errorCode });
}
