/**
 * PayPal checkout through its REST API (orders v2), used when PUBLIC_PAYPAL_CLIENT_ID and
 * PAYPAL_CLIENT_SECRET are set. The server creates and captures; the browser only approves.
 * Webhook notifications (PAYPAL_WEBHOOK_ID) are confirmed by PayPal's verify-webhook-signature.
 */
import { z } from 'zod';
import { centavos, centavosToDecimalString, decimalStringToCentavos } from '~/domain/money.ts';
import { PAYMENTS_PAYPAL_TEXT } from '~/i18n/payments.ts';
import { PaymentError, type PayPalOrderInfo, type PayPalProvider, type PayPalRefundInfo, type PayPalWebhookEvent, type RefundInfo } from './types.ts';

/** Live API unless PAYPAL_API_BASE says otherwise (https://api-m.sandbox.paypal.com for sandbox). */
export const PAYPAL_LIVE_API = 'https://api-m.paypal.com';

interface PayPalOrderJson {
  id?: string;
  status?: string;
  purchase_units?: Array<{
    custom_id?: string;
    amount?: { currency_code?: string; value?: string };
    payments?: { captures?: Array<{ id?: string; status?: string; custom_id?: string; amount?: { currency_code?: string; value?: string } }> };
  }>;
}

interface PayPalLink {
  href?: string;
  rel?: string;
}

interface PayPalRefundJson {
  id?: string;
  status?: string;
  amount?: { currency_code?: string; value?: string };
  links?: PayPalLink[];
}

/** The id in a PayPal API link of the given relation (e.g. rel 'up' of a refund → its capture). */
export function linkedId(links: unknown, rel: string, path: '/v2/payments/captures/' | '/v2/checkout/orders/'): string | null {
  if (!Array.isArray(links)) return null;
  for (const link of links as PayPalLink[]) {
    if (link?.rel !== rel || typeof link.href !== 'string') continue;
    const at = link.href.indexOf(path);
    if (at < 0) continue;
    const id = link.href.slice(at + path.length).split(/[/?#]/)[0] ?? '';
    if (/^[\w-]{1,255}$/.test(id)) return id;
  }
  return null;
}

/** The message of a webhook PayPal does not confirm (or that lacks its paypal-* headers). */
export const INVALID_WEBHOOK_SIGNATURE = PAYMENTS_PAYPAL_TEXT.invalidSignature;

/** The body fields of verify-webhook-signature and the notification headers they come from. */
const SIGNATURE_HEADERS = {
  auth_algo: 'paypal-auth-algo',
  cert_url: 'paypal-cert-url',
  transmission_id: 'paypal-transmission-id',
  transmission_sig: 'paypal-transmission-sig',
  transmission_time: 'paypal-transmission-time',
} as const;

/** What the shop reads of a notification: its id, its type and its resource. */
const notification = z.object({ id: z.string().min(1).max(255), event_type: z.string().min(1).max(255), resource: z.record(z.string(), z.unknown()) });

function toInfo(body: PayPalOrderJson): PayPalOrderInfo {
  const unit = body.purchase_units?.[0];
  const capture = unit?.payments?.captures?.[0];
  const money = capture?.amount ?? unit?.amount;
  return {
    id: String(body.id ?? ''),
    status: String(body.status ?? ''),
    amount: money?.value !== undefined ? decimalStringToCentavos(money.value) : null,
    currency: money?.currency_code ?? null,
    orderId: unit?.custom_id ?? capture?.custom_id ?? null,
    captureId: capture?.id ?? null,
    captureStatus: capture?.status ?? null,
  };
}

/** The PayPal REST provider. */
export class PayPalRestProvider implements PayPalProvider {
  readonly name = 'paypal' as const;
  private token: { value: string; expires: number } | null = null;

  constructor(
    private readonly clientId: string,
    private readonly clientSecret: string,
    private readonly apiBase: string = PAYPAL_LIVE_API,
    /** The id of the shop's webhook at PayPal (PAYPAL_WEBHOOK_ID); without it no notification is accepted. */
    private readonly webhookId: string | null = null,
  ) {}

  private async accessToken(): Promise<string> {
    if (this.token && this.token.expires > Date.now() + 60_000) return this.token.value;
    const res = await fetch(`${this.apiBase}/v1/oauth2/token`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${this.clientId}:${this.clientSecret}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: 'grant_type=client_credentials',
      signal: AbortSignal.timeout(20_000),
    });
    if (!res.ok) throw new Error(`PayPal oauth ${res.status}`);
    const body = (await res.json()) as { access_token: string; expires_in: number };
    this.token = { value: body.access_token, expires: Date.now() + body.expires_in * 1000 };
    return body.access_token;
  }

  private async request(
    method: string,
    path: string,
    body: unknown,
    requestId?: string,
  ): Promise<{ status: number; json: PayPalOrderJson & { message?: string; [key: string]: unknown } }> {
    return this.send(method, path, body === undefined ? undefined : JSON.stringify(body), requestId);
  }

  /** One call with a body already written as JSON text. */
  private async send(
    method: string,
    path: string,
    body: string | undefined,
    requestId?: string,
  ): Promise<{ status: number; json: PayPalOrderJson & { message?: string; [key: string]: unknown } }> {
    const res = await fetch(`${this.apiBase}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${await this.accessToken()}`,
        'content-type': 'application/json',
        prefer: 'return=representation',
        ...(requestId ? { 'paypal-request-id': requestId } : {}),
      },
      body,
      signal: AbortSignal.timeout(20_000),
    });
    const json = (await res.json().catch(() => ({}))) as PayPalOrderJson & { message?: string; [key: string]: unknown };
    return { status: res.status, json };
  }

  async createOrder(input: { orderId: string; amount: number; idempotencyKey: string }): Promise<PayPalOrderInfo> {
    const { status, json } = await this.request(
      'POST',
      '/v2/checkout/orders',
      {
        intent: 'CAPTURE',
        purchase_units: [
          {
            reference_id: input.orderId,
            custom_id: input.orderId,
            amount: { currency_code: 'MXN', value: centavosToDecimalString(centavos(input.amount)) },
          },
        ],
      },
      input.idempotencyKey,
    );
    if (status >= 400) throw new PaymentError(PAYMENTS_PAYPAL_TEXT.error, 502, 'paypal_error');
    return toInfo(json);
  }

  async captureOrder(paypalOrderId: string, idempotencyKey: string): Promise<PayPalOrderInfo> {
    const { status, json } = await this.request('POST', `/v2/checkout/orders/${encodeURIComponent(paypalOrderId)}/capture`, {}, idempotencyKey);
    if (status === 422 || status === 404) {
      // Already captured (a repeated capture) reads as an error; the order's state decides.
      const current = await this.getOrder(paypalOrderId);
      if (current && current.status === 'COMPLETED') return current;
      throw new PaymentError(PAYMENTS_PAYPAL_TEXT.notApproved, 422, 'paypal_not_approved');
    }
    if (status >= 400) throw new PaymentError(PAYMENTS_PAYPAL_TEXT.error, 502, 'paypal_error');
    return toInfo(json);
  }

  async voidOrder(): Promise<void> {
    // An order with intent CAPTURE that the shop never captures simply expires at PayPal; the
    // shop refuses to capture an order that is no longer payable, so there is nothing to call.
  }

  async refundCapture(captureId: string, amount: number, idempotencyKey: string): Promise<RefundInfo> {
    const { status, json } = await this.request(
      'POST',
      `/v2/payments/captures/${encodeURIComponent(captureId)}/refund`,
      { amount: { currency_code: 'MXN', value: centavosToDecimalString(centavos(amount)) } },
      idempotencyKey,
    );
    if (status >= 400) throw new Error(`PayPal refund ${status}: ${String(json.message ?? '')}`);
    const refundStatus = String(json.status ?? '');
    if (refundStatus === 'CANCELLED' || refundStatus === 'FAILED') throw new Error(`PayPal refund ${refundStatus}`);
    return { id: String(json.id ?? ''), status: refundStatus === 'COMPLETED' ? 'succeeded' : 'pending' };
  }

  async getOrder(paypalOrderId: string): Promise<PayPalOrderInfo | null> {
    const { status, json } = await this.request('GET', `/v2/checkout/orders/${encodeURIComponent(paypalOrderId)}`, undefined);
    if (status === 404) return null;
    if (status >= 400) throw new PaymentError(PAYMENTS_PAYPAL_TEXT.error, 502, 'paypal_error');
    return toInfo(json);
  }

  async getRefund(refundId: string): Promise<PayPalRefundInfo | null> {
    const { status, json } = await this.request('GET', `/v2/payments/refunds/${encodeURIComponent(refundId)}`, undefined);
    if (status === 404) return null;
    if (status >= 400) throw new PaymentError(PAYMENTS_PAYPAL_TEXT.error, 502, 'paypal_error');
    const refund = json as PayPalRefundJson;
    return {
      id: String(refund.id ?? ''),
      status: String(refund.status ?? ''),
      amount: refund.amount?.value !== undefined ? decimalStringToCentavos(refund.amount.value) : null,
      currency: refund.amount?.currency_code ?? null,
      captureId: linkedId(refund.links, 'up', '/v2/payments/captures/'),
    };
  }

  async verifyWebhook(headers: Pick<Headers, 'get'>, rawBody: string): Promise<PayPalWebhookEvent> {
    if (!this.webhookId) {
      throw new PaymentError(PAYMENTS_PAYPAL_TEXT.webhookNotConfigured, 503, 'webhook_not_configured');
    }
    const invalid = () => new PaymentError(INVALID_WEBHOOK_SIGNATURE, 400, 'invalid_signature');
    const fields: string[] = [];
    for (const [field, header] of Object.entries(SIGNATURE_HEADERS)) {
      const value = headers.get(header)?.trim();
      if (!value || value.length > 500) throw invalid();
      fields.push(`${JSON.stringify(field)}:${JSON.stringify(value)}`);
    }
    fields.push(`"webhook_id":${JSON.stringify(this.webhookId)}`);
    let parsed: unknown;
    try {
      parsed = JSON.parse(rawBody);
    } catch {
      throw invalid();
    }
    const event = notification.safeParse(parsed);
    if (!event.success) throw invalid();
    // The notification goes back to PayPal as it arrived, byte for byte (it is one valid JSON
    // object, checked above): a re-serialised copy may differ from what PayPal signed.
    const { status, json } = await this.send('POST', '/v1/notifications/verify-webhook-signature', `{${fields.join(',')},"webhook_event":${rawBody}}`);
    // PayPal refuses malformed signature fields with a 4xx: the notification is not PayPal's.
    if (status === 400 || status === 422) throw invalid();
    if (status >= 400) throw new Error(`PayPal verify-webhook-signature ${status}: ${String(json.message ?? '')}`);
    if (json.verification_status !== 'SUCCESS') throw invalid();
    return { id: event.data.id, type: event.data.event_type, resource: event.data.resource };
  }
}
