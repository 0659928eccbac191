/** Supabase Storage compatible endpoints under /storage/v1. */
import { sendJson } from './http.ts';
import type { Handler, StackContext } from './types.ts';

/** Copies the seed files into the data dir and makes sure their buckets exist. */
export async function seedStorage(_ctx: StackContext): Promise<void> {}

/** Answers every /storage/v1 request. */
export const handleStorage: Handler = async (_req, res) => {
  sendJson(res, 404, { statusCode: '404', error: 'not_found', message: 'Object not found' });
};
