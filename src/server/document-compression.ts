/**
 * Pages compressed once, for every shopper after that.
 *
 * The compression middleware of scripts/serve.mjs compresses each answer as it goes out, at
 * brotli quality 4: about a millisecond of a core for a page, on every request. Under the load run
 * (200 shoppers a second over 425 pages) that was the largest share of a server's CPU: a server
 * spent more of it compressing the same pages again than doing anything else. So a page asked for
 * a second time is compressed once and kept, and every later request for it is sent those bytes
 * with no compression work at all:
 *
 *   - at once, at quality 5 (QUICK_QUALITY: about 1.3 ms for a 117 KB page, in zlib's thread
 *     pool, a few pages at a time), whenever the server is busy;
 *   - at brotli's best quality (11: 132 ms for the same page, 17% smaller than quality 4) in the
 *     server's spare time: one page at a time, none while the server's event loop has been busy
 *     more than a tenth of the last second, and after each page a pause of nine times what it
 *     took, so it takes at most a tenth of one core. A page kept at quality 5 is compressed again
 *     at 11 when it is asked for at such a time.
 *
 * What the best quality buys a shopper: a page whose answer fits in the first round trip of a new
 * connection (TCP's initial window of 10 segments, 14.6 KB with the headers) is on their screen a
 * whole round trip sooner, 150 ms and more on a phone's network. /explore at 100,000 products did
 * not fit at quality 4 and fits at quality 11.
 *
 * The stored bytes are found by the SHA-256 of the page itself, so a page that changed (a rebuild,
 * a new answer of /explore) is never sent from an older copy; it is simply another page. Memory is
 * bounded (the least recently sent are dropped), and a page asked for only once (a crawler going
 * through 100,000 products) is remembered by its hash alone.
 */
import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { performance, type EventLoopUtilization } from 'node:perf_hooks';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import Negotiator from 'negotiator';

const brotli = promisify(zlib.brotliCompress);

/** The encodings and preference of the compression middleware, so both choose alike. */
const ENCODINGS = ['br', 'gzip', 'deflate', 'identity'];
const PREFERRED = ['br', 'gzip'];
/** Brotli quality of a copy made while the server is busy: about as fast as the middleware's 4, a little smaller. */
export const QUICK_QUALITY = 5;
/** Quick copies being made at once, at most (zlib's thread pool has four threads, shared with the file system). */
const QUICK_AT_ONCE = 2;

/** A stored copy and the quality it was made at. */
interface Copy {
  bytes: Buffer;
  quality: number;
}

export interface DocumentCompressionOptions {
  /** Most bytes of compressed pages kept (default 32 MB). */
  maxBytes?: number;
  /** How many pages' first sightings are remembered (default 20,000). */
  maxSeen?: number;
  /** Brotli quality of the copies made in spare time (default 11, the best). */
  quality?: number;
  /** Pages smaller than this are left to the middleware (default 1 KB, its own threshold). */
  minBytes?: number;
  /** No compression starts while the event loop was busy more than this share of the last second (default 0.1). */
  busyShare?: number;
  /** After compressing a page, none starts for this many times as long as it took (default 9). */
  restFactor?: number;
  /** How busy the event loop has been lately, 0–1 (default: Node's event loop utilization over the last second). */
  busy?: () => number;
}

/** True when the request's Accept-Encoding makes brotli the answer's encoding. */
export function acceptsBrotli(req: IncomingMessage): boolean {
  // negotiator 0.6.4 takes the preferred encodings as a second argument (the middleware passes
  // them); its published types do not declare it yet.
  const negotiator = new Negotiator(req) as unknown as { encoding(available: string[], preferred: string[]): string | undefined };
  return negotiator.encoding(ENCODINGS, PREFERRED) === 'br';
}

export class DocumentCompression {
  private readonly maxBytes: number;
  private readonly maxSeen: number;
  private readonly quality: number;
  private readonly minBytes: number;
  /** SHA-256 of a page → its brotli copy; Map order is the order they were last sent. */
  private readonly stored = new Map<string, Copy>();
  private storedBytes = 0;
  /** Pages asked for once, not yet compressed. */
  private readonly seen = new Set<string>();
  /** The page being compressed at the best quality now, if any. */
  private working: Promise<void> | null = null;
  /** Pages being given a quick copy now, by key. */
  private readonly quick = new Map<string, Promise<void>>();
  /** No compression starts before this time (performance.now()). */
  private restUntil = 0;
  /** Whether a compression was ever started. */
  private compressedAny = false;
  private readonly busyShare: number;
  private readonly restFactor: number;
  private readonly busy: () => number;

  constructor(options: DocumentCompressionOptions = {}) {
    this.maxBytes = options.maxBytes ?? 32 * 1024 * 1024;
    this.maxSeen = options.maxSeen ?? 20_000;
    this.quality = options.quality ?? 11;
    this.minBytes = options.minBytes ?? 1024;
    this.busyShare = options.busyShare ?? 0.1;
    this.restFactor = options.restFactor ?? 9;
    this.busy = options.busy ?? eventLoopBusy();
  }

  /** How many pages are stored and their bytes. */
  get size(): { pages: number; bytes: number } {
    return { pages: this.stored.size, bytes: this.storedBytes };
  }

  /** Resolves when the pages being compressed (if any) are stored. */
  async settled(): Promise<void> {
    await Promise.all([this.working, ...this.quick.values()]);
  }

  /** The quality this page is stored at, or null when it is not stored. */
  storedQuality(page: Buffer): number | null {
    return this.stored.get(pageKey(page))?.quality ?? null;
  }

  /**
   * The brotli bytes of this page if they are stored. Otherwise remembers the page and, the
   * second time it is asked for, compresses it: at the best quality in spare time, else quickly.
   * A page stored at the quick quality is compressed again at the best one in spare time.
   */
  lookup(page: Buffer): Buffer | null {
    if (page.length < this.minBytes) return null;
    const key = pageKey(page);
    const found = this.stored.get(key);
    if (found) {
      // Most recently sent last, so the oldest are the first to go.
      this.stored.delete(key);
      this.stored.set(key, found);
      if (found.quality < this.quality && this.spare()) this.working = this.compress(key, page, this.quality);
      return found.bytes;
    }
    if (!this.seen.has(key)) {
      if (this.seen.size >= this.maxSeen) this.seen.delete(this.seen.values().next().value!);
      this.seen.add(key);
      return null;
    }
    if (this.spare()) this.working = this.compress(key, page, this.quality);
    else if (!this.quick.has(key) && this.quick.size < QUICK_AT_ONCE) {
      const job = this.compress(key, page, QUICK_QUALITY).finally(() => this.quick.delete(key));
      this.quick.set(key, job);
    }
    return null;
  }

  /**
   * Whether a best-quality compression may start now: none running, the rest after the last one
   * over, and the event loop quiet. The first page is compressed however busy the loop was: it is
   * the one the server asks for itself as it starts (scripts/serve.mjs), just after reading the
   * catalogue kept it busy.
   */
  private spare(): boolean {
    if (this.working || performance.now() < this.restUntil) return false;
    if (this.compressedAny && this.busy() > this.busyShare) return false;
    this.compressedAny = true;
    return true;
  }

  private async compress(key: string, page: Buffer, quality: number): Promise<void> {
    const best = quality >= this.quality;
    const started = performance.now();
    try {
      const bytes = await brotli(page, {
        params: {
          [zlib.constants.BROTLI_PARAM_QUALITY]: quality,
          [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
          [zlib.constants.BROTLI_PARAM_SIZE_HINT]: page.length,
        },
      });
      this.seen.delete(key);
      const old = this.stored.get(key);
      // A quick copy never replaces a better one made meanwhile.
      if (bytes.length > this.maxBytes || (old && old.quality >= quality)) return;
      if (old) this.storedBytes -= old.bytes.length;
      this.stored.set(key, { bytes, quality });
      this.storedBytes += bytes.length;
      for (const [oldKey, copy] of this.stored) {
        if (this.storedBytes <= this.maxBytes) break;
        this.stored.delete(oldKey);
        this.storedBytes -= copy.bytes.length;
      }
    } catch {
      // A page that cannot be compressed goes out through the middleware as before.
    } finally {
      if (best) {
        this.restUntil = performance.now() + (performance.now() - started) * this.restFactor;
        this.working = null;
      }
    }
  }

  /**
   * The bytes to send for a whole HTML page: its stored brotli copy, with Content-Encoding,
   * Content-Length and Vary set, when the shopper's browser takes brotli and the copy is stored;
   * otherwise the page itself, left to the compression middleware.
   */
  finish(req: IncomingMessage, res: ServerResponse, page: Buffer): Buffer {
    if (req.method === 'HEAD' || res.statusCode !== 200 || res.getHeader('content-encoding') !== undefined) return page;
    const negotiated = acceptsBrotli(req);
    // Every page is remembered and compressed alike, whichever browser asked first.
    const stored = this.lookup(page);
    if (!stored || !negotiated) return page;
    res.setHeader('Content-Encoding', 'br');
    res.setHeader('Content-Length', stored.length);
    const vary = res.getHeader('vary');
    if (!vary) res.setHeader('Vary', 'Accept-Encoding');
    else if (!/accept-encoding/i.test(String(vary))) res.setHeader('Vary', `${String(vary)}, Accept-Encoding`);
    return stored;
  }
}

/** The key of a page: the SHA-256 of its bytes. */
function pageKey(page: Buffer): string {
  return createHash('sha256').update(page).digest('base64');
}

/** The share of the last second (about) the event loop was busy, from Node's event loop utilization. */
function eventLoopBusy(): () => number {
  let mark: EventLoopUtilization = performance.eventLoopUtilization();
  let markedAt = performance.now();
  let share = 0;
  return () => {
    const now = performance.now();
    if (now - markedAt >= 1000) {
      const current = performance.eventLoopUtilization();
      share = performance.eventLoopUtilization(current, mark).utilization;
      mark = current;
      markedAt = now;
    }
    return share;
  };
}
