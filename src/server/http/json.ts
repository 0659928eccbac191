/**
 * JSON answers and request parsing for the shop's server endpoints. Every failure a caller can
 * cause becomes a 4xx with a Spanish message; nothing a request carries can produce a 500.
 */
import type { z } from 'zod';
import type { input, ZodMiniType } from 'zod/mini';
import { API_REQUEST_TEXT } from '~/i18n/api.ts';

/** A failure to report to the caller with its HTTP status. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code: string = 'error',
  ) {
    super(message);
  }
}

/** A JSON response with no caching (every answer here is personal). */
export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', ...headers },
  });
}

/**
 * A success answer of the shape the browser parses it with (src/domain/api-answers.ts): `body`
 * must fit the schema when the project type-checks; nothing is parsed at run time.
 */
export function answer<S extends ZodMiniType>(_schema: S, body: input<S>, status = 200): Response {
  return json(body, status);
}

/** The JSON error body every endpoint uses: {error, message}. */
export function errorResponse(status: number, message: string, code = 'error'): Response {
  return json({ error: code, message }, status);
}

/** Largest request body an endpoint reads; payment requests are a few hundred bytes. */
export const MAX_BODY_BYTES = 16 * 1024;

/** What a body over its endpoint's limit gets: 413, however it was sent. */
function tooLarge(): ApiError {
  return new ApiError(413, API_REQUEST_TEXT.tooLarge, 'payload_too_large');
}

/**
 * The raw body as text, at most `limit` bytes, refused with 413 beyond that. A declared
 * Content-Length over the limit is refused before anything is read; a body sent without one (in
 * chunks) or longer than it says is read only until it passes the limit, then the rest is left
 * unread (the stream is cancelled), so no body is ever held whole in memory beyond `limit`.
 */
export async function readText(request: Request, limit = MAX_BODY_BYTES): Promise<string> {
  const declared = Number(request.headers.get('content-length') ?? '0');
  if (Number.isFinite(declared) && declared > limit) throw tooLarge();
  if (request.bodyUsed) throw new ApiError(400, API_REQUEST_TEXT.unreadable, 'bad_request');
  const body = request.body;
  if (!body) return '';
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  let bytes = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      bytes += value.byteLength;
      if (bytes > limit) {
        // Nothing more is read: the sender's remaining bytes are never pulled.
        reader.cancel().catch(() => {});
        throw tooLarge();
      }
      text += decoder.decode(value, { stream: true });
    }
  } catch (error) {
    if (error instanceof ApiError) throw error;
    // The server's own cap on any body (the Node adapter's bodySizeLimit, astro.config.mjs).
    if (isSizeLimit(error)) throw tooLarge();
    throw new ApiError(400, API_REQUEST_TEXT.unreadable, 'bad_request');
  }
  return text + decoder.decode();
}

/** Whether a body's stream failed because the server's own cap on bodies was passed (the error or its cause). */
function isSizeLimit(error: unknown): boolean {
  for (let cause = error, depth = 0; cause instanceof Error && depth < 3; cause = cause.cause, depth++) {
    if (/body size limit/i.test(cause.message)) return true;
  }
  return false;
}

/** Parses a JSON body with a schema; bad JSON or bad fields give a 400 with the schema's message. */
export async function readJson<T>(request: Request, schema: z.ZodType<T>, allowEmpty = false, limit = MAX_BODY_BYTES): Promise<T> {
  const text = await readText(request, limit);
  let value: unknown = {};
  if (text.trim() !== '') {
    try {
      value = JSON.parse(text);
    } catch {
      throw new ApiError(400, API_REQUEST_TEXT.invalidJson, 'invalid_json');
    }
  } else if (!allowEmpty) {
    value = {};
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    const message = parsed.error.issues[0]?.message ?? API_REQUEST_TEXT.invalidData;
    throw new ApiError(400, message, 'invalid_request');
  }
  return parsed.data;
}

/** Runs an endpoint body and turns every thrown error into a JSON answer (never an unhandled 500). */
export async function handle(run: () => Promise<Response>): Promise<Response> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof ApiError) return errorResponse(error.status, error.message, error.code);
    console.error('[api] error inesperado', error);
    // A provider or database outage is not the caller's fault, but it is not a crash either.
    return errorResponse(502, API_REQUEST_TEXT.upstream, 'upstream_error');
  }
}
