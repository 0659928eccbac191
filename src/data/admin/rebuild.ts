/**
 * The catalogue rebuild as the back office sees and starts it, through /api/admin/rebuild.
 */
import { safeCallApi, type ApiAnswer } from '../api.ts';
import type * as z from 'zod/mini';
import { rebuildStartedAnswer, rebuildStatusAnswer } from '~/domain/api-answers.ts';

/** The rebuild endpoint's status answer (checked with rebuildStatusAnswer; read leniently by the back office). */
export interface RebuildStatus {
  status?: string;
  startedAt?: string | null;
  finishedAt?: string | null;
  durationMs?: number | null;
  lastError?: string | null;
  lastSuccessAt?: string | null;
  lastSuccess?: string | null;
  pagesWritten?: number | null;
  lastPages?: number | null;
  progress?:
    | { phase?: string; pagesWritten?: number; pagesExpected?: number | null; percent?: number | null; pagesTotal?: number; total?: number; done?: number }
    | number
    | null;
  [key: string]: unknown;
}

/** The catalogue rebuild's state. */
export function loadRebuildStatus(): Promise<ApiAnswer<RebuildStatus>> {
  return safeCallApi<RebuildStatus>('/api/admin/rebuild', { schema: rebuildStatusAnswer });
}

/** Asks for a catalogue rebuild (for a product, when given). */
export function startRebuild(reason?: { productId?: string }): Promise<ApiAnswer<z.infer<typeof rebuildStartedAnswer>>> {
  return safeCallApi('/api/admin/rebuild', { method: 'POST', body: reason ?? {}, schema: rebuildStartedAnswer });
}

/** Asks for a catalogue rebuild; false when it could not be started. */
export async function requestRebuild(reason?: { productId?: string }): Promise<boolean> {
  return (await startRebuild(reason)).ok;
}

/** Whether a catalogue rebuild is still running or queued (false when idle or unknown). */
export async function rebuildRunning(): Promise<boolean> {
  const answer = await loadRebuildStatus();
  return answer.ok && (answer.data?.status === 'building' || answer.data?.status === 'queued');
}
