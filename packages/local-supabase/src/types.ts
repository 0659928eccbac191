/** Shared types for the local Supabase-compatible stack. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Db } from './db.ts';
import type { StackConfig } from './config.ts';

/** Everything a protocol module needs to answer a request. */
export interface StackContext {
  db: Db;
  config: StackConfig;
}

/**
 * A protocol module's HTTP handler. `path` is the part after the module's prefix
 * (for example `/products` for `/rest/v1/products`), without the query string.
 * It must always answer (never throw for bad input); the router turns an unexpected
 * throw into a JSON 500 and logs it.
 */
export type Handler = (req: IncomingMessage, res: ServerResponse, path: string, url: URL, ctx: StackContext) => Promise<void>;
