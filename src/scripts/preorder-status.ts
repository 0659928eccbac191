/**
 * The product page's preorder line, live: one request for the product's published preorder
 * campaign (preorder_availability, with the public anon key), then the real release date, the
 * units left when fewer than 20 remain, or when the preorder opens or that it closed. While the
 * campaign is open the buy box is woken (the shelf's stock of a preorder is not what it sells), so
 * it reads the units the campaign still allows.
 */
import { PREORDER_PRODUCT_TEXT as TEXT } from '~/i18n/preorders';
import { STOCK_CHANGED_EVENT } from './live-stock';

/** Shown only below this many. */
const FEW_LEFT = 20;

interface Campaign {
  offer_id: string | null;
  release_date: string;
  opens_at: string;
  closes_at: string;
  remaining: number | null;
}

function parseCampaigns(rows: unknown): Campaign[] {
  if (!Array.isArray(rows)) return [];
  return rows.filter(
    (row): row is Campaign =>
      typeof row === 'object' &&
      row !== null &&
      typeof (row as Campaign).release_date === 'string' &&
      typeof (row as Campaign).opens_at === 'string' &&
      typeof (row as Campaign).closes_at === 'string',
  );
}

/** es-MX long dates ('12 de febrero de 2027'): a release date as a calendar day, an opening in Mexico City time. */
const calendarDay = new Intl.DateTimeFormat('es-MX', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
const mexicoDay = new Intl.DateTimeFormat('es-MX', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'America/Mexico_City' });
const dayOf = (value: string) => calendarDay.format(new Date(`${value.slice(0, 10)}T00:00:00Z`));

/** What the line says about the window and the units left; '' when there is nothing to say. */
function remainingText(campaign: Campaign, now: number): string {
  if (now < Date.parse(campaign.opens_at)) return TEXT.opensOn(mexicoDay.format(new Date(campaign.opens_at)));
  if (now >= Date.parse(campaign.closes_at)) return TEXT.closed;
  if (campaign.remaining === null || campaign.remaining >= FEW_LEFT) return '';
  return campaign.remaining <= 0 ? TEXT.soldOut : TEXT.remaining(campaign.remaining);
}

/** Writes the campaign into the page's preorder line; true when its window is open now. */
function applyPreorderStatus(root: HTMLElement, campaigns: Campaign[], now: number): boolean {
  const campaign = campaigns.find((c) => c.offer_id === null) ?? campaigns[0];
  if (!campaign) return false;
  const release = root.querySelector<HTMLElement>('[data-preorder-release]');
  const remaining = root.querySelector<HTMLElement>('[data-preorder-remaining]');
  if (release) release.textContent = TEXT.releaseLine(dayOf(campaign.release_date));
  if (remaining) remaining.textContent = remainingText(campaign, now);
  root.hidden = false;
  return campaign.offer_id === null && now >= Date.parse(campaign.opens_at) && now < Date.parse(campaign.closes_at);
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
      if (applyPreorderStatus(root, parseCampaigns(rows), Date.now())) window.dispatchEvent(new CustomEvent(STOCK_CHANGED_EVENT));
    })
    .catch(() => undefined);
}
