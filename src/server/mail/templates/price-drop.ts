/**
 * The e-mail of a price drop on a favorite with 'Avísame si baja de precio' on: the price it had
 * and the one it has now, a link to the product, the link that turns this alert off without signing
 * in (/avisos/cancelar?t=<the favorite's token>) and one to the account's settings. Spanish, HTML
 * and plain text, every value escaped.
 */
import { formatCentavos, type Centavos } from '~/domain/money.ts';
import { productPath } from '~/domain/routes.ts';
import { MAIL_PRICE_DROP_TEXT as TEXT } from '~/i18n/alerts.ts';
import { escapeHtml as escape } from '../html.ts';

/** What a price-drop e-mail says. */
export interface PriceDropMail {
  productId: string;
  productName: string;
  offerLabel: string | null;
  before: Centavos;
  now: Centavos;
  /** The favorite's price-alert token: the e-mail's cancel link (none without it). */
  cancelToken?: string | null;
}

/** The price-drop e-mail of one favorite. */
export function priceDropEmail(drop: PriceDropMail, siteUrl: string): { subject: string; html: string; text: string } {
  const name = drop.offerLabel ? `${drop.productName} (${drop.offerLabel})` : drop.productName;
  const site = siteUrl.replace(/\/+$/, '');
  const productLink = `${site}${productPath(drop.productId)}`;
  const settingsLink = `${site}/account?tab=settings`;
  const cancelLink = drop.cancelToken ? `${site}/avisos/cancelar?t=${encodeURIComponent(drop.cancelToken)}` : null;
  const subject = TEXT.subject(name);
  const line = TEXT.dropped(name, formatCentavos(drop.before), formatCentavos(drop.now));
  const text = [line, '', TEXT.buyLine(productLink), '', ...(cancelLink ? [TEXT.cancelLine(cancelLink), ''] : []), TEXT.settingsLine(settingsLink)].join('\n');
  const html = `<h1>${escape(TEXT.heading)}</h1>
<p>${escape(line)}</p>
<p><a href="${escape(productLink)}">${escape(TEXT.buy)}</a></p>
${cancelLink ? `<p><a href="${escape(cancelLink)}">${escape(TEXT.cancel)}</a></p>\n` : ''}<p><a href="${escape(settingsLink)}">${escape(TEXT.settings)}</a></p>`;
  return { subject, html, text };
}
