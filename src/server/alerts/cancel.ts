/**
 * The cancel link of a restock or price-drop e-mail (/avisos/cancelar?t=<token>: a restock alert's
 * token, or a favorite's price-alert token) works without signing in: the
 * page shows what the alert is for (`alertByToken`), and its button POSTs the token to
 * /api/avisos/cancelar (`postCancelAlert`), which cancels it. A GET never cancels: mail scanners
 * open links before the shopper does. A malformed or unknown token is a 4xx with a Spanish message.
 */
import { z } from 'zod';
import { ALERT_CANCEL_API_TEXT as TEXT } from '~/i18n/alerts.ts';
import type { ServerContext } from '../context.ts';
import { ApiError, json, readJson } from '../http/json.ts';

/** What the database keeps as a cancel token: 64 hexadecimal characters. */
const TOKEN = /^[0-9a-f]{64}$/;

/** Whether `value` looks like a cancel token (anything else never reaches the database). */
export function isAlertToken(value: unknown): value is string {
  return typeof value === 'string' && TOKEN.test(value);
}

/** What the cancel page shows about an alert. */
export interface AlertByToken {
  productId: string;
  productName: string;
  offerLabel: string | null;
  state: 'waiting' | 'cancelled';
  /** A restock alert ('Avísame cuando llegue') or a favorite's 'Avísame si baja de precio'. */
  kind: 'restock' | 'price';
}

const alertRow = z.object({
  product_id: z.string(),
  product_name: z.string(),
  offer_label: z.string().nullable(),
  state: z.enum(['waiting', 'cancelled']),
});

/** The alert of a cancel token, or null when the token is malformed or unknown. */
export async function alertByToken(ctx: Pick<ServerContext, 'admin'>, token: unknown): Promise<AlertByToken | null> {
  if (!isAlertToken(token)) return null;
  const { data, error } = await ctx.admin.rpc('stock_alert_by_token', { p_token: token });
  if (error) throw new Error(`stock_alert_by_token: ${error.message}`);
  let kind: AlertByToken['kind'] = 'restock';
  let row = alertRow.safeParse((data ?? [])[0]);
  if (!row.success) {
    const price = await ctx.admin.rpc('price_alert_by_token', { p_token: token });
    if (price.error) throw new Error(`price_alert_by_token: ${price.error.message}`);
    kind = 'price';
    row = alertRow.safeParse((price.data ?? [])[0]);
  }
  if (!row.success) return null;
  return { productId: row.data.product_id, productName: row.data.product_name, offerLabel: row.data.offer_label, state: row.data.state, kind };
}

const body = z.object({ token: z.string({ error: TEXT.badToken }).regex(TOKEN, { error: TEXT.badToken }) });

/**
 * POST /api/avisos/cancelar {token}: cancels the restock alert, or turns off the favorite's price
 * alert, of the token (cancel_stock_alert_by_token reads both); {status: 'cancelled' | 'already'},
 * 404 for an unknown token.
 */
export async function postCancelAlert(request: Request, ctx: Pick<ServerContext, 'admin'>): Promise<Response> {
  const { token } = await readJson(request, body);
  const { data, error } = await ctx.admin.rpc('cancel_stock_alert_by_token', { p_token: token });
  if (error) {
    console.error('[avisos] cancel_stock_alert_by_token:', error.message);
    throw new ApiError(503, TEXT.failed, 'unavailable');
  }
  if (data === 'unknown') throw new ApiError(404, TEXT.unknown, 'not_found');
  return json({ status: data === 'cancelled' ? 'cancelled' : 'already' });
}
