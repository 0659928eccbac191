import { describe, expect, it, vi } from 'vitest';
import { fetchLiveStock, hasOpenOfferPreorders, isLiveSoldOut, liveStockUrl, parseLiveStock } from '~/scripts/live-stock.ts';

describe('live stock of a prebuilt page', () => {
  it('asks for id, stock and availability of every product in one request', () => {
    const url = liveStockUrl('http://127.0.0.1:54321/', ['pk-a', 'op-b"x']);
    expect(url.startsWith('http://127.0.0.1:54321/rest/v1/products?select=id,stock,available&id=in.(')).toBe(true);
    expect(decodeURIComponent(url.split('id=in.(')[1]!)).toBe('"pk-a","op-bx")');
  });

  it('reads rows into id → stock, ignoring anything that is not a product row', () => {
    const map = parseLiveStock([
      { id: 'a', stock: 3, available: true },
      { id: 'b', stock: 0, available: true },
      { id: 'c', stock: null, available: false },
      { id: 'd', stock: -2 },
      { stock: 4 },
      'x',
    ]);
    expect([...map.entries()]).toEqual([
      ['a', { stock: 3, available: true }],
      ['b', { stock: 0, available: true }],
      ['c', { stock: null, available: false }],
      ['d', { stock: 0, available: true }],
    ]);
    expect(parseLiveStock({ message: 'error' }).size).toBe(0);
  });

  it('is sold out when nothing is left or the product is not for sale', () => {
    expect(isLiveSoldOut({ stock: 0, available: true })).toBe(true);
    expect(isLiveSoldOut({ stock: 5, available: false })).toBe(true);
    expect(isLiveSoldOut({ stock: null, available: true })).toBe(false);
    expect(isLiveSoldOut({ stock: 1, available: true })).toBe(false);
  });

  it('sends the anon key, and keeps the page as built when offline or refused', async () => {
    const ok = vi.fn(async () => new Response(JSON.stringify([{ id: 'a', stock: 2, available: true }]), { status: 200 }));
    const map = await fetchLiveStock(['a'], { url: 'http://stack.test', anonKey: 'anon', fetchImpl: ok as unknown as typeof fetch });
    expect(map.get('a')).toEqual({ stock: 2, available: true });
    expect(ok).toHaveBeenCalledTimes(1);
    const init = (ok.mock.calls[0] as unknown as [string, RequestInit])[1];
    expect(init.headers).toMatchObject({ apikey: 'anon', authorization: 'Bearer anon' });
    const offline = vi.fn(async () => {
      throw new TypeError('Failed to fetch');
    });
    expect((await fetchLiveStock(['a'], { url: 'http://stack.test', anonKey: 'anon', fetchImpl: offline as unknown as typeof fetch })).size).toBe(0);
    const refused = vi.fn(async () => new Response('{}', { status: 500 }));
    expect((await fetchLiveStock(['a'], { url: 'http://stack.test', anonKey: 'anon', fetchImpl: refused as unknown as typeof fetch })).size).toBe(0);
    expect((await fetchLiveStock(['a'], { url: undefined, anonKey: 'anon', fetchImpl: ok as unknown as typeof fetch })).size).toBe(0);
    const none = vi.fn();
    expect((await fetchLiveStock([], { url: 'http://stack.test', anonKey: 'anon', fetchImpl: none as unknown as typeof fetch })).size).toBe(0);
    expect(none).not.toHaveBeenCalled();
  });

  it('on the page of a single card also reads the price and stock of each offer, in the same request', async () => {
    const url = liveStockUrl('http://stack.test', ['op-a'], true);
    expect(url.startsWith('http://stack.test/rest/v1/products?select=id,stock,available,card_offers(id,price,original_price,stock)&id=in.(')).toBe(true);
    const map = parseLiveStock([{ id: 'op-a', stock: null, available: true, card_offers: [{ id: 'o1', price: '120.00', original_price: null, stock: 2 }] }]);
    expect(map.get('op-a')?.offers?.get('o1')).toEqual({ id: 'o1', priceCentavos: 12_000, originalPriceCentavos: null, stock: 2 });
    const ok = vi.fn(async () => new Response(JSON.stringify([{ id: 'op-a', stock: 1, available: true, card_offers: [] }]), { status: 200 }));
    const live = await fetchLiveStock(['op-a'], { url: 'http://stack.test', anonKey: 'anon', fetchImpl: ok as unknown as typeof fetch }, true);
    expect(live.get('op-a')?.offers?.size).toBe(0);
    expect((ok.mock.calls[0] as unknown as [string])[0]).toContain('card_offers(');
  });
});

describe("a single's page with an offer in preorder", () => {
  it('asks preorder_open_offers for the card, and wakes the buy box only when an offer is in an open campaign', async () => {
    const one = vi.fn(
      async () => new Response(JSON.stringify([{ product_id: 'sv-1', offer_id: 'o1', release_date: '2027-03-05', remaining: 2 }]), { status: 200 }),
    );
    expect(await hasOpenOfferPreorders('sv-1', { url: 'http://stack.test', anonKey: 'anon', fetchImpl: one as unknown as typeof fetch })).toBe(true);
    const [url, init] = one.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('http://stack.test/rest/v1/rpc/preorder_open_offers');
    expect(JSON.parse(String(init.body))).toEqual({ p_product_ids: ['sv-1'] });
    const none = vi.fn(async () => new Response('[]', { status: 200 }));
    expect(await hasOpenOfferPreorders('sv-1', { url: 'http://stack.test', anonKey: 'anon', fetchImpl: none as unknown as typeof fetch })).toBe(false);
    const refused = vi.fn(async () => new Response('{}', { status: 404 }));
    expect(await hasOpenOfferPreorders('sv-1', { url: 'http://stack.test', anonKey: 'anon', fetchImpl: refused as unknown as typeof fetch })).toBe(false);
  });
});
