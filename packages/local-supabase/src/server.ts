/**
 * The local stack's HTTP front door: routes by path prefix to the protocol modules,
 * answers CORS preflights and turns every failure into a JSON answer.
 */
import http from 'node:http';
import { handleAuth } from './auth.ts';
import { originAllowed, requestOrigin } from './cors.ts';
import { corsHeaders, HttpError, sendJson } from './http.ts';
import { handleMailbox } from './mailbox.ts';
import { handleRest } from './rest/router.ts';
import { handleStorage } from './storage/router.ts';
import type { Handler, StackContext } from './types.ts';

/** Longest a request may take, body upload included, before the socket is cut. */
export const REQUEST_TIMEOUT_MS = 30_000;
/** Time allowed to send all request headers (slowloris protection). */
export const HEADERS_TIMEOUT_MS = 10_000;

const ROUTES: Array<[prefix: string, handler: Handler]> = [
  ['/rest/v1', handleRest],
  ['/auth/v1', handleAuth],
  ['/storage/v1', handleStorage],
  ['/mailbox', handleMailbox],
];

function matchRoute(pathname: string): { handler: Handler; rest: string } | null {
  for (const [prefix, handler] of ROUTES) {
    if (pathname === prefix || pathname.startsWith(prefix + '/')) {
      return { handler, rest: pathname.slice(prefix.length) || '/' };
    }
  }
  return null;
}

/** Handles one request; never throws. */
export async function dispatch(req: http.IncomingMessage, res: http.ServerResponse, ctx: StackContext): Promise<void> {
  try {
    let url: URL;
    try {
      url = new URL(req.url ?? '/', 'http://localhost');
    } catch {
      sendJson(res, 400, { code: 'PGRST100', message: 'Invalid request URL', details: null, hint: null });
      return;
    }
    // Answers differ by Origin, so caches must key on it.
    res.setHeader('vary', 'Origin');
    const origin = requestOrigin(req);
    const allowed = origin !== undefined && originAllowed(ctx.config.corsOrigins, origin);
    if (allowed) res.setHeader('access-control-allow-origin', origin);
    if (req.method === 'OPTIONS') {
      if (origin !== undefined && !allowed) {
        // A page of another site asked to call the stack: refused, with no CORS headers at all.
        res.writeHead(403, { 'content-type': 'application/json; charset=utf-8' });
        res.end(JSON.stringify({ code: 'cors_origin_not_allowed', message: 'Origin not allowed' }));
        return;
      }
      res.writeHead(204, { ...corsHeaders(), 'access-control-max-age': '86400' });
      res.end();
      return;
    }
    if (url.pathname === '/health') {
      sendJson(res, 200, { status: 'ok' });
      return;
    }
    const route = matchRoute(url.pathname);
    if (!route) {
      sendJson(res, 404, { code: 'not_found', message: 'Not found' });
      return;
    }
    await route.handler(req, res, route.rest, url, ctx);
    if (!res.headersSent && !res.writableEnded) {
      sendJson(res, 500, { code: 'internal', message: 'No response' });
    }
  } catch (err) {
    const code = (err as NodeJS.ErrnoException | undefined)?.code;
    if (req.destroyed && (code === 'ECONNRESET' || code === 'ERR_STREAM_PREMATURE_CLOSE' || (err as Error)?.message === 'aborted')) {
      // The client went away mid-request (or a timeout cut it): nobody is left to answer.
      res.destroy();
      return;
    }
    if (err instanceof HttpError) {
      sendJson(res, err.status, err.body);
    } else {
      console.error('[local-supabase] error no controlado', req.method, req.url, err);
      sendJson(res, 500, { code: 'internal', message: 'Internal server error', details: null, hint: null });
    }
    if (!res.writableEnded) res.end();
  } finally {
    if (!req.readableEnded) {
      if (res.statusCode === 413) {
        // Refused before reading: stop the upload instead of draining gigabytes.
        const closeSocket = () => req.socket.end();
        if (res.writableFinished) closeSocket();
        else res.once('finish', closeSocket);
      } else {
        // Unread request bodies (e.g. an early 4xx) are drained so keep-alive sockets stay usable.
        req.resume();
      }
    }
  }
}

/** Tracks open sockets so shutdown can finish in-flight requests and then close idle ones. */
export interface StackServer {
  server: http.Server;
  /** Stops accepting, waits up to `graceMs` for in-flight requests, then closes every socket. */
  close(graceMs?: number): Promise<void>;
}

export interface ServerOptions {
  requestTimeoutMs?: number;
  headersTimeoutMs?: number;
}

/** Creates the HTTP server (not yet listening). */
export function createStackServer(ctx: StackContext, options: ServerOptions = {}): StackServer {
  const requestTimeout = options.requestTimeoutMs ?? REQUEST_TIMEOUT_MS;
  const headersTimeout = Math.min(options.headersTimeoutMs ?? HEADERS_TIMEOUT_MS, requestTimeout);
  const server = http.createServer({
    requestTimeout,
    headersTimeout,
    keepAliveTimeout: 5_000,
    // Node only enforces the two timeouts above when it checks, every interval.
    connectionsCheckingInterval: Math.min(1_000, Math.max(100, Math.floor(headersTimeout / 4))),
  });
  let inFlight = 0;
  let idleWaiters: Array<() => void> = [];
  server.on('request', (req, res) => {
    inFlight++;
    res.on('close', () => {
      inFlight--;
      if (inFlight === 0) {
        for (const w of idleWaiters) w();
        idleWaiters = [];
      }
    });
    void dispatch(req, res, ctx);
  });
  server.on('clientError', (err: NodeJS.ErrnoException, socket) => {
    if (!socket.writable || err.code === 'ECONNRESET') {
      socket.destroy();
      return;
    }
    const status = err.code === 'HPE_HEADER_OVERFLOW' ? 431 : err.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
    const body = JSON.stringify({ code: String(status), message: 'Bad request' });
    socket.end(
      `HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
    );
  });

  return {
    server,
    async close(graceMs = 10_000) {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      if (inFlight > 0) {
        await Promise.race([new Promise<void>((resolve) => idleWaiters.push(resolve)), new Promise<void>((resolve) => setTimeout(resolve, graceMs).unref())]);
      }
      server.closeAllConnections();
      await closed;
    },
  };
}

/** Starts listening on `host:port` (0 picks a free port); resolves with the port and the base URL. */
export async function listen(server: http.Server, port: number, host: string): Promise<{ port: number; url: string }> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  const actualPort = typeof address === 'object' && address ? address.port : port;
  const urlHost = host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
  return { port: actualPort, url: `http://${urlHost}:${actualPort}` };
}
