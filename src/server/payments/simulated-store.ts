/**
 * Where the simulated provider keeps its records: the `simulated_payments` schema, reached through
 * service-role-only database functions (see the migration 20261122010000_simulated_payments.sql).
 */
import type { SupabaseClient } from '@supabase/supabase-js';

export type SimKind = 'customer' | 'payment_method' | 'payment_intent' | 'paypal_order' | 'refund';

/** One stored record of the simulated provider. */
export interface SimRecord {
  id: string;
  kind: SimKind;
  owner: string | null;
  status: string | null;
  data: Record<string, unknown>;
  created_at: string;
}

/** The operations the simulated provider needs from storage. */
export interface SimStore {
  put(record: { id: string; kind: SimKind; owner: string | null; status: string | null; data: Record<string, unknown> }, idempotencyKey?: string): Promise<SimRecord>;
  get(id: string): Promise<SimRecord | null>;
  list(kind: SimKind, owner: string): Promise<SimRecord[]>;
  /** Moves the status only while it is one of `from` (null: any); null when it was not. */
  update(id: string, from: string[] | null, status: string | null, data?: Record<string, unknown>): Promise<SimRecord | null>;
  setOwner(id: string, owner: string | null): Promise<boolean>;
  /** The simulated PayPal order that holds a capture id, or null. */
  findByCapture(captureId: string): Promise<string | null>;
}

async function call<T>(admin: SupabaseClient, fn: string, args: Record<string, unknown>): Promise<T> {
  const { data, error } = await admin.rpc(fn, args);
  if (error) throw new Error(`${fn}: ${error.message}`);
  return data as T;
}

/** The database-backed store used by the running shop. */
export function databaseSimStore(admin: SupabaseClient): SimStore {
  return {
    put: (r, idempotencyKey) =>
      call(admin, 'simulated_payments_put', {
        p_id: r.id,
        p_kind: r.kind,
        p_owner: r.owner,
        p_status: r.status,
        p_data: r.data,
        p_idempotency_key: idempotencyKey ?? null,
      }),
    get: (id) => call(admin, 'simulated_payments_get', { p_id: id }),
    list: (kind, owner) => call(admin, 'simulated_payments_list', { p_kind: kind, p_owner: owner }),
    update: (id, from, status, data = {}) =>
      call(admin, 'simulated_payments_update', { p_id: id, p_from: from, p_status: status, p_data: data }),
    setOwner: (id, owner) => call(admin, 'simulated_payments_set_owner', { p_id: id, p_owner: owner }),
    findByCapture: (captureId) => call(admin, 'simulated_payments_find_capture', { p_capture_id: captureId }),
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
