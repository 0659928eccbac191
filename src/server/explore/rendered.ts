/**
 * /explore's rendered answers, kept in the server by address. ./search.ts keeps each search; this
 * keeps the HTML made from it (the page, or the parts src/scripts/explore.ts swaps in), so an
 * address asked for again costs no search and no render: the answer is handed out as it was made.
 *
 * An answer is reused while the catalogue has the version it was made from, and for at most
 * REUSE_MS after it was made whatever the catalogue did meanwhile: stock changes bump the version
 * every few seconds while shoppers buy, and without that window a busy shop would render each
 * popular address again after every sale. So what a shopper sees is at most REUSE_MS older than
 * the catalogue, which itself reads stock every EXPLORE_LIVE_MS; a CDN may keep it CDN_SECONDS
 * more (search.ts). Several requests for an address not kept yet wait for one render.
 *
 * Only whole 200 answers to GET are kept, at most MAX_BYTES of them (the least recently used go
 * first). Nothing in them depends on who asks: /explore reads no cookie or session, and the
 * account and cart parts of its header fill in on the client.
 */

/** One kept answer: what the page returned, its catalogue version and when it was made. */
interface Kept {
  status: number;
  headers: Array<[string, string]>;
  body: string;
  bytes: number;
  version: number;
  madeAt: number;
}

/** How long an answer is reused after the catalogue changed, in ms. */
export const REUSE_MS = 2000;
/** The most HTML kept, in bytes (about 600 pages of results at 100,000 products). */
export const MAX_BYTES = 48 * 1024 * 1024;
/** The header that says whether this server made the answer now (`miss`) or handed a kept one out (`hit`). */
export const KEPT_HEADER = 'x-explore-answer';

export interface RenderedAnswersOptions {
  reuseMs?: number;
  maxBytes?: number;
  now?: () => number;
}

export class RenderedAnswers {
  private readonly kept = new Map<string, Kept>();
  private readonly making = new Map<string, Promise<Kept | Response>>();
  private bytes = 0;
  private readonly reuseMs: number;
  private readonly maxBytes: number;
  private readonly now: () => number;

  constructor(options: RenderedAnswersOptions = {}) {
    this.reuseMs = options.reuseMs ?? REUSE_MS;
    this.maxBytes = options.maxBytes ?? MAX_BYTES;
    this.now = options.now ?? Date.now;
  }

  /** How many answers and bytes are kept now. */
  get size(): { answers: number; bytes: number } {
    return { answers: this.kept.size, bytes: this.bytes };
  }

  /**
   * The answer for `key` made from catalogue `version`: a kept one if it is still good, else the
   * one `render` makes (kept when it is a 200). Concurrent calls for the same key share one render.
   */
  async answer(key: string, version: number, render: () => Promise<Response>): Promise<Response> {
    const found = this.kept.get(key);
    if (found && (found.version === version || this.now() - found.madeAt < this.reuseMs)) {
      // Most recently used last: the Map's first key is the one to drop.
      this.kept.delete(key);
      this.kept.set(key, found);
      return respond(found, 'hit');
    }
    let pending = this.making.get(key);
    if (!pending) {
      pending = this.make(key, version, render).finally(() => this.making.delete(key));
      this.making.set(key, pending);
    }
    const made = await pending;
    // A response not kept (an error, a redirect) is one body: each caller gets its own clone.
    return made instanceof Response ? made.clone() : respond(made, 'miss');
  }

  private async make(key: string, version: number, render: () => Promise<Response>): Promise<Kept | Response> {
    const response = await render();
    if (response.status !== 200) return response;
    const body = await response.text();
    const headers = [...response.headers].filter(([name]) => name !== 'content-length' && name !== 'set-cookie');
    const made: Kept = { status: response.status, headers, body, bytes: body.length * 2, version, madeAt: this.now() };
    this.drop(key);
    this.kept.set(key, made);
    this.bytes += made.bytes;
    for (const oldest of this.kept.keys()) {
      if (this.bytes <= this.maxBytes) break;
      this.drop(oldest);
    }
    return made;
  }

  private drop(key: string): void {
    const old = this.kept.get(key);
    if (!old) return;
    this.kept.delete(key);
    this.bytes -= old.bytes;
  }
}

function respond(kept: Kept, how: 'hit' | 'miss'): Response {
  const headers = new Headers(kept.headers);
  headers.set(KEPT_HEADER, how);
  return new Response(kept.body, { status: kept.status, headers });
}

/** The paths whose answers are kept: /explore and the parts its script fetches. */
export const KEPT_PATHS: ReadonlySet<string> = new Set(['/explore', '/explore/resultados']);
