/** storage-api's error answers: `{ statusCode, error, message }` with the HTTP status. */
import type { ServerResponse } from 'node:http';
import { corsHeaders } from '../http.ts';

export class StorageError extends Error {
  constructor(
    readonly status: number,
    readonly error: string,
    message: string,
  ) {
    super(message);
  }
}

export const notFound = () => new StorageError(404, 'not_found', 'Object not found');
export const bucketNotFound = () => new StorageError(404, 'Bucket not found', 'Bucket not found');
export const invalidKey = () => new StorageError(400, 'InvalidKey', 'Invalid key');

export function sendStorageError(res: ServerResponse, err: StorageError): void {
  if (res.headersSent) return;
  res.writeHead(err.status, { 'content-type': 'application/json; charset=utf-8', ...corsHeaders() });
  res.end(JSON.stringify({ statusCode: String(err.status), error: err.error, message: err.message }));
}

function pgCode(err: unknown): string | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** Maps a database failure of a write to storage-api's answer. */
export function mapDbError(err: unknown): never {
  if (err instanceof StorageError) throw err;
  const code = pgCode(err);
  if (code === '42501') throw new StorageError(403, 'Unauthorized', 'new row violates row-level security policy');
  if (code === '23505') throw new StorageError(409, 'Duplicate', 'The resource already exists');
  if (code === '23503') throw bucketNotFound();
  if (code === 'ENOTDIR' || code === 'EEXIST' || code === 'EISDIR') {
    throw new StorageError(409, 'Duplicate', 'The object path conflicts with an existing object');
  }
  // Any other database refusal (a check constraint, a too-long value) is the request's fault.
  if (code && /^[0-9A-Z]{5}$/.test(code) && /\d/.test(code)) throw new StorageError(400, 'InvalidRequest', (err as Error).message);
  throw err;
}
