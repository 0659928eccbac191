/** Card payments through Stripe (server SDK), used when STRIPE_SECRET_KEY is set. */
import Stripe from 'stripe';
import { cardFundingOf, type CardFunding } from '~/domain/invoices.ts';
import { centavos } from '~/domain/money.ts';
import { PAYMENTS_STRIPE_TEXT } from '~/i18n/payments.ts';
import {
  PaymentError,
  type CardProvider,
  type CreateIntentInput,
  type CreateOxxoInput,
  type IntentInfo,
  type OxxoVoucher,
  type RefundInfo,
  type SavedCard,
  type WebhookEvent,
} from './types.ts';

/** Where the SDK sends its requests; only tests point it elsewhere (a local stub). */
export interface StripeEndpoint {
  host?: string;
  port?: number;
  protocol?: 'http' | 'https';
}

interface IntentLike {
  id: string;
  status: string;
  amount: number;
  currency: string;
  metadata?: Record<string, string> | null;
  customer?: string | { id: string } | null;
  client_secret?: string | null;
  payment_method_types?: string[] | null;
  /** Expanded on retrieve: the charge that paid, which says how it was paid. */
  latest_charge?: string | { payment_method_details?: { type?: string | null; card?: { funding?: string | null } | null } | null } | null;
  next_action?: {
    type?: string;
    oxxo_display_details?: { expires_after?: number | null; hosted_voucher_url?: string | null; number?: string | null } | null;
  } | null;
  payment_method_options?: {
    card?: {
      installments?: {
        enabled?: boolean;
        available_plans?: Array<{ count?: number | null; interval?: string | null; type?: string }> | null;
        plan?: { count?: number | null } | null;
      } | null;
    } | null;
  } | null;
}

function toVoucher(pi: IntentLike): OxxoVoucher | null {
  const details = pi.next_action?.oxxo_display_details;
  if (!details?.number || !details.expires_after) return null;
  return {
    reference: details.number,
    expiresAt: new Date(details.expires_after * 1000).toISOString(),
    amount: centavos(pi.amount),
    hostedVoucherUrl: details.hosted_voucher_url ?? null,
  };
}

/**
 * How the intent pays: what paid it when it has a charge (the charge's payment_method_details),
 * else the one method it was created for (the shop creates card intents with ['card'] and OXXO
 * intents with ['oxxo']). Null when neither says (an intent listing several methods, unpaid).
 */
function methodOf(pi: IntentLike): 'card' | 'oxxo' | null {
  const charge = typeof pi.latest_charge === 'object' && pi.latest_charge ? pi.latest_charge : null;
  const paidWith = charge?.payment_method_details?.type ?? null;
  if (paidWith === 'oxxo' || paidWith === 'card') return paidWith;
  const types = pi.payment_method_types ?? [];
  if (types.length === 1 && (types[0] === 'oxxo' || types[0] === 'card')) return types[0];
  return null;
}

/** The funding of the card that paid (the charge's payment_method_details.card.funding); null without a card charge. */
function fundingOf(pi: IntentLike): CardFunding | null {
  const charge = typeof pi.latest_charge === 'object' && pi.latest_charge ? pi.latest_charge : null;
  const details = charge?.payment_method_details;
  if (details?.type !== 'card') return null;
  // A card charge whose funding Stripe does not give is recorded as Stripe's own 'unknown'.
  return cardFundingOf(details.card?.funding) ?? 'unknown';
}

function toIntent(pi: IntentLike): IntentInfo {
  const customer = typeof pi.customer === 'string' ? pi.customer : (pi.customer?.id ?? null);
  const installments = pi.payment_method_options?.card?.installments ?? null;
  return {
    method: methodOf(pi),
    funding: fundingOf(pi),
    voucher: toVoucher(pi),
    availablePlans: (installments?.available_plans ?? [])
      .filter((plan) => plan.type === 'fixed_count' && plan.interval === 'month' && typeof plan.count === 'number')
      .map((plan) => plan.count!),
    installments: installments?.plan?.count ?? null,
    id: pi.id,
    status: pi.status,
    // Stripe's amounts are in the currency's smallest unit: centavos for MXN.
    amount: centavos(pi.amount),
    currency: pi.currency,
    orderId: pi.metadata?.order_id ?? null,
    customerId: customer,
    clientSecret: pi.client_secret ?? null,
  };
}

function isMissing(error: unknown): boolean {
  const e = error as { type?: string; code?: string; statusCode?: number };
  return e?.statusCode === 404 || e?.code === 'resource_missing';
}

/** The Stripe card provider. */
export class StripeCardProvider implements CardProvider {
  readonly name = 'stripe' as const;
  private readonly stripe: Stripe;

  constructor(
    secretKey: string,
    private readonly webhookSecret: string | null,
    endpoint: StripeEndpoint = {},
  ) {
    this.stripe = new Stripe(secretKey, {
      maxNetworkRetries: 2,
      timeout: 20_000,
      telemetry: false,
      ...endpoint,
    });
  }

  async createCustomer(user: { id: string; email: string | null }): Promise<string> {
    const customer = await this.stripe.customers.create(
      { ...(user.email ? { email: user.email } : {}), metadata: { user_id: user.id } },
      // One customer per user even when two tabs ask at once.
      { idempotencyKey: `customer-${user.id}` },
    );
    return customer.id;
  }

  async customerExists(customerId: string): Promise<boolean> {
    try {
      const customer = await this.stripe.customers.retrieve(customerId);
      return !('deleted' in customer && customer.deleted === true);
    } catch (error) {
      if (isMissing(error)) return false;
      throw error;
    }
  }

  async listPaymentMethods(customerId: string): Promise<SavedCard[]> {
    const customer = await this.stripe.customers.retrieve(customerId);
    if ('deleted' in customer && customer.deleted) return [];
    const settings = (customer as { invoice_settings?: { default_payment_method?: string | { id: string } | null } }).invoice_settings;
    const rawDefault = settings?.default_payment_method ?? null;
    const defaultId = typeof rawDefault === 'string' ? rawDefault : (rawDefault?.id ?? null);
    const list = await this.stripe.paymentMethods.list({ customer: customerId, type: 'card', limit: 100 });
    return list.data
      .filter((pm) => pm.card)
      .map((pm) => ({
        id: pm.id,
        type: 'card' as const,
        card: {
          brand: pm.card!.brand,
          last4: pm.card!.last4,
          exp_month: pm.card!.exp_month,
          exp_year: pm.card!.exp_year,
        },
        is_default: pm.id === defaultId,
      }));
  }

  async paymentMethodCustomer(paymentMethodId: string): Promise<string | null> {
    try {
      const pm = await this.stripe.paymentMethods.retrieve(paymentMethodId);
      return typeof pm.customer === 'string' ? pm.customer : (pm.customer?.id ?? null);
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  }

  async setDefaultPaymentMethod(customerId: string, paymentMethodId: string): Promise<void> {
    await this.stripe.customers.update(customerId, { invoice_settings: { default_payment_method: paymentMethodId } });
  }

  async detachPaymentMethod(paymentMethodId: string): Promise<void> {
    await this.stripe.paymentMethods.detach(paymentMethodId);
  }

  async createPaymentIntent(input: CreateIntentInput): Promise<IntentInfo> {
    // Card only (wallets pay as cards): an intent that also listed OXXO, as automatic payment
    // methods would once OXXO is enabled in the Dashboard, could be turned into a voucher the
    // shop does not track by whoever holds its client secret. payment_method_types as the API
    // documents it (this SDK's types only describe the newer spelling), as for OXXO below.
    const params = {
      amount: input.amount,
      currency: 'mxn',
      ...(input.customerId ? { customer: input.customerId } : {}),
      payment_method_types: ['card'],
      ...(input.installments ? { payment_method_options: { card: { installments: { enabled: true } } } } : {}),
      metadata: { order_id: input.orderId, user_id: input.userId },
    };
    const pi = await this.stripe.paymentIntents.create(params as unknown as Stripe.PaymentIntentCreateParams, { idempotencyKey: input.idempotencyKey });
    return toIntent(pi as unknown as IntentLike);
  }

  async createOxxoPayment(input: CreateOxxoInput): Promise<IntentInfo> {
    // payment_method_types is still Stripe's parameter for one fixed method, though this SDK's
    // types only describe its newer spelling; the request carries it as the API documents it.
    const params = {
      amount: input.amount,
      currency: 'mxn',
      ...(input.customerId ? { customer: input.customerId } : {}),
      payment_method_types: ['oxxo'],
      payment_method_data: { type: 'oxxo', billing_details: { name: input.name, email: input.email } },
      payment_method_options: { oxxo: { expires_after_days: input.expiresAfterDays } },
      confirm: true,
      metadata: { order_id: input.orderId, user_id: input.userId },
    };
    const pi = await this.stripe.paymentIntents.create(params as unknown as Stripe.PaymentIntentCreateParams, { idempotencyKey: input.idempotencyKey });
    return toIntent(pi as unknown as IntentLike);
  }

  /**
   * Puts the card the shopper entered (a PaymentMethod created by Stripe.js) on the order's intent;
   * Stripe answers with the 'meses sin intereses' plans the card's issuer offers (none for debit
   * or foreign cards).
   */
  async attachCard(intentId: string, paymentMethodId: string): Promise<IntentInfo> {
    const pi = await this.stripe.paymentIntents.update(intentId, { payment_method: paymentMethodId });
    return toIntent(pi as unknown as IntentLike);
  }

  /** Confirms the intent on the server with the chosen plan (null: 'Pago de contado'). */
  async confirmWithPlan(intentId: string, months: number | null, returnUrl: string): Promise<IntentInfo> {
    try {
      const pi = await this.stripe.paymentIntents.confirm(intentId, {
        return_url: returnUrl,
        ...(months ? { payment_method_options: { card: { installments: { plan: { count: months, interval: 'month', type: 'fixed_count' } } } } } : {}),
      });
      return toIntent(pi as unknown as IntentLike);
    } catch (error) {
      const e = error as { type?: string; message?: string };
      if (e?.type === 'StripeCardError') throw new PaymentError(e.message ?? PAYMENTS_STRIPE_TEXT.declined, 402, 'card_declined');
      throw error;
    }
  }

  async retrievePaymentIntent(intentId: string): Promise<IntentInfo | null> {
    try {
      const pi = await this.stripe.paymentIntents.retrieve(intentId, { expand: ['latest_charge'] });
      return toIntent(pi as unknown as IntentLike);
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  }

  async cancelPaymentIntent(intentId: string): Promise<IntentInfo | null> {
    try {
      const pi = await this.stripe.paymentIntents.cancel(intentId);
      return toIntent(pi as unknown as IntentLike);
    } catch (error) {
      if (isMissing(error)) return null;
      // Stripe refuses to cancel an intent that already succeeded (or is processing): report it as it is.
      if ((error as { code?: string }).code === 'payment_intent_unexpected_state') return this.retrievePaymentIntent(intentId);
      throw error;
    }
  }

  async refundPayment(intentId: string, amount: number, idempotencyKey: string): Promise<RefundInfo> {
    const refund = await this.stripe.refunds.create({ payment_intent: intentId, amount, metadata: { reason: 'shop_refund' } }, { idempotencyKey });
    if (refund.status === 'failed' || refund.status === 'canceled') {
      throw new Error(`Stripe refund ${refund.id} ${refund.status}`);
    }
    return { id: refund.id, status: refund.status ?? 'pending' };
  }

  verifyWebhook(rawBody: string, signature: string | null): WebhookEvent {
    if (!this.webhookSecret) throw new PaymentError(PAYMENTS_STRIPE_TEXT.webhookNotConfigured, 400, 'webhook_not_configured');
    if (!signature) throw new PaymentError(PAYMENTS_STRIPE_TEXT.signatureMissing, 400, 'invalid_signature');
    let event: { id: string; type: string; data: { object: unknown } };
    try {
      event = this.stripe.webhooks.constructEvent(rawBody, signature, this.webhookSecret) as unknown as typeof event;
    } catch {
      throw new PaymentError(PAYMENTS_STRIPE_TEXT.invalidSignature, 400, 'invalid_signature');
    }
    const object = event.data?.object as { id?: unknown; object?: unknown } | undefined;
    const intentId = object?.object === 'payment_intent' && typeof object.id === 'string' ? object.id : null;
    return { id: event.id, type: event.type, intentId };
  }
}
