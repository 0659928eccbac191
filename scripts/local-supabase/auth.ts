/** Supabase Auth (GoTrue) compatible endpoints under /auth/v1. */
import { sendJson } from './http.ts';
import type { Handler } from './types.ts';

/** Answers every /auth/v1 request. */
export const handleAuth: Handler = async (_req, res) => {
  sendJson(res, 404, { code: 404, error_code: 'not_found', msg: 'Not found' });
};
