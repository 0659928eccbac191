/**
 * Supabase Realtime compatible WebSocket endpoint at /realtime/v1/websocket: the Phoenix
 * channel protocol realtime-js speaks (vsn 1.0.0 object frames and 2.0.0 array frames),
 * with `postgres_changes` fed by a NOTIFY trigger on every table of the
 * supabase_realtime publication. Each INSERT/UPDATE is re-read as the subscriber's role
 * and claims, so row-level security decides who receives it.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import type http from 'node:http';
import path from 'node:path';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket, type RawData } from 'ws';
import { z } from 'zod';
import { originAllowed, requestOrigin } from './cors.ts';
import { isRole, type Role } from './db.ts';
import { verifyJwt } from './jwt.ts';
import { BOOTSTRAP_DIR } from './migrate.ts';
import { matchesFilter, parseFilter, type Filter } from './realtime/filters.ts';
import { quoteIdent } from './sql.ts';
import type { StackContext } from './types.ts';

/** Path realtime-js connects to (Phoenix appends /websocket to the endpoint). */
export const REALTIME_PATH = '/realtime/v1/websocket';
/** Largest frame accepted; bigger ones close the socket with 1009. */
const MAX_FRAME_BYTES = 1024 * 1024;
/** Channels one socket may join. */
const MAX_CHANNELS = 100;
/** A socket silent for this long (no heartbeat) is dropped, as Phoenix does. */
const IDLE_TIMEOUT_MS = 90_000;

type Vsn = '1.0.0' | '2.0.0';

interface Message {
  joinRef: string | null;
  ref: string | null;
  topic: string;
  event: string;
  payload: unknown;
}

interface Binding {
  id: number;
  event: '*' | 'INSERT' | 'UPDATE' | 'DELETE';
  schema: string;
  table: string | undefined;
  filter: Filter | undefined;
}

interface Channel {
  topic: string;
  joinRef: string | null;
  role: Role;
  claims: Record<string, unknown>;
  bindings: Binding[];
}

interface Client {
  ws: WebSocket;
  vsn: Vsn;
  apikeyClaims: Record<string, unknown>;
  channels: Map<string, Channel>;
  lastSeen: number;
}

interface Change {
  schema: string;
  table: string;
  type: 'INSERT' | 'UPDATE' | 'DELETE';
  pk: Record<string, unknown> | null;
  old_pk: Record<string, unknown> | null;
  commit_timestamp: string;
}

const changeSchema = z.object({
  schema: z.string(),
  table: z.string(),
  type: z.enum(['INSERT', 'UPDATE', 'DELETE']),
  pk: z.record(z.string(), z.unknown()).nullable(),
  old_pk: z.record(z.string(), z.unknown()).nullable(),
  commit_timestamp: z.string(),
});

const bindingSchema = z.looseObject({
  event: z.string(),
  schema: z.string().min(1).max(63),
  table: z.string().min(1).max(63).nullish(),
  filter: z.string().max(2000).nullish(),
});

const joinSchema = z.looseObject({
  config: z
    .looseObject({
      postgres_changes: z.array(z.unknown()).max(50).nullish(),
    })
    .nullish(),
  access_token: z.string().max(16384).nullish(),
});

/** Decodes one text frame; null when it is not a well-formed Phoenix message. */
export function decodeFrame(text: string, vsn: Vsn): Message | null {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return null;
  }
  const refOf = (v: unknown): string | null | undefined =>
    v === null || v === undefined ? null : typeof v === 'string' || typeof v === 'number' ? String(v) : undefined;
  let joinRef: unknown, ref: unknown, topic: unknown, event: unknown, payload: unknown;
  if (vsn === '2.0.0') {
    if (!Array.isArray(raw) || raw.length !== 5) return null;
    [joinRef, ref, topic, event, payload] = raw;
  } else {
    if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return null;
    const o = raw as Record<string, unknown>;
    ({ join_ref: joinRef, ref, topic, event, payload } = o);
  }
  const jr = refOf(joinRef);
  const r = refOf(ref);
  if (jr === undefined || r === undefined) return null;
  if (typeof topic !== 'string' || typeof event !== 'string' || topic.length > 255 || event.length > 100) return null;
  return { joinRef: jr, ref: r, topic, event, payload: payload ?? {} };
}

function encodeFrame(vsn: Vsn, m: Message): string {
  return vsn === '2.0.0'
    ? JSON.stringify([m.joinRef, m.ref, m.topic, m.event, m.payload])
    : JSON.stringify({ topic: m.topic, event: m.event, payload: m.payload, ref: m.ref, join_ref: m.joinRef });
}

function send(client: Client, m: Message): void {
  if (client.ws.readyState !== client.ws.OPEN) return;
  client.ws.send(encodeFrame(client.vsn, m));
}

function reply(client: Client, req: Message, status: 'ok' | 'error', response: Record<string, unknown>): void {
  send(client, { joinRef: req.joinRef, ref: req.ref, topic: req.topic, event: 'phx_reply', payload: { status, response } });
}

/** A stable positive integer id for a binding, as Realtime's phash2 of the params. */
function bindingId(b: { event: string; schema: string; table?: string | null; filter?: string | null }): number {
  const digest = createHash('sha1')
    .update(JSON.stringify([b.event, b.schema, b.table ?? null, b.filter ?? null]))
    .digest();
  return digest.readUInt32BE(0) & 0x7ffffff;
}

type TokenCheck = { ok: true; role: Role; claims: Record<string, unknown> } | { ok: false; reason: string };

/** Validates a channel's JWT: it must verify and carry `role` and `exp`, as Realtime requires. */
async function checkToken(token: string, ctx: StackContext): Promise<TokenCheck> {
  const claims = await verifyJwt(token, ctx.config.jwtSecret);
  if (!claims) return { ok: false, reason: 'Invalid JWT Token' };
  if (typeof claims.exp !== 'number' || typeof claims.role !== 'string') {
    return { ok: false, reason: 'Fields `role` and `exp` are required in JWT' };
  }
  if (!isRole(claims.role)) return { ok: false, reason: 'Invalid JWT Token' };
  return { ok: true, role: claims.role, claims: claims as Record<string, unknown> };
}

function tokenExpired(claims: Record<string, unknown>): boolean {
  return typeof claims.exp === 'number' && claims.exp * 1000 <= Date.now();
}

interface TableInfo {
  pk: string[];
  columns: Array<{ name: string; type: string }>;
}

/** Serves realtime WebSocket upgrades on the given HTTP server. */
export async function attachRealtime(
  server: http.Server,
  ctx: StackContext,
): Promise<{ close(): Promise<void> }> {
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_FRAME_BYTES, perMessageDeflate: false });
  const clients = new Set<Client>();
  const tables = new Map<string, TableInfo>();

  await installTriggers(ctx, tables);

  // Changes are handled one at a time so every subscriber sees them in commit order.
  let queue: Promise<void> = Promise.resolve();
  let closing = false;
  const unlisten = await ctx.db.listen('realtime', (payload) => {
    if (closing) return;
    queue = queue.then(() => dispatch(payload)).catch((err: unknown) => {
      console.error('[local-supabase] realtime: error al enviar un cambio', err);
    });
  });

  async function dispatch(payload: string): Promise<void> {
    let change: Change;
    try {
      change = changeSchema.parse(JSON.parse(payload));
    } catch {
      return;
    }
    const key = `${change.schema}.${change.table}`;
    const info = tables.get(key);
    if (!info || clients.size === 0) return;

    // One read per distinct role + claims, shared by every channel of the same user.
    const reads = new Map<string, Promise<Record<string, unknown> | null>>();
    const readAs = (ch: Channel): Promise<Record<string, unknown> | null> => {
      const cacheKey = JSON.stringify([ch.role, ch.claims.sub ?? null, ch.claims.role ?? null]);
      let p = reads.get(cacheKey);
      if (!p) {
        p = readRow(ch, change, info).catch(() => null);
        reads.set(cacheKey, p);
      }
      return p;
    };

    for (const client of clients) {
      for (const ch of [...client.channels.values()]) {
        const candidates = ch.bindings.filter(
          (b) =>
            b.schema === change.schema &&
            (b.table === undefined || b.table === '*' || b.table === change.table) &&
            (b.event === '*' || b.event === change.type),
        );
        if (candidates.length === 0) continue;
        if (tokenExpired(ch.claims)) {
          closeChannel(client, ch, 'Token has expired');
          continue;
        }
        let record: Record<string, unknown> | null = null;
        if (change.type !== 'DELETE') {
          record = await readAs(ch);
          if (!record) continue;
        }
        const oldRecord = change.old_pk ?? {};
        const ids = candidates
          .filter((b) => !b.filter || matchesFilter(b.filter, change.type === 'DELETE' ? oldRecord : record!))
          .map((b) => b.id);
        if (ids.length === 0) continue;
        const data: Record<string, unknown> = {
          type: change.type,
          schema: change.schema,
          table: change.table,
          commit_timestamp: change.commit_timestamp,
          columns: info.columns,
        };
        if (record) data.record = record;
        if (change.type !== 'INSERT') data.old_record = oldRecord;
        data.errors = null;
        send(client, { joinRef: null, ref: null, topic: ch.topic, event: 'postgres_changes', payload: { ids, data } });
      }
    }
  }

  async function readRow(ch: Channel, change: Change, info: TableInfo): Promise<Record<string, unknown> | null> {
    if (!change.pk || info.pk.length === 0) return null;
    const where = info.pk
      .map((c) => `t.${quoteIdent(c)} = (jsonb_populate_record(null::${quoteIdent(change.schema)}.${quoteIdent(change.table)}, $1::jsonb)).${quoteIdent(c)}`)
      .join(' and ');
    const sql = `select to_jsonb(t) as r from ${quoteIdent(change.schema)}.${quoteIdent(change.table)} t where ${where}`;
    const r = await ctx.db.asRole(ch.role, ch.claims, (tx) => tx.query<{ r: Record<string, unknown> }>(sql, [JSON.stringify(change.pk)]));
    return r.rows[0]?.r ?? null;
  }

  function closeChannel(client: Client, ch: Channel, message: string): void {
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

  async function join(client: Client, m: Message): Promise<void> {
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
      const check = await checkToken(token, ctx);
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
    const entries = parsed.data.config?.postgres_changes ?? [];
    const bindings: Binding[] = [];
    const echoed: Array<Record<string, unknown>> = [];
    for (const entry of entries) {
      const b = bindingSchema.safeParse(entry);
      if (!b.success) {
        reply(client, m, 'error', { reason: 'Invalid postgres_changes binding' });
        return;
      }
      const event = b.data.event.toUpperCase();
      if (event !== '*' && event !== 'INSERT' && event !== 'UPDATE' && event !== 'DELETE') {
        reply(client, m, 'error', { reason: `Invalid event "${b.data.event}"` });
        return;
      }
      let filter: Filter | undefined;
      if (b.data.filter) {
        try {
          filter = parseFilter(b.data.filter);
        } catch (err) {
          reply(client, m, 'error', { reason: `Error parsing \`filter\` params: ${(err as Error).message}` });
          return;
        }
      }
      const id = bindingId(b.data);
      bindings.push({ id, event, schema: b.data.schema, table: b.data.table ?? undefined, filter });
      echoed.push({ ...b.data, id });
    }
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

  async function onMessage(client: Client, data: RawData, isBinary: boolean): Promise<void> {
    client.lastSeen = Date.now();
    // Binary frames carry Broadcast, which this stack does not relay.
    if (isBinary) return;
    const text = Array.isArray(data) ? Buffer.concat(data).toString('utf8') : Buffer.from(data as ArrayBuffer).toString('utf8');
    const m = decodeFrame(text, client.vsn);
    if (!m) return;
    if (m.topic === 'phoenix') {
      if (m.event === 'heartbeat') reply(client, m, 'ok', {});
      else reply(client, m, 'error', { reason: 'unknown event' });
      return;
    }
    if (m.event === 'phx_join') {
      await join(client, m);
      return;
    }
    const ch = client.channels.get(m.topic);
    if (!ch) {
      reply(client, m, 'error', { reason: 'unmatched topic' });
      return;
    }
    switch (m.event) {
      case 'phx_leave':
        client.channels.delete(m.topic);
        reply(client, m, 'ok', {});
        return;
      case 'access_token': {
        // Realtime sends no reply to a token update; a bad token ends the channel.
        const token = (m.payload as { access_token?: unknown } | null)?.access_token;
        if (typeof token !== 'string' || token.length > 16384) {
          closeChannel(client, ch, 'Invalid JWT Token');
          return;
        }
        if (token.startsWith('sb_')) {
          ch.role = client.apikeyClaims.role as Role;
          ch.claims = client.apikeyClaims;
          return;
        }
        const check = await checkToken(token, ctx);
        if (!check.ok) {
          closeChannel(client, ch, check.reason);
          return;
        }
        if (tokenExpired(check.claims)) {
          closeChannel(client, ch, 'Token has expired');
          return;
        }
        ch.role = check.role;
        ch.claims = check.claims;
        return;
      }
      default:
        // Broadcast and presence pushes are accepted and not relayed.
        if (m.ref !== null && m.event !== 'broadcast' && m.event !== 'presence') {
          reply(client, m, 'error', { reason: `unknown event "${m.event}"` });
        }
    }
  }

  const onUpgrade = (req: http.IncomingMessage, socket: Duplex, head: Buffer) => {
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
    if (closing) {
      reject(503, 'Service Unavailable');
      return;
    }
    // Browsers do not apply CORS to WebSockets: a page of another site is refused here.
    const origin = requestOrigin(req);
    if (origin !== undefined && !originAllowed(ctx.config.corsOrigins, origin)) {
      reject(403, 'Forbidden');
      return;
    }
    const apikey = url.searchParams.get('apikey') ?? (typeof req.headers.apikey === 'string' ? req.headers.apikey : '');
    const vsn: Vsn = url.searchParams.get('vsn') === '2.0.0' ? '2.0.0' : '1.0.0';
    void checkToken(apikey, ctx).then((check) => {
      if (!check.ok) {
        reject(403, 'Forbidden');
        return;
      }
      wss.handleUpgrade(req, socket, head, (ws) => {
        const client: Client = { ws, vsn, apikeyClaims: check.claims, channels: new Map(), lastSeen: Date.now() };
        clients.add(client);
        // Frames are handled in order, one at a time, like a Phoenix channel process.
        let chain: Promise<void> = Promise.resolve();
        ws.on('message', (data, isBinary) => {
          chain = chain
            .then(() => onMessage(client, data, isBinary))
            .catch((err: unknown) => console.error('[local-supabase] realtime: error en un mensaje', err));
        });
        ws.on('error', () => ws.terminate());
        ws.on('close', () => clients.delete(client));
      });
    });
  };
  server.on('upgrade', onUpgrade);

  const sweeper = setInterval(() => {
    const limit = Date.now() - IDLE_TIMEOUT_MS;
    for (const c of clients) if (c.lastSeen < limit) c.ws.terminate();
  }, 15_000);
  sweeper.unref();

  return {
    async close() {
      if (closing) return;
      closing = true;
      clearInterval(sweeper);
      server.off('upgrade', onUpgrade);
      const closed = [...clients].map(
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
      await new Promise<void>((resolve) => wss.close(() => resolve()));
      await queue.catch(() => undefined);
      await unlisten().catch(() => undefined);
    },
  };
}

/**
 * Makes sure the notify function exists and that every table of the supabase_realtime
 * publication has the trigger, with its primary-key columns as arguments.
 */
async function installTriggers(ctx: StackContext, tables: Map<string, TableInfo>): Promise<void> {
  const sqlFile = path.join(BOOTSTRAP_DIR, '60_realtime.sql');
  const hasFn = await ctx.db.admin((tx) =>
    tx.query<{ ok: boolean }>(`select to_regprocedure('realtime_local.notify_change()') is not null as ok`),
  );
  if (!hasFn.rows[0]?.ok) {
    if (!fs.existsSync(sqlFile)) return;
    await ctx.db.exec(fs.readFileSync(sqlFile, 'utf8'));
  }
  await ctx.db.admin(async (tx) => {
    const pub = await tx.query<{ schemaname: string; tablename: string }>(
      `select schemaname, tablename from pg_publication_tables where pubname = 'supabase_realtime'`,
    );
    for (const { schemaname, tablename } of pub.rows) {
      const rel = `${quoteIdent(schemaname)}.${quoteIdent(tablename)}`;
      const pk = await tx.query<{ attname: string }>(
        `select a.attname from pg_index i
           join pg_attribute a on a.attrelid = i.indrelid and a.attnum = any(i.indkey)
          where i.indrelid = $1::regclass and i.indisprimary
          order by array_position(i.indkey::int2[], a.attnum)`,
        [rel],
      );
      const cols = await tx.query<{ name: string; type: string }>(
        `select a.attname as name, t.typname as type from pg_attribute a join pg_type t on t.oid = a.atttypid
          where a.attrelid = $1::regclass and a.attnum > 0 and not a.attisdropped order by a.attnum`,
        [rel],
      );
      const pkCols = pk.rows.map((r) => r.attname);
      tables.set(`${schemaname}.${tablename}`, { pk: pkCols, columns: cols.rows });
      if (pkCols.length === 0) continue;
      const args = pkCols.map((c) => `'${c.replace(/'/g, "''")}'`).join(', ');
      await tx.query(`drop trigger if exists realtime_local_notify on ${rel}`);
      await tx.query(
        `create trigger realtime_local_notify after insert or update or delete on ${rel}
           for each row execute function realtime_local.notify_change(${args})`,
      );
    }
  });
}
