/**
 * A socket's channels and their `postgres_changes` bindings, as a phx_join payload declares
 * them (event, schema, table, filter).
 */
import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { Role } from '../db.ts';
import type { Change } from './changes.ts';
import { parseFilter, type Filter } from './filters.ts';
import type { Peer } from './protocol.ts';

/** Channels one socket may join. */
export const MAX_CHANNELS = 100;

export interface Binding {
  id: number;
  event: '*' | 'INSERT' | 'UPDATE' | 'DELETE';
  schema: string;
  table: string | undefined;
  filter: Filter | undefined;
}

export interface Channel {
  topic: string;
  joinRef: string | null;
  role: Role;
  claims: Record<string, unknown>;
  bindings: Binding[];
}

/** One connected socket: the claims of the apikey it connected with and the channels it joined. */
export interface Client extends Peer {
  apikeyClaims: Record<string, unknown>;
  channels: Map<string, Channel>;
  lastSeen: number;
}

export const joinSchema = z.looseObject({
  config: z
    .looseObject({
      postgres_changes: z.array(z.unknown()).max(50).nullish(),
    })
    .nullish(),
  access_token: z.string().max(16384).nullish(),
});

const bindingSchema = z.looseObject({
  event: z.string(),
  schema: z.string().min(1).max(63),
  table: z.string().min(1).max(63).nullish(),
  filter: z.string().max(2000).nullish(),
});

/** A stable positive integer id for a binding, as Realtime's phash2 of the params. */
function bindingId(b: { event: string; schema: string; table?: string | null; filter?: string | null }): number {
  const digest = createHash('sha1')
    .update(JSON.stringify([b.event, b.schema, b.table ?? null, b.filter ?? null]))
    .digest();
  return digest.readUInt32BE(0) & 0x7ffffff;
}

export type ParsedBindings = { ok: true; bindings: Binding[]; echoed: Array<Record<string, unknown>> } | { ok: false; reason: string };

/** The join's `postgres_changes` entries as bindings, and as echoed back to the client with their ids. */
export function parseBindings(entries: unknown[]): ParsedBindings {
  const bindings: Binding[] = [];
  const echoed: Array<Record<string, unknown>> = [];
  for (const entry of entries) {
    const b = bindingSchema.safeParse(entry);
    if (!b.success) return { ok: false, reason: 'Invalid postgres_changes binding' };
    const event = b.data.event.toUpperCase();
    if (event !== '*' && event !== 'INSERT' && event !== 'UPDATE' && event !== 'DELETE') {
      return { ok: false, reason: `Invalid event "${b.data.event}"` };
    }
    let filter: Filter | undefined;
    if (b.data.filter) {
      try {
        filter = parseFilter(b.data.filter);
      } catch (err) {
        return { ok: false, reason: `Error parsing \`filter\` params: ${(err as Error).message}` };
      }
    }
    const id = bindingId(b.data);
    bindings.push({ id, event, schema: b.data.schema, table: b.data.table ?? undefined, filter });
    echoed.push({ ...b.data, id });
  }
  return { ok: true, bindings, echoed };
}

/** The channel's bindings a change concerns (its schema, table and event), before their filters. */
export function bindingsFor(ch: Channel, change: Change): Binding[] {
  return ch.bindings.filter(
    (b) => b.schema === change.schema && (b.table === undefined || b.table === '*' || b.table === change.table) && (b.event === '*' || b.event === change.type),
  );
}
