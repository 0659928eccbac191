/**
 * The records of the simulated card and PayPal providers: customers, cards, payment intents,
 * PayPal orders and refunds, kept in the `simulated_payments` schema through service-role-only
 * database functions (migration 20261122010000_simulated_payments.sql) or, for unit tests, in
 * memory; and what both providers do alike with them (ids, full refunds).
 */
import { randomBytes } from 'node:crypto';
import type { SupabaseClient } from '@supabase/supabase-js';
import { z } from 'zod';
import type { Database, Json } from '~/data/database.types.ts';
import { PAYMENTS_SIMULATED_RECORDS_OPERATOR_TEXT, PAYMENTS_SIMULATED_RECORDS_TEXT } from '~/i18n/payments.ts';
import { PaymentError, type RefundInfo } from './types.ts';

export type SimKind = 'customer' | 'payment_method' | 'payment_intent' | 'paypal_order' | 'refund';

/** A record's free-form data: a JSON object (what the jsonb column holds). */
export type SimData = { [key: string]: Json | undefined };

/** One stored record of the simulated provider. */
export interface SimRecord {
  id: string;
  kind: SimKind;
  owner: string | null;
  status: string | null;
  data: SimData;
  created_at: string;
}

/** The operations the simulated provider needs from storage. */
export interface SimStore {
  put(record: { id: string; kind: SimKind; owner: string | null; status: string | null; data: SimData }, idempotencyKey?: string): Promise<SimRecord>;
  get(id: string): Promise<SimRecord | null>;
  list(kind: SimKind, owner: string): Promise<SimRecord[]>;
  /** Moves the status only while it is one of `from` (null: any); null when it was not. */
  update(id: string, from: string[] | null, status: string | null, data?: SimData): Promise<SimRecord | null>;
  setOwner(id: string, owner: string | null): Promise<boolean>;
  /** The simulated PayPal order that holds a capture id, or null. */
  findByCapture(captureId: string): Promise<string | null>;
}

// What simulated_payments.to_json builds (migration 20261122010000_simulated_payments.sql).
const simRecord = z.object({
  id: z.string(),
  kind: z.enum(['customer', 'payment_method', 'payment_intent', 'paypal_order', 'refund']),
  owner: z.string().nullable(),
  status: z.string().nullable(),
  data: z.record(z.string(), z.json()),
  created_at: z.string(),
});

/** A record from a function's jsonb answer; throws when the answer is not one. */
function recordOf(fn: string, value: Json): SimRecord {
  const parsed = simRecord.safeParse(value);
  if (!parsed.success) throw new Error(PAYMENTS_SIMULATED_RECORDS_OPERATOR_TEXT.unexpected(fn, parsed.error.issues[0]?.message));
  return parsed.data;
}

/** The answer of a function call; throws with the function's name on a database error. */
function answer<T>(fn: string, result: { data: T | null; error: { message: string } | null }): T | null {
  if (result.error) throw new Error(`${fn}: ${result.error.message}`);
  return result.data;
}

/** The database-backed store used by the running shop (service-role client). */
export function databaseSimStore(admin: SupabaseClient<Database>): SimStore {
  return {
    async put(r, idempotencyKey) {
      const args = { p_id: r.id, p_kind: r.kind, p_owner: r.owner, p_status: r.status, p_data: r.data, p_idempotency_key: idempotencyKey ?? null };
      const data = answer('simulated_payments_put', await admin.rpc('simulated_payments_put', args));
      return recordOf('simulated_payments_put', data);
    },
    async get(id) {
      const data = answer('simulated_payments_get', await admin.rpc('simulated_payments_get', { p_id: id }));
      return data === null ? null : recordOf('simulated_payments_get', data);
    },
    async list(kind, owner) {
      const data = answer('simulated_payments_list', await admin.rpc('simulated_payments_list', { p_kind: kind, p_owner: owner }));
      const rows = z.array(z.json()).safeParse(data ?? []);
      if (!rows.success) throw new Error(PAYMENTS_SIMULATED_RECORDS_OPERATOR_TEXT.unexpectedList);
      return rows.data.map((row) => recordOf('simulated_payments_list', row));
    },
    async update(id, from, status, data = {}) {
      const args = { p_id: id, p_from: from, p_status: status, p_data: data };
      const changed = answer('simulated_payments_update', await admin.rpc('simulated_payments_update', args));
      return changed === null ? null : recordOf('simulated_payments_update', changed);
    },
    async setOwner(id, owner) {
      return answer('simulated_payments_set_owner', await admin.rpc('simulated_payments_set_owner', { p_id: id, p_owner: owner })) === true;
    },
    async findByCapture(captureId) {
      return answer('simulated_payments_find_capture', await admin.rpc('simulated_payments_find_capture', { p_capture_id: captureId })) ?? null;
    },
  };
}

/** An in-memory store with the same semantics, for unit tests of the provider's logic. */
export function memorySimStore(): SimStore {
  const rows = new Map<string, SimRecord>();
  const keys = new Map<string, string>();
  const clone = (r: SimRecord | undefined | null) => (r ? structuredClone(r) : null);
  return {
    async put(r, idempotencyKey) {
      if (idempotencyKey && keys.has(idempotencyKey)) return clone(rows.get(keys.get(idempotencyKey)!))!;
      const record: SimRecord = { ...r, data: structuredClone(r.data), created_at: new Date(Date.now() + rows.size).toISOString() };
      rows.set(r.id, record);
      if (idempotencyKey) keys.set(idempotencyKey, r.id);
      return clone(record)!;
    },
    async get(id) {
      return clone(rows.get(id));
    },
    async list(kind, owner) {
      return [...rows.values()].filter((r) => r.kind === kind && r.owner === owner).map((r) => clone(r)!);
    },
    async update(id, from, status, data = {}) {
      const row = rows.get(id);
      if (!row || (from && !from.includes(row.status ?? ''))) return null;
      if (status !== null) row.status = status;
      row.data = { ...row.data, ...structuredClone(data) };
      return clone(row);
    },
    async setOwner(id, owner) {
      const row = rows.get(id);
      if (!row) return false;
      row.owner = owner;
      return true;
    },
    async findByCapture(captureId) {
      return [...rows.values()].find((r) => r.kind === 'paypal_order' && r.data.capture_id === captureId)?.id ?? null;
    },
  };
}

/** A random id with a provider-style prefix (cus_sim_…, pi_sim_…). */
export function newId(prefix: string): string {
  return `${prefix}_sim_${randomBytes(12).toString('hex')}`;
}

/**
 * A full refund of a simulated charge, once per idempotency key and once per charge: the refund is
 * stored as its own record and the charge is marked refunded.
 */
export async function simulatedRefund(
  store: SimStore,
  chargeId: string,
  kind: 'payment_intent' | 'paypal_order',
  amount: number,
  idempotencyKey: string,
): Promise<RefundInfo> {
  const charge = await store.get(chargeId);
  if (!charge || charge.kind !== kind) throw new PaymentError(PAYMENTS_SIMULATED_RECORDS_TEXT.chargeNotFound, 404, 'charge_not_found');
  if (typeof charge.data.refund_id === 'string') return { id: charge.data.refund_id, status: 'succeeded' };
  if (amount !== Number(charge.data.amount)) throw new PaymentError(PAYMENTS_SIMULATED_RECORDS_TEXT.refundMismatch, 400, 'refund_amount_mismatch');
  const paid = kind === 'payment_intent' ? charge.status === 'succeeded' : charge.status === 'COMPLETED';
  if (!paid) throw new PaymentError(PAYMENTS_SIMULATED_RECORDS_TEXT.notCaptured, 409, 'charge_not_captured');
  const refund = await store.put(
    { id: newId('re'), kind: 'refund', owner: chargeId, status: 'succeeded', data: { amount, currency: 'mxn', charge: chargeId } },
    idempotencyKey,
  );
  await store.update(chargeId, null, null, { refund_id: refund.id });
  return { id: refund.id, status: 'succeeded' };
}
