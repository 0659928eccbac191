/**
 * Rebuilds on product changes: a service-role realtime subscription to postgres_changes on
 * public.products, debounced so that an import or a burst of edits asks for one rebuild, with the
 * ids of the products that changed and one key per change (see ProductChange).
 */
import { createClient, type RealtimeChannel, type SupabaseClient } from '@supabase/supabase-js';
import type { Database } from '~/data/database.types.ts';
import { API_REBUILD_REALTIME_OPERATOR_TEXT as LOG } from '~/i18n/api.ts';
import WebSocket from 'ws';

/** Options of the product-change watcher. */
export interface WatchOptions {
  url: string;
  serviceRoleKey: string;
  /** Quiet time after the last change before asking for a rebuild. */
  debounceMs?: number;
  /** The changes of one burst, once it is quiet: one entry per product change that needs a rebuild. */
  onChange: (changes: ProductChange[]) => void;
  log?: (line: string) => void;
}

/** One product change that needs a rebuild. */
export interface ProductChange {
  /** The product's id, or null when the event did not say (then the build must be full). */
  productId: string | null;
  /**
   * The same for every server process that sees this change: product, event and commit time
   * (null without a commit time), so requests for it from several processes count once.
   */
  key: string | null;
}

/** The change a realtime event stands for. */
export function productChange(change: { eventType: string; new: Row; old: Row; commit_timestamp?: unknown }): ProductChange {
  const row = change.eventType === 'DELETE' ? change.old : change.new;
  const productId = typeof row?.id === 'string' ? row.id : null;
  const at = typeof change.commit_timestamp === 'string' && change.commit_timestamp ? change.commit_timestamp : null;
  return { productId, key: productId && at ? `${productId}|${change.eventType}|${at}` : null };
}

/** Calls fn once waitMs after the last call; cancel() drops a pending call. */
export function debounce(fn: () => void, waitMs: number): { (): void; cancel(): void } {
  let timer: NodeJS.Timeout | null = null;
  const call = () => {
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = null;
      fn();
    }, waitMs);
  };
  call.cancel = () => {
    if (timer) clearTimeout(timer);
    timer = null;
  };
  return call;
}

type Row = Record<string, unknown>;

/**
 * What a product looks like to the prebuilt pages. Stock is not part of it at all: cards and buy
 * boxes correct stock and the sold-out state from live data after load, so orders, cancellations
 * and restocks never rebuild the shop (and a shopper cannot trigger builds by reserving and
 * releasing the last unit in a loop).
 */
export function catalogFingerprint(row: Row): string {
  const { stock: _stock, updated_at: _updated, created_at: _created, ...rest } = row;
  const sorted = Object.keys(rest)
    .sort()
    .map((key) => [key, rest[key]]);
  return JSON.stringify(sorted);
}

/**
 * Decides which product changes need a rebuild, remembering each product's fingerprint: every
 * insert and delete does; an update only when it changes what the pages show.
 */
export class ChangeFilter {
  private readonly known = new Map<string, string>();

  /** Remembers rows already in the build (the watcher loads them at start). */
  remember(rows: Row[]): void {
    for (const row of rows) if (typeof row.id === 'string') this.known.set(row.id, catalogFingerprint(row));
  }

  /** True when this change should rebuild the catalogue. */
  needsRebuild(change: { eventType: string; new: Row; old: Row }): boolean {
    if (change.eventType === 'DELETE') {
      if (typeof change.old.id === 'string') this.known.delete(change.old.id);
      return true;
    }
    const id = change.new.id;
    if (typeof id !== 'string') return true;
    const fingerprint = catalogFingerprint(change.new);
    const before = this.known.get(id);
    this.known.set(id, fingerprint);
    return change.eventType === 'INSERT' || before !== fingerprint;
  }
}

async function loadAll(client: SupabaseClient<Database>): Promise<Row[]> {
  const rows: Row[] = [];
  const page = 1000;
  for (let from = 0; ; from += page) {
    const { data, error } = await client
      .from('products')
      .select('*')
      .order('id')
      .range(from, from + page - 1);
    if (error) throw new Error(error.message);
    rows.push(...data);
    if (data.length < page) return rows;
  }
}

/** Subscribes to product changes; the returned function unsubscribes. */
export function watchProducts(options: WatchOptions): () => Promise<void> {
  const client: SupabaseClient<Database> = createClient<Database>(options.url, options.serviceRoleKey, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    // The ws package, not the global WebSocket, so the server works on every Node it supports.
    realtime: { transport: WebSocket as unknown as typeof globalThis.WebSocket },
  });
  let burst: ProductChange[] = [];
  const trigger = debounce(() => {
    const changes = burst;
    burst = [];
    options.onChange(changes);
  }, options.debounceMs ?? 2000);
  const filter = new ChangeFilter();
  // Without the current rows an update cannot be told apart from a stock change; until they
  // are loaded (or if loading fails) every update counts.
  loadAll(client)
    .then((rows) => filter.remember(rows))
    .catch((error: unknown) => options.log?.(LOG.productsUnreadable(String(error))));
  const channel: RealtimeChannel = client
    .channel('catalogue-rebuild')
    .on('postgres_changes', { event: '*', schema: 'public', table: 'products' }, (change) => {
      if (filter.needsRebuild({ eventType: change.eventType, new: change.new as Row, old: change.old as Row })) {
        burst.push(productChange({ eventType: change.eventType, new: change.new as Row, old: change.old as Row, commit_timestamp: change.commit_timestamp }));
        trigger();
      }
    })
    .subscribe((status, error) => {
      if (status === 'SUBSCRIBED') options.log?.(LOG.listening);
      else if (status === 'CHANNEL_ERROR' || status === 'TIMED_OUT') {
        // realtime-js retries on its own; say so once per failure.
        options.log?.(LOG.subscription(status, error ? error.message : null));
      }
    });
  return async () => {
    trigger.cancel();
    burst = [];
    await client.removeChannel(channel);
  };
}
