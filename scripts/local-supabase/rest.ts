/** PostgREST-compatible `/rest/v1`. */
import { sendJson } from './http.ts';
import type { Handler } from './types.ts';

/** Answers every /rest/v1 request. */
export const handleRest: Handler = async (_req, res) => {
  sendJson(res, 404, { code: 'PGRST205', message: 'Not implemented', details: null, hint: null });
};
