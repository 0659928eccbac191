/**
 * The one interface of the card and PayPal providers. The endpoints talk only to these types;
 * `index.ts` picks them from the payment mode: in live mode Stripe/PayPal when their keys are set
 * (a provider without keys is unavailable), in simulated mode the simulated provider for both.
 */
import type { CardFunding } from '~/domain/invoices.ts';
import type { Centavos } from '~/domain/money.ts';

/** A saved card as the account page shows it (the shape of GET /api/stripe/payment-methods). */
export type SavedCard = {
  id: string;
  type: 'card';
  card: { brand: string; last4: string; exp_month: number; exp_year: number };
  is_default: boolean;
};

/** What the server needs to know about a card payment to trust it. */
export interface IntentInfo {
  id: string;
  status: string;
  /** Integer centavos. */
  amount: Centavos;
  currency: string;
  orderId: string | null;
  customerId: string | null;
  clientSecret: string | null;
  /**
   * How it is paid: 'card' (also wallets) or 'oxxo', from the charge that paid it, else from the
   * one method the intent was created for; null when the provider does not say.
   */
  method?: 'card' | 'oxxo' | null;
  /** The OXXO voucher while it waits to be paid at the store. */
  voucher?: OxxoVoucher | null;
  /** The months of the 'meses sin intereses' plans the card's issuer offers (after the card is known). */
  availablePlans?: number[];
  /** The months of the plan the payment was confirmed with; null: a single payment. */
  installments?: number | null;
  /** The funding of the card that paid, from the charge (Stripe's card.funding); null until paid by card. */
  funding?: CardFunding | null;
}

/** An OXXO voucher: what the shopper takes to the store. */
export interface OxxoVoucher {
  /** The 14–18-digit number the cashier types or scans. */
  reference: string;
  /** ISO time after which the store no longer takes it. */
  expiresAt: string;
  /** Integer centavos. */
  amount: Centavos;
  /** Stripe's printable voucher page (null in simulated mode: the shop shows its own). */
  hostedVoucherUrl: string | null;
}

/** Parameters of an OXXO payment: a card payment's, and who pays (Stripe requires name and e-mail). */
export interface CreateOxxoInput extends CreateIntentInput {
  name: string;
  email: string;
  expiresAfterDays: number;
}

/** Parameters of a card payment for one order. */
export interface CreateIntentInput {
  orderId: string;
  userId: string;
  /** Integer centavos: the order's stored total × 100. */
  amount: Centavos;
  customerId: string | null;
  /** Same key, same intent: a repeated request never creates a second payment. */
  idempotencyKey: string;
  /** Enables 'meses sin intereses' on the intent (totals from $300.00). */
  installments?: boolean;
}

/** A verified provider notification: which intent changed and to what. */
export interface WebhookEvent {
  id: string;
  type: string;
  /** The PaymentIntent it is about, if any; the server reads the intent again before acting on it. */
  intentId: string | null;
}

/** A refund as the provider reports it. */
export interface RefundInfo {
  id: string;
  /** 'succeeded', or 'pending' while the provider still processes it (Stripe, PayPal). */
  status: string;
}

/** Card payments and saved cards (Stripe or the simulated provider). */
export interface CardProvider {
  /** Also what an order paid through it records as its payment_provider. */
  readonly name: 'stripe' | 'simulated-card';
  /** Creates a customer for a user and returns its id. */
  createCustomer(user: { id: string; email: string | null }): Promise<string>;
  /** Whether a customer exists at the provider. */
  customerExists(customerId: string): Promise<boolean>;
  /** The customer's saved cards, the default one flagged. */
  listPaymentMethods(customerId: string): Promise<SavedCard[]>;
  /** The customer a payment method is attached to, or null (unknown or detached). */
  paymentMethodCustomer(paymentMethodId: string): Promise<string | null>;
  /** Makes a card the customer's default for future payments. */
  setDefaultPaymentMethod(customerId: string, paymentMethodId: string): Promise<void>;
  /** Removes a card from its customer. */
  detachPaymentMethod(paymentMethodId: string): Promise<void>;
  /** Creates (or, with the same idempotency key, returns again) the payment intent of an order. */
  createPaymentIntent(input: CreateIntentInput): Promise<IntentInfo>;
  /**
   * Creates AND confirms an OXXO payment (payment_method_types ['oxxo']): the intent waits in
   * requires_action with its voucher until the shopper pays at the store or it expires.
   */
  createOxxoPayment(input: CreateOxxoInput): Promise<IntentInfo>;
  /** The intent as the provider knows it now; null when unknown. */
  retrievePaymentIntent(intentId: string): Promise<IntentInfo | null>;
  /**
   * Cancels an intent that has not taken money; returns the intent as it is afterwards (a
   * succeeded intent stays succeeded: the caller must then settle or refund it). Null: unknown.
   */
  cancelPaymentIntent(intentId: string): Promise<IntentInfo | null>;
  /** Refunds a succeeded intent in full; the same idempotency key never refunds twice. */
  refundPayment(intentId: string, amount: Centavos, idempotencyKey: string): Promise<RefundInfo>;
  /** Verifies a webhook's signature and decodes it; throws when the signature is wrong. */
  verifyWebhook(rawBody: string, signature: string | null): WebhookEvent;
}

/** A PayPal order as the server knows it. */
export interface PayPalOrderInfo {
  id: string;
  status: string;
  /** Integer centavos of the (first) purchase unit, or of the capture after capturing. */
  amount: Centavos | null;
  currency: string | null;
  /** The shop's order id, carried as the purchase unit's custom_id. */
  orderId: string | null;
  /** The capture's id once captured. */
  captureId: string | null;
  /**
   * The capture's status: COMPLETED (the money is the shop's), PENDING (PayPal is still deciding:
   * an eCheck, a review), DECLINED or FAILED (no money), REFUNDED or PARTIALLY_REFUNDED.
   */
  captureStatus: string | null;
}

/**
 * The one rule for settling a PayPal payment: only a capture PayPal reports COMPLETED has taken
 * the money. An order PayPal calls COMPLETED whose capture is PENDING, DECLINED or FAILED has not.
 */
export function paypalCaptureCompleted(info: PayPalOrderInfo | null): boolean {
  return info !== null && info.status === 'COMPLETED' && info.captureId !== null && info.captureStatus === 'COMPLETED';
}

/** A capture PayPal has not decided yet: no money so far, but it may still arrive (look again later). */
export function paypalCapturePending(info: PayPalOrderInfo | null): boolean {
  return info !== null && info.captureStatus === 'PENDING';
}

/** A capture that will never take the money (PayPal declined it, or it failed). */
export function paypalCaptureFailed(info: PayPalOrderInfo | null): boolean {
  return info !== null && (info.captureStatus === 'DECLINED' || info.captureStatus === 'FAILED');
}

/** A PayPal refund as the server re-reads it from PayPal (never from a notification's body). */
export interface PayPalRefundInfo {
  id: string;
  /** COMPLETED, PENDING, CANCELLED or FAILED. */
  status: string;
  /** Integer centavos, or null when PayPal did not say. */
  amount: Centavos | null;
  currency: string | null;
  /** The capture it gives money back from. */
  captureId: string | null;
}

/** A PayPal webhook notification whose signature PayPal confirmed. */
export interface PayPalWebhookEvent {
  id: string;
  /** The event_type, e.g. PAYMENT.CAPTURE.COMPLETED. */
  type: string;
  /** The resource as the notification carries it (a capture, a refund): ids only are used. */
  resource: Record<string, unknown>;
}

/** PayPal checkout (the REST API or the simulated provider). */
export interface PayPalProvider {
  readonly name: 'paypal' | 'simulated-paypal';
  /** Creates a PayPal order: one purchase unit, MXN, the amount with two decimals. */
  createOrder(input: { orderId: string; amount: Centavos; idempotencyKey: string }): Promise<PayPalOrderInfo>;
  /** Captures an approved PayPal order and reports the capture. */
  captureOrder(paypalOrderId: string, idempotencyKey: string): Promise<PayPalOrderInfo>;
  /** The PayPal order now; null when unknown. */
  getOrder(paypalOrderId: string): Promise<PayPalOrderInfo | null>;
  /**
   * Makes sure an uncaptured PayPal order is never captured (the simulated provider voids it; a
   * real PayPal order that is never captured simply expires, so there is nothing to call).
   */
  voidOrder(paypalOrderId: string): Promise<void>;
  /** Refunds a capture in full; the same idempotency key never refunds twice. */
  refundCapture(captureId: string, amount: Centavos, idempotencyKey: string): Promise<RefundInfo>;
  /** A refund as PayPal knows it now; null when unknown. */
  getRefund(refundId: string): Promise<PayPalRefundInfo | null>;
  /**
   * Has PayPal confirm a webhook notification (its paypal-* headers, the raw body, the shop's
   * webhook id) and decodes it. Throws a PaymentError: 400 invalid_signature when PayPal does not
   * confirm it or a header is missing, 503 when webhooks are not configured.
   */
  verifyWebhook(headers: Pick<Headers, 'get'>, rawBody: string): Promise<PayPalWebhookEvent>;
}

/** A refusal from a provider that the shopper should read (declined card, wrong state, …). */
export class PaymentError extends Error {
  constructor(
    message: string,
    readonly status = 402,
    readonly code = 'payment_failed',
  ) {
    super(message);
  }
}
