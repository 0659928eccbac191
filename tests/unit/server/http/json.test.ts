/**
 * Request bodies are capped as they stream: a body over its endpoint's limit is refused with 413
 * after reading no more than the limit (and a chunk), whether it declares its length or not, and
 * the payment webhooks, which read their body before they can check its signature, refuse it
 * before anything else looks at it.
 */
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { ApiError, handle, MAX_BODY_BYTES, readJson, readText } from '~/server/http/json.ts';
import type { ServerContext } from '~/server/context.ts';
import { stripeWebhook } from '~/server/payments/stripe-webhook.ts';
import { paypalWebhook } from '~/server/payments/paypal-webhook.ts';

const CHUNK = 64 * 1024;
const TWENTY_MB = 20 * 1024 * 1024;

/** A body of `total` bytes sent in chunks as it is pulled, counting what the reader pulled and whether it gave up. */
function countingBody(total: number, fill = 0x61) {
  const seen = { pulled: 0, cancelled: false };
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (seen.pulled >= total) {
        controller.close();
        return;
      }
      const size = Math.min(CHUNK, total - seen.pulled);
      seen.pulled += size;
      controller.enqueue(new Uint8Array(size).fill(fill));
    },
    cancel() {
      seen.cancelled = true;
    },
  });
  return { seen, stream };
}

/** A POST whose body is `body`, with no Content-Length unless given (as a chunked upload arrives). */
function post(body: ReadableStream<Uint8Array> | string, headers: Record<string, string> = {}): Request {
  return new Request('http://localhost/api/test', { method: 'POST', body, headers, duplex: 'half' } as RequestInit);
}

/** The error a promise rejects with. */
async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('it did not reject');
}

describe('readText and readJson', () => {
  it('refuses a chunked 20 MB body with 413 after reading no more than the limit and one chunk, and stops the stream', async () => {
    const { seen, stream } = countingBody(TWENTY_MB);
    const error = await rejection(readJson(post(stream), z.object({})));
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(413);
    expect((error as ApiError).code).toBe('payload_too_large');
    // At most one chunk past the limit, and one more the stream may have queued ahead.
    expect(seen.pulled).toBeLessThanOrEqual(MAX_BODY_BYTES + 2 * CHUNK);
    expect(seen.cancelled).toBe(true);
  });

  it('answers such a body, through handle, with a 413 JSON error in Spanish', async () => {
    const { seen, stream } = countingBody(TWENTY_MB);
    const response = await handle(async () => {
      await readJson(post(stream), z.object({}));
      return new Response('read');
    });
    expect(response.status).toBe(413);
    const body = (await response.json()) as { error: string; message: string };
    expect(body.error).toBe('payload_too_large');
    expect(body.message).toMatch(/demasiado grande/);
    expect(seen.pulled).toBeLessThan(1024 * 1024);
  });

  it('refuses a body longer than its Content-Length says, past the limit, the same way', async () => {
    const { seen, stream } = countingBody(TWENTY_MB);
    const error = await rejection(readText(post(stream, { 'content-length': '10' }), 4096));
    expect((error as ApiError).status).toBe(413);
    expect(seen.pulled).toBeLessThanOrEqual(4096 + 2 * CHUNK);
  });

  it('refuses a declared Content-Length over the limit before reading anything', async () => {
    const { seen, stream } = countingBody(TWENTY_MB);
    const error = await rejection(readText(post(stream, { 'content-length': String(TWENTY_MB) })));
    expect((error as ApiError).status).toBe(413);
    expect(seen.pulled).toBeLessThanOrEqual(CHUNK);
  });

  it('reads a chunked body within the limit whole, with characters split between chunks intact', async () => {
    const text = JSON.stringify({ name: 'Pokémon — Evolución Prismática ñ'.repeat(50) });
    const bytes = new TextEncoder().encode(text);
    // Chunks of 7 bytes split the two-byte characters.
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let at = 0; at < bytes.length; at += 7) controller.enqueue(bytes.slice(at, at + 7));
        controller.close();
      },
    });
    expect(await readJson(post(stream), z.object({ name: z.string() }))).toEqual(JSON.parse(text));
    // Exactly at the limit is still read.
    expect(await readText(post('x'.repeat(MAX_BODY_BYTES)))).toHaveLength(MAX_BODY_BYTES);
    expect(await readText(new Request('http://localhost/api/test', { method: 'POST' }))).toBe('');
  });

  it("answers 413, not 400 or 500, when the server's own cap on bodies stops the stream", async () => {
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        controller.error(new Error('Body size limit exceeded: received more than 1048576 bytes'));
      },
    });
    const response = await handle(async () => {
      await readText(post(stream), 2 * 1024 * 1024);
      return new Response('read');
    });
    expect(response.status).toBe(413);
    // A stream that fails otherwise is the caller's broken request: 400.
    const broken = new ReadableStream<Uint8Array>({
      pull(controller) {
        controller.error(new Error('aborted'));
      },
    });
    expect((await handle(async () => new Response(await readText(post(broken))))).status).toBe(400);
  });
});

describe('payment webhooks', () => {
  /** A server context whose providers would verify the notification: they must never be reached. */
  function context() {
    const verify = vi.fn(async () => {
      throw new Error('the signature was checked on a body over the limit');
    });
    const ctx = { payments: { card: { verifyWebhook: verify }, paypal: { verifyWebhook: verify } } } as unknown as ServerContext;
    return { ctx, verify };
  }

  it.each([
    ['Stripe', stripeWebhook],
    ['PayPal', paypalWebhook],
  ])('%s: a chunked 20 MB notification is refused with 413 before its signature is checked, reading at most 512 KB of it', async (_name, webhook) => {
    const { ctx, verify } = context();
    const { seen, stream } = countingBody(TWENTY_MB);
    const response = await handle(() => webhook(post(stream, { 'content-type': 'application/json' }), ctx));
    expect(response.status).toBe(413);
    expect(((await response.json()) as { error: string }).error).toBe('payload_too_large');
    expect(verify).not.toHaveBeenCalled();
    expect(seen.pulled).toBeLessThanOrEqual(512 * 1024 + 2 * CHUNK);
  });
});
