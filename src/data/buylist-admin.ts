/**
 * The back office's 'Compras' from the browser: the owner's steps on a submission go to the
 * database's admin functions (each checks is_admin and the submission's state, and records the
 * change); the buylist's entries and settings are rows admins edit under row-level security.
 */
import type { CardCondition } from '~/domain/singles.ts';
import { getSupabase } from './supabase.ts';
import type { ActionAnswer } from './buylist.ts';

function answerOf(error: { code?: string; message: string } | null): ActionAnswer {
  if (!error) return { ok: true };
  return { ok: false, message: error.code === 'P0001' || error.code === '42501' ? error.message : null };
}

/** Marks a submission's package as received. */
export async function receiveSale(id: string): Promise<ActionAnswer> {
  const { error } = await getSupabase().rpc('admin_buylist_receive', { p_submission: id });
  return answerOf(error);
}

/** Reviews a line: its condition (the price follows) and how many copies are rejected, with why. */
export async function reviewLine(lineId: string, condition: CardCondition, rejected: number, reason: string | null): Promise<ActionAnswer> {
  const { error } = await getSupabase().rpc('admin_buylist_review_line', {
    p_line: lineId,
    p_condition: condition,
    p_rejected: rejected,
    p_reason: reason as string,
  });
  return answerOf(error);
}

/** Moves `quantity` copies of a line to a line of their own, to review them apart. */
export async function splitLine(lineId: string, quantity: number): Promise<ActionAnswer> {
  const { error } = await getSupabase().rpc('admin_buylist_split_line', { p_line: lineId, p_quantity: quantity });
  return answerOf(error);
}

/** Sends the reviewed offer to the shopper (accepted at once when nothing changed). */
export async function sendOffer(id: string): Promise<ActionAnswer> {
  const { error } = await getSupabase().rpc('admin_buylist_send_offer', { p_submission: id });
  return answerOf(error);
}

/** Records the transfer's payment with its reference. */
export async function markPaid(id: string, reference: string): Promise<ActionAnswer> {
  const { error } = await getSupabase().rpc('admin_buylist_mark_paid', { p_submission: id, p_reference: reference });
  return answerOf(error);
}

/** Records the cards shipped back with their tracking number. */
export async function markReturned(id: string, tracking: string): Promise<ActionAnswer> {
  const { error } = await getSupabase().rpc('admin_buylist_mark_returned', { p_submission: id, p_tracking: tracking });
  return answerOf(error);
}
