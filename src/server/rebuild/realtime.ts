/**
 * Rebuilds on product changes: a service-role realtime subscription to postgres_changes on
 * public.products, debounced so that an import or a burst of edits asks for one rebuild.
 */
import { createClient, type RealtimeChannel, type SupabaseClient } from '@supabase/supabase-js';
import WebSocket from 'ws';

/** Options of the product-change watcher. */
export interface WatchOptions {
  url: string;
  serviceRoleKey: string;
  /** Quiet time after the last change before asking for a rebuild. */
  debounceMs?: number;
  onChange: () => void;
  log?: (line: string) => void;
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

/** Subscribes to product changes; the returned function unsubscribes. */
export function watchProducts(options: WatchOptions): () => Promise<void> {
  const client: SupabaseClient = createClient(options.url, options.serviceRoleKey, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    // The ws package, not the global WebSocket, so the server works on every Node it supports.
    realtime: { transport: WebSocket as unknown as typeof globalThis.WebSocket },
  });
  const trigger = debounce(options.onChange, options.debounceMs ?? 2000);
  const channel: RealtimeChannel = client
    .channel('catalogue-rebuild')
    .on('postgres_changes', { event: '*', schema: 'public', table: 'products' }, () => trigger())
    .subscribe((status, error) => {
      if (status === 'SUBSCRIBED') options.log?.('reconstrucción: escuchando cambios de productos');
      else if (status === 'CHANNEL_ERROR' || status === 'TIMED_OUT') {
        // realtime-js retries on its own; say so once per failure.
        options.log?.(`reconstrucción: suscripción a productos ${status}${error ? ` (${error.message})` : ''}`);
      }
    });
  return async () => {
    trigger.cancel();
    await client.removeChannel(channel);
  };
}
