/**
 * The Phoenix channel protocol realtime-js speaks: vsn 1.0.0 object frames and 2.0.0 array
 * frames, each one message (join ref, ref, topic, event, payload).
 */
import type { WebSocket } from 'ws';

export type Vsn = '1.0.0' | '2.0.0';

export interface Message {
  joinRef: string | null;
  ref: string | null;
  topic: string;
  event: string;
  payload: unknown;
}

/** One end of a socket: where frames go and how they are encoded. */
export interface Peer {
  ws: WebSocket;
  vsn: Vsn;
}

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

export function encodeFrame(vsn: Vsn, m: Message): string {
  return vsn === '2.0.0'
    ? JSON.stringify([m.joinRef, m.ref, m.topic, m.event, m.payload])
    : JSON.stringify({ topic: m.topic, event: m.event, payload: m.payload, ref: m.ref, join_ref: m.joinRef });
}

export function send(peer: Peer, m: Message): void {
  if (peer.ws.readyState !== peer.ws.OPEN) return;
  peer.ws.send(encodeFrame(peer.vsn, m));
}

export function reply(peer: Peer, req: Message, status: 'ok' | 'error', response: Record<string, unknown>): void {
  send(peer, { joinRef: req.joinRef, ref: req.ref, topic: req.topic, event: 'phx_reply', payload: { status, response } });
}
