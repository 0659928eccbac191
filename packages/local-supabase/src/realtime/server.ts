/**
 * Supabase Realtime compatible WebSocket endpoint at /realtime/v1/websocket: the Phoenix
 * channel protocol realtime-js speaks (protocol.ts), with `postgres_changes` fed by a NOTIFY
 * trigger on every table of the supabase_realtime publication (changes.ts). Each INSERT/UPDATE is
 * re-read as the subscriber's role and claims, so row-level security decides who receives it.
 * Broadcast and presence pushes are accepted and not relayed.
 */
import type http from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import { originAllowed, requestOrigin } from '../cors.ts';
import type { Role } from '../db.ts';
import type { StackContext } from '../types.ts';
import { CHANGES_CHANNEL, changeData, installTriggers, parseChange, readRow, type Change, type TableInfo } from './changes.ts';
import { bindingsFor, joinSchema, MAX_CHANNELS, parseBindings, type Channel, type Client } from './channels.ts';
import { matchesFilter } from './filters.ts';
import { decodeFrame, reply, send, type Message, type Vsn } from './protocol.ts';
import { checkToken, tokenExpired } from './tokens.ts';

/** Path realtime-js connects to (Phoenix appends /websocket to the endpoint). */
export const REALTIME_PATH = '/realtime/v1/websocket';
/** Largest frame accepted; bigger ones close the socket with 1009. */
const MAX_FRAME_BYTES = 1024 * 1024;
/** A socket silent for this long (no heartbeat) is dropped, as Phoenix does. */
const IDLE_TIMEOUT_MS = 90_000;
/** How often silent sockets are looked for. */
const SWEEP_INTERVAL_MS = 15_000;

/** Serves realtime WebSocket upgrades on one HTTP server. */
export class RealtimeServer {
  private readonly wss = new WebSocketServer({ noServer: true, maxPayload: MAX_FRAME_BYTES, perMessageDeflate: false });
  private readonly clients = new Set<Client>();
  /** The published tables, by `schema.table`. */
  private readonly tables = new Map<string, TableInfo>();
  /** Changes are handled one at a time so every subscriber sees them in commit order. */
  private queue: Promise<void> = Promise.resolve();
  private closing = false;
  private unlisten: (() => Promise<void>) | undefined;
  private sweeper: NodeJS.Timeout | undefined;
  private readonly onUpgrade = (req: http.IncomingMessage, socket: Duplex, head: Buffer) => this.handleUpgrade(req, socket, head);

  constructor(
    private readonly server: http.Server,
    private readonly ctx: StackContext,
  ) {}

  /** Installs the triggers, listens for changes, and starts serving upgrades. */
  async start(): Promise<void> {
    await installTriggers(this.ctx, this.tables);
    this.unlisten = await this.ctx.db.listen(CHANGES_CHANNEL, (payload) => this.enqueueChange(payload));
    this.server.on('upgrade', this.onUpgrade);
    this.sweeper = setInterval(() => this.dropIdleSockets(), SWEEP_INTERVAL_MS);
    this.sweeper.unref();
  }

  // ---- Connections ----

  /** Accepts a WebSocket upgrade on the realtime path from an allowed origin with a valid apikey. */
  private handleUpgrade(req: http.IncomingMessage, socket: Duplex, head: Buffer): void {
    let url: URL;
    try {
      url = new URL(req.url ?? '/', 'http://localhost');
    } catch {
      socket.destroy();
      return;
    }
    const reject = (status: number, text: string) => {
      const body = JSON.stringify({ message: text });
      socket.end(
        `HTTP/1.1 ${status} ${text}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
      );
    };
    if (url.pathname !== REALTIME_PATH && url.pathname !== `${REALTIME_PATH}/websocket`) {
      reject(404, 'Not Found');
      return;
    }
    if (this.closing) {
      reject(503, 'Service Unavailable');
      return;
    }
    // Browsers do not apply CORS to WebSockets: a page of another site is refused here.
    const origin = requestOrigin(req);
    if (origin !== undefined && !originAllowed(this.ctx.config.corsOrigins, origin)) {
      reject(403, 'Forbidden');
      return;
    }
    const apikey = url.searchParams.get('apikey') ?? (typeof req.headers.apikey === 'string' ? req.headers.apikey : '');
    const vsn: Vsn = url.searchParams.get('vsn') === '2.0.0' ? '2.0.0' : '1.0.0';
    void checkToken(apikey, this.ctx).then((check) => {
      if (!check.ok) {
        reject(403, 'Forbidden');
        return;
      }
      this.wss.handleUpgrade(req, socket, head, (ws) => this.connect(ws, vsn, check.claims));
    });
  }

  /** Registers a connected socket and handles its frames in order, like a Phoenix channel process. */
  private connect(ws: WebSocket, vsn: Vsn, apikeyClaims: Record<string, unknown>): void {
    const client: Client = { ws, vsn, apikeyClaims, channels: new Map(), lastSeen: Date.now() };
    this.clients.add(client);
    let chain: Promise<void> = Promise.resolve();
    ws.on('message', (data, isBinary) => {
      chain = chain
        .then(() => this.onMessage(client, data, isBinary))
        .catch((err: unknown) => console.error('[local-supabase] realtime: error en un mensaje', err));
    });
    ws.on('error', () => ws.terminate());
    ws.on('close', () => this.clients.delete(client));
  }

  /** Routes one frame: heartbeats, joins, and the events of a joined channel. */
  private async onMessage(client: Client, data: RawData, isBinary: boolean): Promise<void> {
    client.lastSeen = Date.now();
    // Binary frames carry Broadcast, which this stack does not relay.
    if (isBinary) return;
    const text = Array.isArray(data) ? Buffer.concat(data).toString('utf8') : Buffer.from(data as ArrayBuffer).toString('utf8');
    const m = decodeFrame(text, client.vsn);
    if (!m) return;
    if (m.topic === 'phoenix') {
      this.heartbeat(client, m);
      return;
    }
    if (m.event === 'phx_join') {
      await this.join(client, m);
      return;
    }
    const ch = client.channels.get(m.topic);
    if (!ch) {
      reply(client, m, 'error', { reason: 'unmatched topic' });
      return;
    }
    switch (m.event) {
      case 'phx_leave':
        this.leave(client, m);
        return;
      case 'access_token':
        await this.updateToken(client, ch, m);
        return;
      default:
        this.otherPush(client, m);
    }
  }

  // ---- Heartbeats ----

  /** The `phoenix` topic: heartbeats are answered, anything else is an error. */
  private heartbeat(client: Client, m: Message): void {
    if (m.event === 'heartbeat') reply(client, m, 'ok', {});
    else reply(client, m, 'error', { reason: 'unknown event' });
  }

  /** Drops sockets that sent nothing (not even a heartbeat) for IDLE_TIMEOUT_MS. */
  private dropIdleSockets(): void {
    const limit = Date.now() - IDLE_TIMEOUT_MS;
    for (const c of this.clients) if (c.lastSeen < limit) c.ws.terminate();
  }

  // ---- Channels ----

  /** phx_join: checks the topic, the token and the bindings, then subscribes the channel. */
  private async join(client: Client, m: Message): Promise<void> {
    if (!m.topic.startsWith('realtime:') || m.topic.length <= 'realtime:'.length) {
      reply(client, m, 'error', { reason: 'Topic must start with "realtime:"' });
      return;
    }
    const parsed = joinSchema.safeParse(m.payload);
    if (!parsed.success) {
      reply(client, m, 'error', { reason: 'Invalid join payload' });
      return;
    }
    if (!client.channels.has(m.topic) && client.channels.size >= MAX_CHANNELS) {
      reply(client, m, 'error', { reason: 'Too many channels' });
      return;
    }
    let role: Role;
    let claims: Record<string, unknown>;
    const token = parsed.data.access_token;
    if (token && !token.startsWith('sb_')) {
      const check = await checkToken(token, this.ctx);
      if (!check.ok) {
        reply(client, m, 'error', { reason: check.reason });
        return;
      }
      ({ role, claims } = check);
    } else {
      role = client.apikeyClaims.role as Role;
      claims = client.apikeyClaims;
    }
    if (tokenExpired(claims)) {
      reply(client, m, 'error', { reason: 'Token has expired' });
      return;
    }
    const bound = parseBindings(parsed.data.config?.postgres_changes ?? []);
    if (!bound.ok) {
      reply(client, m, 'error', { reason: bound.reason });
      return;
    }
    const { bindings, echoed } = bound;
    client.channels.set(m.topic, { topic: m.topic, joinRef: m.joinRef ?? m.ref, role, claims, bindings });
    reply(client, m, 'ok', { postgres_changes: echoed });
    if (bindings.length > 0) {
      send(client, {
        joinRef: m.joinRef ?? m.ref,
        ref: null,
        topic: m.topic,
        event: 'system',
        payload: {
          extension: 'postgres_changes',
          status: 'ok',
          message: 'Subscribed to PostgreSQL',
          channel: m.topic.slice('realtime:'.length),
        },
      });
    }
  }

  /** phx_leave: unsubscribes the channel. */
  private leave(client: Client, m: Message): void {
    client.channels.delete(m.topic);
    reply(client, m, 'ok', {});
  }

  /** access_token: Realtime sends no reply to a token update; a bad token ends the channel. */
  private async updateToken(client: Client, ch: Channel, m: Message): Promise<void> {
    const token = (m.payload as { access_token?: unknown } | null)?.access_token;
    if (typeof token !== 'string' || token.length > 16384) {
      this.closeChannel(client, ch, 'Invalid JWT Token');
      return;
    }
    if (token.startsWith('sb_')) {
      ch.role = client.apikeyClaims.role as Role;
      ch.claims = client.apikeyClaims;
      return;
    }
    const check = await checkToken(token, this.ctx);
    if (!check.ok) {
      this.closeChannel(client, ch, check.reason);
      return;
    }
    if (tokenExpired(check.claims)) {
      this.closeChannel(client, ch, 'Token has expired');
      return;
    }
    ch.role = check.role;
    ch.claims = check.claims;
  }

  /** Ends a channel with a system error, as Realtime does when its token goes bad. */
  private closeChannel(client: Client, ch: Channel, message: string): void {
    send(client, {
      joinRef: ch.joinRef,
      ref: null,
      topic: ch.topic,
      event: 'system',
      payload: { extension: 'system', status: 'error', message, channel: ch.topic.slice('realtime:'.length) },
    });
    send(client, { joinRef: ch.joinRef, ref: null, topic: ch.topic, event: 'phx_close', payload: {} });
    client.channels.delete(ch.topic);
  }

  // ---- Broadcast and presence ----

  /** Broadcast and presence pushes are accepted and not relayed; any other event is an error. */
  private otherPush(client: Client, m: Message): void {
    if (m.ref !== null && m.event !== 'broadcast' && m.event !== 'presence') {
      reply(client, m, 'error', { reason: `unknown event "${m.event}"` });
    }
  }

  // ---- postgres_changes ----

  /** Queues one NOTIFY payload behind the previous ones. */
  private enqueueChange(payload: string): void {
    if (this.closing) return;
    this.queue = this.queue
      .then(() => this.dispatchChange(payload))
      .catch((err: unknown) => {
        console.error('[local-supabase] realtime: error al enviar un cambio', err);
      });
  }

  /** Sends one change to every channel whose bindings and filters match and whose role may see the row. */
  private async dispatchChange(payload: string): Promise<void> {
    const change = parseChange(payload);
    if (!change) return;
    const key = `${change.schema}.${change.table}`;
    const info = this.tables.get(key);
    if (!info || this.clients.size === 0) return;

    // One read per distinct role + claims, shared by every channel of the same user.
    const reads = new Map<string, Promise<Record<string, unknown> | null>>();
    const readAs = (ch: Channel): Promise<Record<string, unknown> | null> => {
      const cacheKey = JSON.stringify([ch.role, ch.claims.sub ?? null, ch.claims.role ?? null]);
      let p = reads.get(cacheKey);
      if (!p) {
        p = readRow(this.ctx, ch, change, info).catch(() => null);
        reads.set(cacheKey, p);
      }
      return p;
    };

    for (const client of this.clients) {
      for (const ch of [...client.channels.values()]) {
        await this.sendChange(client, ch, change, info, readAs);
      }
    }
  }

  /** Sends one change to one channel, when a binding matches and the channel's role may see the row. */
  private async sendChange(
    client: Client,
    ch: Channel,
    change: Change,
    info: TableInfo,
    readAs: (ch: Channel) => Promise<Record<string, unknown> | null>,
  ): Promise<void> {
    const candidates = bindingsFor(ch, change);
    if (candidates.length === 0) return;
    if (tokenExpired(ch.claims)) {
      this.closeChannel(client, ch, 'Token has expired');
      return;
    }
    let record: Record<string, unknown> | null = null;
    if (change.type !== 'DELETE') {
      record = await readAs(ch);
      if (!record) return;
    }
    const oldRecord = change.old_pk ?? {};
    const ids = candidates.filter((b) => !b.filter || matchesFilter(b.filter, change.type === 'DELETE' ? oldRecord : record!)).map((b) => b.id);
    if (ids.length === 0) return;
    const data = changeData(change, info, record, oldRecord);
    send(client, { joinRef: null, ref: null, topic: ch.topic, event: 'postgres_changes', payload: { ids, data } });
  }

  // ---- Shutdown ----

  /** Closes every socket (1001), stops serving upgrades and listening, after the queued changes. */
  async close(): Promise<void> {
    if (this.closing) return;
    this.closing = true;
    clearInterval(this.sweeper);
    this.server.off('upgrade', this.onUpgrade);
    const closed = [...this.clients].map(
      (c) =>
        new Promise<void>((resolve) => {
          if (c.ws.readyState === c.ws.CLOSED) return resolve();
          const t = setTimeout(() => {
            c.ws.terminate();
            resolve();
          }, 1000);
          t.unref();
          c.ws.once('close', () => {
            clearTimeout(t);
            resolve();
          });
          c.ws.close(1001, 'server shutting down');
        }),
    );
    await Promise.all(closed);
    await new Promise<void>((resolve) => this.wss.close(() => resolve()));
    await this.queue.catch(() => undefined);
    await this.unlisten?.().catch(() => undefined);
  }
}

/** Serves realtime WebSocket upgrades on the given HTTP server. */
export async function attachRealtime(server: http.Server, ctx: StackContext): Promise<{ close(): Promise<void> }> {
  const realtime = new RealtimeServer(server, ctx);
  await realtime.start();
  return realtime;
}
