/**
 * The local realtime server: supabase-js subscriptions receive the changes their JWT may
 * read under RLS, in realtime-js's payload shape; the Phoenix protocol answers joins,
 * heartbeats and leaves; and malformed frames never bring the stack down.
 */
import { createClient, type RealtimeChannel, type SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startTestStack, type TestStack } from './helpers.ts';

let stack: TestStack;
const clients: SupabaseClient[] = [];

beforeAll(async () => {
  stack = await startTestStack({ autoconfirm: true });
}, 60_000);
afterAll(async () => {
  for (const c of clients) await c.removeAllChannels();
  await stack?.stop();
});

function client(key = stack.anonKey): SupabaseClient {
  const c = createClient(stack.url, key, {
    auth: { persistSession: false, autoRefreshToken: false },
    realtime: { transport: WebSocket as unknown as typeof globalThis.WebSocket },
  });
  clients.push(c);
  return c;
}

let seq = 0;
async function newUser(tag: string): Promise<{ sb: SupabaseClient; id: string }> {
  seq += 1;
  const sb = client();
  const { data, error } = await sb.auth.signUp({ email: `${tag}.${seq}.${Date.now()}@correo.mx`, password: 'secreto-123' });
  expect(error).toBeNull();
  // Realtime takes the session's JWT from the client, as the shop's pages do.
  sb.realtime.setAuth(data.session!.access_token);
  return { sb, id: data.user!.id };
}

async function waitFor(check: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > timeoutMs) throw new Error(`Tiempo agotado esperando: ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

function subscribed(channel: RealtimeChannel): Promise<void> {
  return new Promise((resolve, reject) => {
    channel.subscribe((status, err) => {
      if (status === 'SUBSCRIBED') resolve();
      else if (status === 'CHANNEL_ERROR' || status === 'TIMED_OUT') reject(err ?? new Error(status));
    });
  });
}

const ADDRESS = { street: 'Av. Reforma 100', city: 'Ciudad de México', state: 'CDMX', zip: '06600' };

describe('postgres_changes through supabase-js', () => {
  it("an address inserted by A reaches A's filtered subscription and not B's whole-table one (RLS)", async () => {
    const a = await newUser('rt-a');
    const b = await newUser('rt-b');
    const gotA: Array<Record<string, any>> = [];
    const gotB: Array<Record<string, any>> = [];
    const chA = a.sb
      .channel(`direcciones-${a.id}`)
      .on('postgres_changes', { event: '*', schema: 'public', table: 'addresses', filter: `user_id=eq.${a.id}` }, (p) => gotA.push(p));
    const chB = b.sb.channel('direcciones-todas').on('postgres_changes', { event: '*', schema: 'public', table: 'addresses' }, (p) => gotB.push(p));
    await subscribed(chA);
    await subscribed(chB);

    const inserted = await a.sb.from('addresses').insert(ADDRESS).select().single();
    expect(inserted.error).toBeNull();
    await waitFor(() => gotA.length === 1, "A's address event");
    expect(gotA[0]).toMatchObject({
      schema: 'public',
      table: 'addresses',
      eventType: 'INSERT',
      new: { id: inserted.data.id, user_id: a.id, street: ADDRESS.street, is_default: true },
      errors: null,
    });
    expect(gotA[0]!.commit_timestamp).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);

    // Changes go out in commit order, so once B sees its own address it has been sent
    // everything about A's earlier insert that it was ever going to get.
    const own = await b.sb
      .from('addresses')
      .insert({ ...ADDRESS, street: 'Calle B 2' })
      .select()
      .single();
    expect(own.error).toBeNull();
    await waitFor(() => gotB.length >= 1, "B's own address event");
    await new Promise((r) => setTimeout(r, 100));
    expect(gotB.map((e) => e.new.user_id)).toEqual([b.id]);
    expect(gotA).toHaveLength(1);

    const updated = await a.sb.from('addresses').update({ label: 'Casa' }).eq('id', inserted.data.id);
    expect(updated.error).toBeNull();
    await waitFor(() => gotA.length === 2, "A's update event");
    expect(gotA[1]).toMatchObject({ eventType: 'UPDATE', new: { label: 'Casa' }, old: { id: inserted.data.id } });
    // Under RLS the old record carries only the primary key, as Supabase sends it.
    expect(Object.keys(gotA[1]!.old)).toEqual(['id']);
  });

  it("an order updated by the service role reaches its owner's subscription only", async () => {
    const owner = await newUser('rt-pedido');
    const other = await newUser('rt-otro');
    const service = client(stack.serviceRoleKey);
    const order = await service.from('orders').insert({ user_id: owner.id }).select().single();
    expect(order.error).toBeNull();
    const otherOrder = await service.from('orders').insert({ user_id: other.id }).select().single();
    expect(otherOrder.error).toBeNull();

    const gotOwner: Array<Record<string, any>> = [];
    const gotOther: Array<Record<string, any>> = [];
    await subscribed(
      owner.sb
        .channel('pedidos')
        .on('postgres_changes', { event: 'UPDATE', schema: 'public', table: 'orders', filter: `user_id=eq.${owner.id}` }, (p) => gotOwner.push(p)),
    );
    await subscribed(other.sb.channel('pedidos').on('postgres_changes', { event: '*', schema: 'public', table: 'orders' }, (p) => gotOther.push(p)));

    const paid = await service.from('orders').update({ status: 'Pagado', paid_at: new Date().toISOString() }).eq('id', order.data.id);
    expect(paid.error).toBeNull();
    await waitFor(() => gotOwner.length === 1, "the owner's order event");
    expect(gotOwner[0]).toMatchObject({ eventType: 'UPDATE', table: 'orders', new: { id: order.data.id, status: 'Pagado' } });
    // numeric columns arrive as numbers after realtime-js's conversion.
    expect(typeof gotOwner[0]!.new.total).toBe('number');

    const mark = await service.from('orders').update({ status: 'Procesando' }).eq('id', otherOrder.data.id);
    expect(mark.error).toBeNull();
    await waitFor(() => gotOther.length >= 1, "the other user's own order event");
    await new Promise((r) => setTimeout(r, 100));
    expect(gotOther.map((e) => e.new.id)).toEqual([otherOrder.data.id]);
  });

  it('removeChannel unsubscribes: later changes no longer reach the callback', async () => {
    const a = await newUser('rt-baja');
    const got: unknown[] = [];
    const ch = a.sb
      .channel('baja')
      .on('postgres_changes', { event: 'INSERT', schema: 'public', table: 'addresses', filter: `user_id=eq.${a.id}` }, (p) => got.push(p));
    await subscribed(ch);
    await a.sb.from('addresses').insert(ADDRESS);
    await waitFor(() => got.length === 1, 'the first event');
    expect(await a.sb.removeChannel(ch)).toBe('ok');
    expect(a.sb.getChannels()).toHaveLength(0);

    // A second, still-subscribed channel proves later events are flowing.
    const probe: unknown[] = [];
    const ch2 = a.sb
      .channel('sonda')
      .on('postgres_changes', { event: 'INSERT', schema: 'public', table: 'addresses', filter: `user_id=eq.${a.id}` }, (p) => probe.push(p));
    await subscribed(ch2);
    await a.sb.from('addresses').insert({ ...ADDRESS, street: 'Segunda 2' });
    await waitFor(() => probe.length === 1, 'the probe event');
    expect(got).toHaveLength(1);
  });
});

/** A raw Phoenix client for protocol-level checks. */
async function rawSocket(vsn: '1.0.0' | '2.0.0' = '2.0.0', apikey = stack.anonKey) {
  const url = `${stack.url.replace(/^http/, 'ws')}/realtime/v1/websocket?apikey=${encodeURIComponent(apikey)}&vsn=${vsn}`;
  const ws = new WebSocket(url);
  const frames: unknown[] = [];
  ws.on('message', (d) => frames.push(JSON.parse(d.toString())));
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  const closed = new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)));
  return { ws, frames, closed };
}

function framesFor(frames: unknown[], ref: string): any[] {
  return frames.filter((f) => Array.isArray(f) && f[1] === ref);
}

describe('Phoenix protocol', () => {
  it('answers heartbeats, echoes join bindings with ids, announces the subscription, and replies to leave', async () => {
    const { ws, frames } = await rawSocket();
    ws.send(JSON.stringify([null, '1', 'phoenix', 'heartbeat', {}]));
    const bindings = [
      { event: '*', schema: 'public', table: 'profiles' },
      { event: 'INSERT', schema: 'public', table: 'addresses', filter: 'user_id=eq.00000000-0000-0000-0000-000000000000' },
    ];
    ws.send(JSON.stringify(['2', '2', 'realtime:prueba', 'phx_join', { config: { postgres_changes: bindings }, access_token: stack.anonKey }]));
    await waitFor(() => frames.some((f: any) => f[3] === 'system'), 'the system message');
    expect(framesFor(frames, '1')[0]).toEqual([null, '1', 'phoenix', 'phx_reply', { status: 'ok', response: {} }]);
    const join = framesFor(frames, '2')[0];
    expect(join[3]).toBe('phx_reply');
    expect(join[4].status).toBe('ok');
    const echoed = join[4].response.postgres_changes;
    expect(echoed.map(({ id, ...rest }: any) => rest)).toEqual(bindings);
    expect(echoed.every((b: any) => Number.isInteger(b.id))).toBe(true);
    expect(frames.find((f: any) => f[3] === 'system')).toEqual([
      '2',
      null,
      'realtime:prueba',
      'system',
      { extension: 'postgres_changes', status: 'ok', message: 'Subscribed to PostgreSQL', channel: 'prueba' },
    ]);

    ws.send(JSON.stringify(['2', '3', 'realtime:prueba', 'phx_leave', {}]));
    ws.send(JSON.stringify(['2', '4', 'realtime:prueba', 'access_token', { access_token: stack.anonKey }]));
    await waitFor(() => framesFor(frames, '4').length === 1, 'the reply after leaving');
    expect(framesFor(frames, '3')[0][4]).toEqual({ status: 'ok', response: {} });
    expect(framesFor(frames, '4')[0][4]).toEqual({ status: 'error', response: { reason: 'unmatched topic' } });
    ws.close();
  });

  it('refuses bad tokens, bad filters and bad topics with error replies; speaks vsn 1.0.0 object frames', async () => {
    const { ws, frames } = await rawSocket('1.0.0');
    const send = (ref: string, topic: string, event: string, payload: unknown) => ws.send(JSON.stringify({ topic, event, payload, ref, join_ref: ref }));
    send('1', 'realtime:a', 'phx_join', { config: { postgres_changes: [] }, access_token: 'no.es.jwt' });
    send('2', 'realtime:b', 'phx_join', {
      config: { postgres_changes: [{ event: '*', schema: 'public', table: 'addresses', filter: 'user_id=zz.1' }] },
    });
    send('3', 'sin-prefijo', 'phx_join', { config: {} });
    send('4', 'realtime:c', 'phx_join', { config: { postgres_changes: [] } });
    await waitFor(() => frames.length >= 4, 'four replies');
    const byRef = (ref: string) => frames.find((f: any) => f.ref === ref) as any;
    expect(byRef('1')).toMatchObject({ event: 'phx_reply', payload: { status: 'error', response: { reason: 'Invalid JWT Token' } } });
    expect(byRef('2').payload.status).toBe('error');
    expect(byRef('2').payload.response.reason).toContain('filter');
    expect(byRef('3').payload.status).toBe('error');
    expect(byRef('4')).toEqual({
      topic: 'realtime:c',
      event: 'phx_reply',
      payload: { status: 'ok', response: { postgres_changes: [] } },
      ref: '4',
      join_ref: '4',
    });
    ws.close();
  });

  it('refuses a connection without a valid apikey', async () => {
    const url = `${stack.url.replace(/^http/, 'ws')}/realtime/v1/websocket?apikey=falsa&vsn=2.0.0`;
    const ws = new WebSocket(url);
    const status = await new Promise<number>((resolve) => {
      ws.once('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
      ws.once('open', () => resolve(101));
      ws.once('error', () => resolve(-1));
    });
    expect(status).toBe(403);
  });

  it('survives 300 malformed frames: error replies or a clean close, never a crash, and the stack still answers', async () => {
    // Deterministic pseudo-random input, so a failure can be replayed.
    let state = 0x2f6b1e8a;
    const rand = () => {
      state ^= state << 13;
      state ^= state >>> 17;
      state ^= state << 5;
      return (state >>> 0) / 0x100000000;
    };
    const pick = <T>(xs: T[]): T => xs[Math.floor(rand() * xs.length)]!;
    const randomBytes = (n: number) => Buffer.from(Array.from({ length: n }, () => Math.floor(rand() * 256)));
    const shapes: Array<() => string | Buffer> = [
      () => randomBytes(1 + Math.floor(rand() * 64)),
      () => randomBytes(1 + Math.floor(rand() * 64)).toString('latin1'),
      () => '{"topic": "realtime:x", "event": ',
      () => '[1,2,3]',
      () => 'null',
      () => '"texto"',
      () => JSON.stringify([null, null, null, null, null]),
      () => JSON.stringify([{}, [], 5, true, 'x']),
      () => JSON.stringify(['1', '1', 'realtime:x', 'phx_join', 'no-es-objeto']),
      () => JSON.stringify(['1', '1', 'realtime:x', 'phx_join', { config: { postgres_changes: 'x' } }]),
      () => JSON.stringify(['1', '1', 'realtime:x', 'phx_join', { config: { postgres_changes: [{ event: 'BORRAR', schema: 'public' }] } }]),
      () => JSON.stringify(['1', '1', 'realtime:x', 'phx_join', { config: { postgres_changes: [{ event: '*', schema: 1 }] } }]),
      () => JSON.stringify(['1', '1', 'realtime:x', 'phx_join', { access_token: 12345 }]),
      () => JSON.stringify(['1', String(rand()), `realtime:${rand()}`, pick(['phx_leave', 'access_token', 'broadcast', 'raro', 'presence']), {}]),
      () => JSON.stringify(['1', '9', 'desconocido', 'phx_join', {}]),
      () => JSON.stringify(['1', '9', 'phoenix', 'otra-cosa', {}]),
      () => JSON.stringify(['1', '9', 'realtime:x', 'access_token', { access_token: 'x'.repeat(20000) }]),
      () => JSON.stringify({ topic: 'realtime:x', event: 'phx_join', payload: {}, ref: '1' }),
      () => JSON.stringify(['1', '1', 'realtime:' + 'x'.repeat(5000), 'phx_join', {}]),
      () =>
        JSON.stringify([
          '1',
          '1',
          'realtime:x',
          'phx_join',
          { config: { postgres_changes: Array.from({ length: 500 }, () => ({ event: '*', schema: 'public' })) } },
        ]),
    ];
    // Frames go in batches of ten, each followed by a heartbeat: the socket must either
    // answer it (still healthy, frames handled in order) or have closed cleanly.
    const allowedCloseCodes = [1000, 1002, 1007, 1008, 1009, 1011];
    const closeCodes: number[] = [];
    let sock = await rawSocket();
    let sent = 0;
    let heartbeats = 0;
    for (let batch = 0; batch < 30; batch++) {
      for (let i = 0; i < 10; i++) {
        const frame = pick(shapes)();
        sock.ws.send(frame, { binary: Buffer.isBuffer(frame) && rand() < 0.5 });
        sent++;
      }
      const ref = `latido-${batch}`;
      sock.ws.send(JSON.stringify([null, ref, 'phoenix', 'heartbeat', {}]));
      const current = sock;
      const outcome = await Promise.race([
        waitFor(() => framesFor(current.frames, ref).length === 1, ref).then(() => 'reply' as const),
        current.closed.then((code) => code),
      ]);
      if (outcome === 'reply') {
        heartbeats++;
        expect(framesFor(current.frames, ref)[0][4]).toEqual({ status: 'ok', response: {} });
      } else {
        closeCodes.push(outcome);
        sock = await rawSocket();
      }
      for (const f of current.frames as any[]) {
        if (Array.isArray(f) && f[3] === 'phx_reply') expect(['ok', 'error']).toContain(f[4].status);
      }
    }
    expect(sent).toBe(300);
    expect(heartbeats + closeCodes.length).toBe(30);
    expect(heartbeats).toBeGreaterThan(0);
    for (const code of closeCodes) expect(allowedCloseCodes).toContain(code);

    // A frame over the size limit closes that socket cleanly (1009), not the server.
    sock.ws.send('x'.repeat(1024 * 1024 + 10));
    expect(await sock.closed).toBe(1009);

    const health = await fetch(`${stack.url}/auth/v1/health`);
    expect(health.status).toBe(200);
    const a = await newUser('rt-despues');
    const got: unknown[] = [];
    await subscribed(
      a.sb
        .channel('despues')
        .on('postgres_changes', { event: 'INSERT', schema: 'public', table: 'addresses', filter: `user_id=eq.${a.id}` }, (p) => got.push(p)),
    );
    await a.sb.from('addresses').insert(ADDRESS);
    await waitFor(() => got.length === 1, 'an event after the fuzz');
  });
});
