/**
 * A single card's page whose offers may be preorders: after load one request asks whether any of
 * its offers is in an open preorder campaign (preorder_open_offers, with the public anon key) and,
 * if so, wakes the offer picker (the `tienda:stock-changed` event), which reads the campaigns
 * itself and shows the offer as 'Preventa · Sale el …'. Loaded only by a single's page
 * (OfferPreordersScript.astro), so sealed products' pages carry none of it.
 */
import { STOCK_CHANGED_EVENT, type LiveStockSource } from './live-stock.ts';

/**
 * Whether any offer of this single card is in an open preorder campaign; false when it cannot be read.
 * @internal exported for its unit test
 */
export async function hasOpenOfferPreorders(productId: string, options: LiveStockSource): Promise<boolean> {
  const url = options.url;
  const key = options.anonKey;
  if (!productId || !url || !key) return false;
  try {
    const res = await (options.fetchImpl ?? fetch)(`${url.replace(/\/+$/, '')}/rest/v1/rpc/preorder_open_offers`, {
      method: 'POST',
      headers: { apikey: key, authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ p_product_ids: [productId] }),
    });
    if (!res.ok) return false;
    const rows: unknown = await res.json();
    return Array.isArray(rows) && rows.length > 0;
  } catch {
    return false;
  }
}

/** Wakes the offer picker of the page's single card when one of its offers is a preorder now. */
export function mountOfferPreorders(source: LiveStockSource, doc: Document = document): void {
  const box = doc.querySelector<HTMLElement>('[data-live-offers][data-live-product]');
  if (!box) return;
  const run = async () => {
    if (await hasOpenOfferPreorders(box.dataset.liveProduct ?? '', source)) window.dispatchEvent(new CustomEvent(STOCK_CHANGED_EVENT));
  };
  if (doc.readyState === 'complete') void run();
  else window.addEventListener('load', () => void run(), { once: true });
}
