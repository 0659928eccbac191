/**
 * The back office's 'Compras' from the browser: the owner's steps on a submission go to the
 * database's admin functions (each checks is_admin and the submission's state, and records the
 * change); the buylist's entries and settings are edited directly, under row-level security.
 */
import { toCentavos, type Centavos } from '~/domain/money.ts';
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

/** A buylist entry as the editor shows it. */
export interface AdminEntry {
  id: string;
  productId: string;
  name: string;
  language: string | null;
  finish: string | null;
  active: boolean;
  wanted: number;
  nmPrice: Centavos | null;
  reserved: number;
  bought: number;
}

/** Every entry of the buylist (admins read the inactive ones too), by card; null when it could not be read. */
export async function loadEntries(): Promise<AdminEntry[] | null> {
  const { data, error } = await getSupabase()
    .from('buylist_entries')
    .select('id, product_id, language, finish, active, wanted, nm_price, reserved, bought')
    .order('product_id')
    .limit(2000);
  if (error || !data) return null;
  const products = await getSupabase()
    .from('products')
    .select('id, name')
    .in('id', [...new Set(data.map((row) => row.product_id))]);
  const names = new Map((products.data ?? []).map((product) => [product.id, product.name]));
  return data.map((row) => {
    const name = names.get(row.product_id);
    return {
      id: row.id,
      productId: row.product_id,
      name: name ?? row.product_id,
      language: row.language,
      finish: row.finish,
      active: row.active,
      wanted: row.wanted,
      nmPrice: row.nm_price === null ? null : toCentavos(row.nm_price),
      reserved: row.reserved,
      bought: row.bought,
    };
  });
}

/** Saves an entry's inline edits: whether the shop buys it, how many it wants, its NM price in pesos as typed (empty: the default rule). */
export async function saveEntry(id: string, edit: { active: boolean; wanted: number; nmPrice: string }): Promise<ActionAnswer> {
  const price = edit.nmPrice.trim() === '' ? null : Number(edit.nmPrice);
  const { error } = await getSupabase().from('buylist_entries').update({ active: edit.active, wanted: edit.wanted, nm_price: price }).eq('id', id);
  return error ? { ok: false, message: null } : { ok: true };
}

/** The settings the owner edits, as typed. */
export interface SettingsEdit {
  share_lp: number;
  share_mp: number;
  share_hp: number;
  share_dmg: number;
  credit_bonus_percent: number;
  default_percent: number | null;
  min_submission: number;
}

/** Saves the buylist's settings. */
export async function saveSettings(edit: SettingsEdit): Promise<ActionAnswer> {
  const { error } = await getSupabase().from('buylist_settings').update(edit).eq('id', true);
  return error ? { ok: false, message: null } : { ok: true };
}
