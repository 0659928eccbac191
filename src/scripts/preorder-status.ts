/**
 * The product page's preorder line, live (PreorderStatus.astro renders it only on a preorder's
 * page; the product page's script runs this, which does nothing without the line): one request for the product's published preorder campaign
 * (preorder_availability, with the public anon key), then the units left when fewer than 20
 * remain, or when the preorder opens, or that it closed, and the campaign's release date. The texts come written by the server on
 * the line's data attributes ('#' where the number or the date goes), so this script carries none.
 * While the campaign is open the buy box is woken (the shelf's stock of a preorder is not what it
 * sells), so it reads the units the campaign still allows.
 */
import { STOCK_CHANGED_EVENT } from './live-stock';

/** The units left are shown only below this many. */
const FEW_LEFT = 20;

interface Campaign {
  offer_id: unknown;
  release_date: unknown;
  opens_at: unknown;
  closes_at: unknown;
  remaining: unknown;
}

/** What the line says about the window and the units left; '' when there is nothing to say. */
function remainingText(campaign: Campaign, texts: DOMStringMap, now: number): string {
  const opens = Date.parse(String(campaign.opens_at));
  const left = typeof campaign.remaining === 'number' ? campaign.remaining : null;
  const fill = (text: string | undefined, value: string) => (text ?? '').replace('#', value);
  if (now < opens) return fill(texts.opens, new Intl.DateTimeFormat('es-MX', { dateStyle: 'long', timeZone: 'America/Mexico_City' }).format(opens));
  if (now >= Date.parse(String(campaign.closes_at))) return texts.closed ?? '';
  if (left === null || left >= FEW_LEFT) return '';
  if (left <= 0) return texts.soldOut ?? '';
  return left === 1 ? (texts.one ?? '') : fill(texts.many, String(left));
}

/** Reads the product's campaign once the page has loaded. */
export function mountPreorderStatus(source: { url: string | undefined; anonKey: string | undefined }, doc: Document = document): void {
  const root = doc.querySelector<HTMLElement>('[data-preorder-product]');
  const id = root?.dataset.preorderProduct;
  if (!root || !id || !source.url || !source.anonKey) return;
  const key = source.anonKey;
  void fetch(`${source.url.replace(/\/+$/, '')}/rest/v1/rpc/preorder_availability`, {
    method: 'POST',
    headers: { apikey: key, Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ p_product_id: id }),
  })
    .then((response) => (response.ok ? response.json() : []))
    .then((rows: unknown) => {
      const campaign = Array.isArray(rows) ? (rows as Campaign[]).find((row) => row?.offer_id === null) : undefined;
      if (!campaign) return;
      const now = Date.now();
      const line = root.querySelector('[data-preorder-remaining]');
      if (line) line.textContent = remainingText(campaign, root.dataset, now);
      // The campaign's release date, a calendar day ('12 de febrero de 2027'), in case it changed since the page was built.
      const release = root.querySelector('[data-preorder-release]');
      const day = String(campaign.release_date).slice(0, 10);
      if (release && /^\d{4}-\d{2}-\d{2}$/.test(day))
        release.textContent = (root.dataset.release ?? '').replace(
          '#',
          new Intl.DateTimeFormat('es-MX', { dateStyle: 'long', timeZone: 'UTC' }).format(new Date(`${day}T00:00:00Z`)),
        );
      root.hidden = false;
      if (now >= Date.parse(String(campaign.opens_at)) && now < Date.parse(String(campaign.closes_at)))
        window.dispatchEvent(new CustomEvent(STOCK_CHANGED_EVENT));
    })
    .catch(() => undefined);
}
