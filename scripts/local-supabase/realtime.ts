/** Supabase Realtime compatible WebSocket endpoint at /realtime/v1/websocket. */
import type http from 'node:http';
import type { StackContext } from './types.ts';

/** Serves realtime WebSocket upgrades on the given HTTP server. */
export async function attachRealtime(
  _server: http.Server,
  _ctx: StackContext,
): Promise<{ close(): Promise<void> }> {
  return { async close() {} };
}
