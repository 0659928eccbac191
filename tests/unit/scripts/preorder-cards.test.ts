import { describe, expect, it, vi } from 'vitest';
import { isLiveSoldOut, type LiveStock } from '~/scripts/live-stock.ts';
import { fetchOpenPreorders, fetchSinglesWithOpenPreorders, withOpenPreorders } from '~/scripts/preorder-cards.ts';

describe("a preorder's card on a prebuilt page", () => {
  it('asks preorder_open_stock for the units the open campaigns still allow, with the anon key', async () => {
    const rpc = vi.fn(
      async () =>
        new Response(
          JSON.stringify([
            { product_id: 'pk-open', remaining: 7 },
            { product_id: 'pk-nocap', remaining: null },
            { product_id: 'pk-full', remaining: 0 },
            { remaining: 3 },
          ]),
          { status: 200 },
        ),
    );
    const open = await fetchOpenPreorders(['pk-open', 'pk-nocap', 'pk-full', 'pk-closed'], {
      url: 'http://stack.test/',
      anonKey: 'anon',
      fetchImpl: rpc as unknown as typeof fetch,
    });
    expect(open && [...open.entries()]).toEqual([
      ['pk-open', 7],
      ['pk-nocap', null],
      ['pk-full', 0],
    ]);
    const [url, init] = rpc.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('http://stack.test/rest/v1/rpc/preorder_open_stock');
    expect(init.method).toBe('POST');
    expect(init.headers).toMatchObject({ apikey: 'anon', authorization: 'Bearer anon' });
    expect(JSON.parse(String(init.body))).toEqual({ p_product_ids: ['pk-open', 'pk-nocap', 'pk-full', 'pk-closed'] });
  });

  it('reads nothing when the page has no preorder card, and keeps the cards as built when the read fails', async () => {
    const none = vi.fn();
    expect(await fetchOpenPreorders([], { url: 'http://stack.test', anonKey: 'anon', fetchImpl: none as unknown as typeof fetch })).toBeNull();
    expect(none).not.toHaveBeenCalled();
    const refused = vi.fn(async () => new Response('{}', { status: 500 }));
    expect(await fetchOpenPreorders(['a'], { url: 'http://stack.test', anonKey: 'anon', fetchImpl: refused as unknown as typeof fetch })).toBeNull();
    const offline = vi.fn(async () => {
      throw new TypeError('Failed to fetch');
    });
    expect(await fetchOpenPreorders(['a'], { url: 'http://stack.test', anonKey: 'anon', fetchImpl: offline as unknown as typeof fetch })).toBeNull();
  });

  it("sells an open campaign's units instead of the empty shelf, and is sold out only when the campaign is full or closed", () => {
    const shelf = new Map<string, LiveStock>([
      ['open', { stock: 0, available: true }],
      ['nocap', { stock: 0, available: true }],
      ['full', { stock: 0, available: true }],
      ['closed', { stock: 0, available: true }],
      ['hidden', { stock: 0, available: false }],
    ]);
    const open = new Map<string, number | null>([
      ['open', 4],
      ['nocap', null],
      ['full', 0],
      ['hidden', 9],
    ]);
    const live = withOpenPreorders(shelf, open);
    expect(live.get('open')).toEqual({ stock: 4, available: true });
    expect(isLiveSoldOut(live.get('open')!)).toBe(false);
    expect(isLiveSoldOut(live.get('nocap')!)).toBe(false);
    expect(isLiveSoldOut(live.get('full')!)).toBe(true);
    expect(isLiveSoldOut(live.get('closed')!)).toBe(true);
    // A product taken off sale stays off sale whatever its campaign.
    expect(isLiveSoldOut(live.get('hidden')!)).toBe(true);
    // The shelf's map is left as it was.
    expect(shelf.get('open')).toEqual({ stock: 0, available: true });
  });
});

describe('a single card built sold out, with a copy in preorder', () => {
  it('asks preorder_open_offers once for every such card, and names the cards whose campaign still takes orders', async () => {
    const rpc = vi.fn(
      async () =>
        new Response(
          JSON.stringify([
            { product_id: 'sv-open', offer_id: 'o1', release_date: '2027-03-05', remaining: 2 },
            { product_id: 'sv-nocap', offer_id: 'o2', release_date: '2027-03-05', remaining: null },
            { product_id: 'sv-full', offer_id: 'o3', release_date: '2027-03-05', remaining: 0 },
            { offer_id: 'o4', remaining: 3 },
          ]),
          { status: 200 },
        ),
    );
    const open = await fetchSinglesWithOpenPreorders(['sv-open', 'sv-nocap', 'sv-full', 'sv-none'], {
      url: 'http://stack.test/',
      anonKey: 'anon',
      fetchImpl: rpc as unknown as typeof fetch,
    });
    expect(open && [...open].sort()).toEqual(['sv-nocap', 'sv-open']);
    expect(rpc).toHaveBeenCalledTimes(1);
    const [url, init] = rpc.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('http://stack.test/rest/v1/rpc/preorder_open_offers');
    expect(init.headers).toMatchObject({ apikey: 'anon', authorization: 'Bearer anon' });
    expect(JSON.parse(String(init.body))).toEqual({ p_product_ids: ['sv-open', 'sv-nocap', 'sv-full', 'sv-none'] });
  });

  it('asks nothing without such cards, and leaves the cards as built when the read fails', async () => {
    const none = vi.fn();
    expect(await fetchSinglesWithOpenPreorders([], { url: 'http://stack.test', anonKey: 'anon', fetchImpl: none as unknown as typeof fetch })).toBeNull();
    expect(none).not.toHaveBeenCalled();
    const refused = vi.fn(async () => new Response('{}', { status: 500 }));
    expect(await fetchSinglesWithOpenPreorders(['a'], { url: 'http://stack.test', anonKey: 'anon', fetchImpl: refused as unknown as typeof fetch })).toBeNull();
    const notRows = vi.fn(async () => new Response('{"message":"x"}', { status: 200 }));
    expect(await fetchSinglesWithOpenPreorders(['a'], { url: 'http://stack.test', anonKey: 'anon', fetchImpl: notRows as unknown as typeof fetch })).toBeNull();
  });
});
