/** What a REST request answers (status, JSON body, headers), sent as PostgREST sends it. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { corsHeaders } from '../http.ts';
import { RestError } from './errors.ts';

/** The Accept type that asks for one object instead of an array. */
export const OBJECT_MEDIA = 'application/vnd.pgrst.object+json';

export interface Reply {
  status: number;
  /** JSON text, or undefined for an empty body. */
  body?: string;
  headers?: Record<string, string>;
}

export function send(req: IncomingMessage, res: ServerResponse, reply: Reply, objectMode = false): void {
  if (res.headersSent) return;
  const headers: Record<string, string> = { ...corsHeaders(), ...(reply.headers ?? {}) };
  if (reply.body !== undefined) {
    headers['content-type'] = `${objectMode ? OBJECT_MEDIA : 'application/json'}; charset=utf-8`;
  }
  res.writeHead(reply.status, headers);
  res.end(req.method === 'HEAD' ? undefined : reply.body);
}

export function sendError(req: IncomingMessage, res: ServerResponse, err: RestError): void {
  send(req, res, { status: err.status, body: JSON.stringify(err.toBody()), headers: err.headers });
}

export function contentRange(offset: number, n: number, total: number | undefined): string {
  const t = total === undefined ? '*' : String(total);
  return n > 0 ? `${offset}-${offset + n - 1}/${t}` : `*/${t}`;
}

export function notSingular(n: number): RestError {
  return new RestError(406, 'PGRST116', 'Cannot coerce the result to a single JSON object', `The result contains ${n} rows`, null);
}

/** Unwraps a JSON array text to its only element (object Accept). */
export function singleBody(body: string, n: number): string {
  if (n !== 1) throw notSingular(n);
  const arr = JSON.parse(body) as unknown[];
  return JSON.stringify(arr[0]);
}
