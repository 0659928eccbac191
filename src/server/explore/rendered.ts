/**
 * /explore's rendered answers, kept in the server by address. ./answers.ts keeps each search; this
 * keeps the HTML made from it (the page, or the parts src/scripts/explore.ts swaps in), so an
 * address asked for again costs no search and no render: the answer is handed out as it was made.
 *
 * An answer is reused while it is still what a render would make now: no change since it was
 * made could alter a search (the catalogue's `searchVersion`: a product sold out or back, a
 * single's copies in stock) and none of the products it shows changed (their stock is on their
 * cards). A sale that leaves a product in stock elsewhere in the catalogue changes neither, so a
 * busy shop does not render every address again after every sale. Besides, an answer made less
 * than REUSE_MS ago is reused whatever changed: at most one render per address every REUSE_MS
 * when many products sell out at once. So what a shopper sees is at most REUSE_MS older than the
 * catalogue, which itself reads stock every EXPLORE_LIVE_MS; a CDN may keep it CDN_SECONDS more
 * (search.ts). That window is for stock: an answer made before the catalogue was read again (a
 * build, or an owner's edit the shop published: `catalogVersion`) is never reused, so an edit is
 * in /explore's answers as soon as the server has read it. Several requests for an address not
 * kept yet wait for one render.
 *
 * Only whole 200 answers to GET are kept, at most MAX_ANSWERS of them and MAX_BYTES counted with
 * their keys, headers and a fixed share per answer (the least recently used go first). Nothing in
 * them depends on who asks: /explore reads no cookie or session, and the account and cart parts of
 * its header fill in on the client. An answer is kept by what it shows (keptKey): the filters as
 * the page reads them, the page and the part asked for, so an address with parameters the page
 * ignores, in another order or with values it refuses, is the same answer, never a new entry.
 */
import { filtersFromQuery, filtersToQuery, pageOf } from '~/domain/explore-url.ts';

/** What the catalogue is now, as ./catalog.ts's LiveCatalogue says it. */
export interface CatalogState {
  version: number;
  searchVersion: number;
  catalogVersion: number;
  changedAt: (id: string) => number;
}

/** What a render gave: the page's answer and the products it shows (null: unknown, kept only while nothing changes). */
export interface Rendered {
  response: Response;
  shown: readonly string[] | null;
}

/** One kept answer: what the page returned, the catalogue it was made from, what it shows, and when. */
interface Kept {
  status: number;
  headers: Array<[string, string]>;
  body: string;
  bytes: number;
  version: number;
  searchVersion: number;
  shown: readonly string[] | null;
  madeAt: number;
}

/** How long an answer is reused after the catalogue changed, in ms. */
export const REUSE_MS = 2000;
/** The most kept, in bytes (about 600 pages of results at 100,000 products). */
export const MAX_BYTES = 48 * 1024 * 1024;
/** The most answers kept, however small: each costs the server more than its body (its key, headers, objects). */
export const MAX_ANSWERS = 2000;
/**
 * What an answer costs beside its body, key and headers: the kept object, its header pairs, the
 * list of products it shows and its place in the map, rounded up.
 */
export const ENTRY_BYTES = 1024;
/** The header that says whether this server made the answer now (`miss`) or handed a kept one out (`hit`). */
export const KEPT_HEADER = 'x-explore-answer';

export interface RenderedAnswersOptions {
  reuseMs?: number;
  maxBytes?: number;
  maxAnswers?: number;
  now?: () => number;
}

export class RenderedAnswers {
  private readonly kept = new Map<string, Kept>();
  private readonly making = new Map<string, Promise<Kept | Response>>();
  private bytes = 0;
  private readonly reuseMs: number;
  private readonly maxBytes: number;
  private readonly maxAnswers: number;
  private readonly now: () => number;

  constructor(options: RenderedAnswersOptions = {}) {
    this.reuseMs = options.reuseMs ?? REUSE_MS;
    this.maxBytes = options.maxBytes ?? MAX_BYTES;
    this.maxAnswers = options.maxAnswers ?? MAX_ANSWERS;
    this.now = options.now ?? Date.now;
  }

  /** How many answers are kept now, and the bytes they are counted as (bodies, keys, headers, ENTRY_BYTES each). */
  get size(): { answers: number; bytes: number } {
    return { answers: this.kept.size, bytes: this.bytes };
  }

  /**
   * The answer for `key` with the catalogue as `state` says: a kept one if it is still good, else
   * the one `render` makes (kept when it is a 200). Concurrent calls for the same key share one render.
   */
  async answer(key: string, state: CatalogState, render: () => Promise<Rendered>): Promise<Response> {
    const found = this.kept.get(key);
    if (found && (stillRight(found, state) || (found.version >= state.catalogVersion && this.now() - found.madeAt < this.reuseMs))) {
      // Most recently used last: the Map's first key is the one to drop.
      this.kept.delete(key);
      this.kept.set(key, found);
      return respond(found, 'hit');
    }
    let pending = this.making.get(key);
    if (!pending) {
      pending = this.make(key, state, render).finally(() => this.making.delete(key));
      this.making.set(key, pending);
    }
    const made = await pending;
    // A response not kept (an error, a redirect) is one body: each caller gets its own clone.
    return made instanceof Response ? made.clone() : respond(made, 'miss');
  }

  private async make(key: string, state: CatalogState, render: () => Promise<Rendered>): Promise<Kept | Response> {
    // The versions before the render: a change read while it runs makes the next request render again.
    const { version, searchVersion } = state;
    const started = performance.now();
    const { response, shown } = await render();
    if (response.status !== 200) return response;
    const body = await response.text();
    const headers = [...response.headers].filter(([name]) => name !== 'content-length' && name !== 'set-cookie');
    // The whole render's time (the search's own entry, when the page gives one, is part of it),
    // beside the page's timings: where a slow answer's time went, for the browser's Resource Timing.
    const timing = `render;dur=${(performance.now() - started).toFixed(1)}`;
    const index = headers.findIndex(([name]) => name === 'server-timing');
    if (index >= 0) headers[index] = ['server-timing', `${headers[index]![1]}, ${timing}`];
    else headers.push(['server-timing', timing]);
    const made: Kept = { status: response.status, headers, body, bytes: 0, version, searchVersion, shown, madeAt: this.now() };
    made.bytes = keptBytes(key, made);
    this.drop(key);
    this.kept.set(key, made);
    this.bytes += made.bytes;
    for (const oldest of this.kept.keys()) {
      if (this.bytes <= this.maxBytes && this.kept.size <= this.maxAnswers) break;
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

/** What a kept answer is counted as: its body, key and headers as strings in memory (two bytes a character), the products it names, and ENTRY_BYTES. */
function keptBytes(key: string, kept: Kept): number {
  let characters = kept.body.length + key.length;
  for (const [name, value] of kept.headers) characters += name.length + value.length;
  return characters * 2 + (kept.shown?.length ?? 0) * 8 + ENTRY_BYTES;
}

/** Whether a render now would make the same answer: no change a search sees, none of its products changed. */
function stillRight(kept: Kept, state: CatalogState): boolean {
  if (kept.version === state.version) return true;
  if (kept.shown === null || kept.searchVersion !== state.searchVersion) return false;
  return kept.shown.every((id) => state.changedAt(id) <= kept.version);
}

function respond(kept: Kept, how: 'hit' | 'miss'): Response {
  const headers = new Headers(kept.headers);
  headers.set(KEPT_HEADER, how);
  // The render's own timings (the search's, src/pages/explore/resultados.astro) describe the
  // request that made the answer: one handed out again ran no search.
  if (how === 'hit') headers.delete('server-timing');
  return new Response(kept.body, { status: kept.status, headers });
}

/** The paths whose answers are kept: /explore and the parts its script fetches. */
export const KEPT_PATHS: ReadonlySet<string> = new Set(['/explore', '/explore/resultados']);

/** The path of the parts of /explore, where `solo=mas` asks for one page of cards alone. */
const PARTS_PATH = '/explore/resultados';

/**
 * The key an /explore address's answer is kept by: its path, the part asked for (`solo=mas` on the
 * parts' path), the page (pageOf) and the filters as the page reads and writes them
 * (filtersToQuery(filtersFromQuery())): everything the page's HTML follows from, nothing else.
 * Parameters the page ignores, their order and values it refuses leave the key as it is.
 */
export function keptKey(path: string, search: string): string {
  const part = path === PARTS_PATH && new URLSearchParams(search).get('solo') === 'mas' ? 'mas' : '';
  return `${path}|${part}|${pageOf(search)}|${filtersToQuery(filtersFromQuery(search))}`;
}
