/**
 * The e-mail of a restock alert ('Avísame cuando llegue'): the product (and offer) is back, a link
 * to its page, and a link that cancels the alert without signing in. Spanish, HTML and plain text,
 * every value escaped.
 */
import { productPath } from '~/domain/routes.ts';
import { MAIL_RESTOCK_ALERT_TEXT as TEXT } from '~/i18n/alerts.ts';
import { escapeHtml as escape } from '../html.ts';

/** What a restock e-mail says: which product (and offer) came back, how many units, the alert's cancel token. */
export interface RestockAlertMail {
  productId: string;
  productName: string;
  /** The offer's label ('NM · Español · Holo'), or null for the product as a whole. */
  offerLabel: string | null;
  /** Units that came back. */
  units: number;
  cancelToken: string;
}

/** The address of the page that cancels the alert of `token`. */
export function alertCancelUrl(siteUrl: string, token: string): string {
  return `${siteUrl.replace(/\/+$/, '')}/avisos/cancelar?t=${encodeURIComponent(token)}`;
}

/** The restock e-mail of one alert. */
export function restockAlertEmail(alert: RestockAlertMail, siteUrl: string): { subject: string; html: string; text: string } {
  const name = alert.offerLabel ? `${alert.productName} (${alert.offerLabel})` : alert.productName;
  const site = siteUrl.replace(/\/+$/, '');
  const productLink = `${site}${productPath(alert.productId)}`;
  const cancelLink = alertCancelUrl(site, alert.cancelToken);
  const subject = TEXT.subject(name);
  const lines = [TEXT.back(name), TEXT.units(Math.max(1, alert.units)), TEXT.fewer];
  const text = [...lines, '', TEXT.buyLine(productLink), '', TEXT.untilCancelled, TEXT.cancelLine(cancelLink)].join('\n');
  const html = `<h1>${escape(TEXT.heading)}</h1>
${lines.map((line) => `<p>${escape(line)}</p>`).join('\n')}
<p><a href="${escape(productLink)}">${escape(TEXT.buy)}</a></p>
<p>${escape(TEXT.untilCancelled)} <a href="${escape(cancelLink)}">${escape(TEXT.cancel)}</a></p>`;
  return { subject, html, text };
}
