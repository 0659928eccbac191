/**
 * The newsletter's subscribers, through /api/admin/newsletter (the table is not readable from the
 * browser).
 */
import type * as z from 'zod/mini';
import { safeCallApi, authHeaders } from '../api.ts';
import { subscribersAnswer } from '~/domain/api-answers.ts';

/** One newsletter subscriber. */
export type Subscriber = z.infer<typeof subscribersAnswer>['subscribers'][number];

/** Every subscriber (through the server: the table is not readable from the browser). */
export async function loadSubscribers(): Promise<Subscriber[] | null> {
  const answer = await safeCallApi('/api/admin/newsletter', { schema: subscribersAnswer });
  return answer.ok && answer.data ? answer.data.subscribers : null;
}

/** The subscribers as a CSV file; throws when it cannot be had. */
export async function downloadSubscribersCsv(): Promise<Blob> {
  const response = await fetch('/api/admin/newsletter.csv', { headers: await authHeaders() });
  if (!response.ok) throw new Error(String(response.status));
  return response.blob();
}
