/**
 * The simulated card provider of simulated mode: Stripe-shaped customers, cards and payment
 * intents (card and OXXO) kept as simulated records, following Stripe's public test cards and
 * Mexican installment cards; orders settle through the same server path as with Stripe. No money
 * ever moves. `confirmCard` and `authenticate` stand in for Stripe.js, `payOxxo` for the store.
 */
import { createHash, randomBytes } from 'node:crypto';
import { cardFundingOf } from '~/domain/invoices.ts';
import { centavos } from '~/domain/money.ts';
import { installmentsOffered, oxxoVoucherExpiry } from '~/domain/mexican-payments.ts';
import { MEXICAN_PAYMENT_MESSAGES } from '~/i18n/checkout.ts';
import { PAYMENTS_SIMULATED_CARD_TEXT, PAYMENTS_TEST_CARD_MESSAGES } from '~/i18n/payments.ts';
import { cardDigits, checkCard, testCardFunding, testCardInstallmentPlans, testCardOutcome, type CardInput } from './test-cards.ts';
import { newId, simulatedRefund, type SimData, type SimRecord, type SimStore } from './simulated-records.ts';
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

/** The simulated OXXO reference of an order: 18 digits derived from its id, the same every time. */
export function simulatedOxxoReference(orderId: string): string {
  const hash = createHash('sha256').update(`oxxo:${orderId}`).digest('hex');
  return (BigInt(`0x${hash.slice(0, 24)}`) % 10n ** 18n).toString().padStart(18, '9');
}

const OPEN_INTENT = ['requires_payment_method', 'requires_confirmation'];

/**
 * Why an intent in `status` refuses a confirmation or an authentication: a canceled one (its order
 * was cancelled or expired, and the payments sweep closed it) says the order can no longer be paid
 * and nothing was charged, as Stripe refuses a canceled PaymentIntent (payment_intent_unexpected_state).
 */
function refusal(status: string | null, otherwise: string): string {
  return status === 'canceled' ? PAYMENTS_SIMULATED_CARD_TEXT.canceled : otherwise;
}

/** A JSON value as an object, or undefined when it is not one. */
function jsonObject(value: SimData[string]): SimData | undefined {
  return value !== null && value !== undefined && typeof value === 'object' && !Array.isArray(value) ? value : undefined;
}

/** The voucher's number and expiry (Unix seconds) as the intent stores them, when it has them. */
function oxxoOf(record: SimRecord): { number: string | null; expiresAfter: number | null } {
  const oxxo = jsonObject(record.data.oxxo);
  return {
    number: typeof oxxo?.number === 'string' && oxxo.number !== '' ? oxxo.number : null,
    expiresAfter: typeof oxxo?.expires_after === 'number' && oxxo.expires_after !== 0 ? oxxo.expires_after : null,
  };
}

/** The numbers of a JSON array, or null when it is not an array of numbers. */
function numbersOf(value: SimData[string]): number[] | null {
  return Array.isArray(value) && value.every((item) => typeof item === 'number') ? value : null;
}

/** The strings of a JSON array, or null when it is not an array of strings. */
function stringsOf(value: SimData[string]): string[] | null {
  return Array.isArray(value) && value.every((item) => typeof item === 'string') ? value : null;
}

function toVoucher(record: SimRecord): OxxoVoucher | null {
  const oxxo = oxxoOf(record);
  if (oxxo.number === null || oxxo.expiresAfter === null) return null;
  return {
    reference: oxxo.number,
    expiresAt: new Date(oxxo.expiresAfter * 1000).toISOString(),
    amount: centavos(Number(record.data.amount)),
    hostedVoucherUrl: null,
  };
}

function toIntent(record: SimRecord): IntentInfo {
  const d = record.data;
  const types = stringsOf(d.payment_method_types) ?? ['card'];
  // What paid it (as Stripe's charge reports it), else the one method it was created for.
  const details = jsonObject(d.payment_method_details);
  const paidWith = details?.type;
  const method = paidWith === 'oxxo' || paidWith === 'card' ? paidWith : types.includes('oxxo') ? 'oxxo' : 'card';
  return {
    method,
    // As Stripe's charge: the card's funding once a card paid it.
    funding: record.status === 'succeeded' && method === 'card' && details ? (cardFundingOf(details.funding) ?? 'unknown') : null,
    voucher: record.status === 'requires_action' ? toVoucher(record) : null,
    availablePlans: numbersOf(d.available_plans) ?? [],
    installments: typeof d.installments === 'number' ? d.installments : null,
    id: record.id,
    status: record.status ?? 'requires_payment_method',
    amount: centavos(Number(d.amount)),
    currency: String(d.currency ?? ''),
    orderId: typeof d.order_id === 'string' ? d.order_id : null,
    customerId: typeof d.customer === 'string' ? d.customer : null,
    clientSecret: typeof d.client_secret === 'string' ? d.client_secret : null,
  };
}

/** The result of confirming a simulated card payment, as the card form needs it. */
export type SimulatedConfirmation = {
  status: string;
  intentId: string;
  orderId: string | null;
  /** The decline message for the shopper when the card was refused. */
  error: string | null;
};

/** The simulated card provider; `confirmCard` and `authenticate` stand in for Stripe.js. */
export class SimulatedCardProvider implements CardProvider {
  readonly name = 'simulated-card' as const;

  constructor(private readonly store: SimStore) {}

  async createCustomer(user: { id: string; email: string | null }): Promise<string> {
    const record = await this.store.put(
      { id: newId('cus'), kind: 'customer', owner: user.id, status: 'active', data: { email: user.email, default_payment_method: null } },
      `customer:${user.id}`,
    );
    return record.id;
  }

  async customerExists(customerId: string): Promise<boolean> {
    const record = await this.store.get(customerId);
    return record?.kind === 'customer';
  }

  async listPaymentMethods(customerId: string): Promise<SavedCard[]> {
    const customer = await this.store.get(customerId);
    if (customer?.kind !== 'customer') return [];
    const defaultId = customer.data.default_payment_method;
    const cards = await this.store.list('payment_method', customerId);
    return cards.map((r) => ({
      id: r.id,
      type: 'card' as const,
      card: {
        brand: String(r.data.brand),
        last4: String(r.data.last4),
        exp_month: Number(r.data.exp_month),
        exp_year: Number(r.data.exp_year),
      },
      is_default: r.id === defaultId,
    }));
  }

  async paymentMethodCustomer(paymentMethodId: string): Promise<string | null> {
    const record = await this.store.get(paymentMethodId);
    return record?.kind === 'payment_method' ? record.owner : null;
  }

  async setDefaultPaymentMethod(customerId: string, paymentMethodId: string): Promise<void> {
    await this.store.update(customerId, null, null, { default_payment_method: paymentMethodId });
  }

  async detachPaymentMethod(paymentMethodId: string): Promise<void> {
    const owner = await this.paymentMethodCustomer(paymentMethodId);
    await this.store.setOwner(paymentMethodId, null);
    if (owner) {
      const customer = await this.store.get(owner);
      if (customer?.data.default_payment_method === paymentMethodId) {
        // Like Stripe, a removed default leaves the customer without a default.
        await this.store.update(owner, null, null, { default_payment_method: null });
      }
    }
  }

  /** Stores a new PaymentIntent for an order (once per idempotency key), with what its kind adds. */
  private async putIntent(input: CreateIntentInput, status: string, extra: (id: string) => Record<string, unknown>): Promise<IntentInfo> {
    const id = newId('pi');
    const record = await this.store.put(
      {
        id,
        kind: 'payment_intent',
        owner: input.orderId,
        status,
        data: {
          amount: input.amount,
          currency: 'mxn',
          order_id: input.orderId,
          user_id: input.userId,
          customer: input.customerId,
          client_secret: `${id}_secret_${randomBytes(16).toString('hex')}`,
          ...extra(id),
        },
      },
      input.idempotencyKey,
    );
    return toIntent(record);
  }

  async createPaymentIntent(input: CreateIntentInput): Promise<IntentInfo> {
    return this.putIntent(input, 'requires_payment_method', () => ({ installments_enabled: input.installments === true }));
  }

  /** An OXXO payment, created and confirmed: it waits (requires_action) with its voucher. */
  async createOxxoPayment(input: CreateOxxoInput, now = new Date()): Promise<IntentInfo> {
    return this.putIntent(input, 'requires_action', () => ({
      payment_method_types: ['oxxo'],
      billing_details: { name: input.name, email: input.email },
      oxxo: {
        number: simulatedOxxoReference(input.orderId),
        expires_after: Math.floor(oxxoVoucherExpiry(now, input.expiresAfterDays).getTime() / 1000),
      },
      // The capability in the voucher e-mail's link to the simulated store counter.
      voucher_token: randomBytes(16).toString('hex'),
    }));
  }

  /** The secret that lets the voucher's link simulate its payment (null: not an OXXO intent). */
  async voucherToken(intentId: string): Promise<string | null> {
    const record = await this.store.get(intentId);
    return record?.kind === 'payment_intent' && typeof record.data.voucher_token === 'string' ? record.data.voucher_token : null;
  }

  /**
   * The cashier took the money: the voucher's intent succeeds, as Stripe reports it. The store
   * refuses a voucher past its deadline; `paidAt` is when the cashier took it (default now): cash
   * paid before the deadline is confirmed whenever it is reported, even after the deadline, as
   * Stripe confirms OXXO payments by the next business day.
   */
  async payOxxo(intentId: string, paidAt: Date = new Date()): Promise<IntentInfo> {
    const record = await this.store.get(intentId);
    if (record?.kind !== 'payment_intent' || toIntent(record).method !== 'oxxo')
      throw new PaymentError(PAYMENTS_SIMULATED_CARD_TEXT.voucherNotFound, 404, 'intent_not_found');
    const { expiresAfter } = oxxoOf(record);
    if (record.status === 'requires_action' && expiresAfter !== null && expiresAfter * 1000 <= paidAt.getTime()) {
      throw new PaymentError(PAYMENTS_SIMULATED_CARD_TEXT.voucherExpired, 409, 'voucher_expired');
    }
    const paid = await this.store.update(intentId, ['requires_action'], 'succeeded', { payment_method_details: { type: 'oxxo' } });
    const current = paid ?? (await this.store.get(intentId))!;
    if (current.status !== 'succeeded') throw new PaymentError(PAYMENTS_SIMULATED_CARD_TEXT.voucherNotPayable, 409, 'intent_unexpected_state');
    return toIntent(current);
  }

  /** The voucher expires unpaid: like Stripe, the intent goes back to requires_payment_method. */
  async expireOxxo(intentId: string): Promise<IntentInfo | null> {
    const expired = await this.store.update(intentId, ['requires_action'], 'requires_payment_method', {
      last_payment_error: { code: 'payment_intent_payment_attempt_expired', message: PAYMENTS_SIMULATED_CARD_TEXT.voucherLapsed },
    });
    if (expired) return toIntent(expired);
    return this.retrievePaymentIntent(intentId);
  }

  /**
   * The 'meses sin intereses' plans for the card typed into the simulated form, as Stripe answers
   * once the card is on the intent: Stripe's Mexican installment test cards get plans (from
   * $300.00), every other card none, and never an error.
   */
  async installmentPlans(clientSecret: string, userId: string, number: string): Promise<number[]> {
    const intent = await this.intentForSecret(clientSecret, userId);
    const plans = this.plansFor(intent, number);
    await this.store.update(intent.id, null, null, { available_plans: plans });
    return plans;
  }

  private plansFor(intent: SimRecord, number: string): number[] {
    const digits = cardDigits(number);
    if (!digits || intent.data.installments_enabled !== true || !installmentsOffered(centavos(Number(intent.data.amount)))) return [];
    return testCardInstallmentPlans(digits);
  }

  async retrievePaymentIntent(intentId: string): Promise<IntentInfo | null> {
    const record = await this.store.get(intentId);
    return record?.kind === 'payment_intent' ? toIntent(record) : null;
  }

  async cancelPaymentIntent(intentId: string): Promise<IntentInfo | null> {
    const canceled = await this.store.update(intentId, [...OPEN_INTENT, 'requires_action'], 'canceled', { pending_card: null });
    if (canceled) return toIntent(canceled);
    return this.retrievePaymentIntent(intentId);
  }

  async refundPayment(intentId: string, amount: number, idempotencyKey: string): Promise<RefundInfo> {
    const record = await this.store.get(intentId);
    if (record?.kind === 'payment_intent' && toIntent(record).method === 'oxxo') {
      // As Stripe: OXXO payments cannot be refunded, neither in full nor in part.
      throw new PaymentError(PAYMENTS_SIMULATED_CARD_TEXT.oxxoNotRefundable, 400, 'charge_not_refundable');
    }
    return simulatedRefund(this.store, intentId, 'payment_intent', amount, idempotencyKey);
  }

  verifyWebhook(): WebhookEvent {
    // The simulated provider settles orders directly; it never sends webhooks.
    throw new PaymentError(PAYMENTS_SIMULATED_CARD_TEXT.webhookNotConfigured, 400, 'webhook_not_configured');
  }

  /** The intent behind a client secret, only for the user it was created for. */
  private async intentForSecret(clientSecret: string, userId: string): Promise<SimRecord> {
    const intentId = clientSecret.split('_secret_')[0] ?? '';
    const record = intentId ? await this.store.get(intentId) : null;
    if (!record || record.kind !== 'payment_intent' || record.data.client_secret !== clientSecret || record.data.user_id !== userId) {
      throw new PaymentError(PAYMENTS_SIMULATED_CARD_TEXT.notYours, 404, 'intent_not_found');
    }
    return record;
  }

  private confirmation(record: SimRecord, error: string | null = null): SimulatedConfirmation {
    return { status: record.status ?? '', intentId: record.id, orderId: toIntent(record).orderId, error };
  }

  /** Confirms a payment with a typed card, following Stripe's test cards. */
  async confirmCard(
    clientSecret: string,
    userId: string,
    card: CardInput,
    save: boolean,
    now = new Date(),
    plan: number | null = null,
  ): Promise<SimulatedConfirmation> {
    const intent = await this.intentForSecret(clientSecret, userId);
    const checked = checkCard(card, now);
    if (!checked.ok) throw new PaymentError(checked.message, 400, `invalid_${checked.field}`);
    // Only a plan the card's issuer offered for this intent is ever confirmed.
    if (plan !== null && !this.plansFor(intent, checked.digits).includes(plan)) {
      throw new PaymentError(MEXICAN_PAYMENT_MESSAGES.invalidPlan, 400, 'invalid_plan');
    }
    // Only one confirmation may move an open intent: a second click finds it taken.
    const taken = await this.store.update(intent.id, OPEN_INTENT, 'processing', { last_payment_error: null });
    if (!taken) {
      const current = (await this.store.get(intent.id))!;
      if (current.status === 'succeeded' || current.status === 'requires_action' || current.status === 'processing') {
        return this.confirmation(current);
      }
      throw new PaymentError(refusal(current.status, PAYMENTS_SIMULATED_CARD_TEXT.notConfirmable), 409, 'intent_unexpected_state');
    }
    const pending = {
      type: 'card',
      brand: checked.brand,
      funding: testCardFunding(checked.digits),
      last4: checked.digits.slice(-4),
      exp_month: checked.expMonth,
      exp_year: checked.expYear,
      save,
      installments: plan,
    };
    const outcome = testCardOutcome(checked.digits);
    if (outcome.kind === 'declined') {
      const failed = await this.store.update(intent.id, ['processing'], 'requires_payment_method', {
        last_payment_error: { code: outcome.code, message: outcome.message },
      });
      return this.confirmation(failed!, outcome.message);
    }
    if (outcome.kind === 'requires_action') {
      const waiting = await this.store.update(intent.id, ['processing'], 'requires_action', { pending_card: pending });
      return this.confirmation(waiting!);
    }
    return this.succeed(intent.id, 'processing', pending);
  }

  /** Completes (or fails) the authentication step of a card that asked for it. */
  async authenticate(clientSecret: string, userId: string, approve: boolean): Promise<SimulatedConfirmation> {
    const intent = await this.intentForSecret(clientSecret, userId);
    if (intent.status === 'succeeded') return this.confirmation(intent);
    const pending = jsonObject(intent.data.pending_card);
    if (intent.status !== 'requires_action' || !pending) {
      throw new PaymentError(refusal(intent.status, PAYMENTS_SIMULATED_CARD_TEXT.noAuthentication), 409, 'intent_unexpected_state');
    }
    if (!approve) {
      const failed = await this.store.update(intent.id, ['requires_action'], 'requires_payment_method', {
        last_payment_error: { code: 'authentication_failed', message: PAYMENTS_TEST_CARD_MESSAGES.authenticationFailed },
        pending_card: null,
      });
      if (!failed) return this.confirmation((await this.store.get(intent.id))!);
      return this.confirmation(failed, PAYMENTS_TEST_CARD_MESSAGES.authenticationFailed);
    }
    return this.succeed(intent.id, 'requires_action', pending);
  }

  private async succeed(intentId: string, from: string, card: SimData): Promise<SimulatedConfirmation> {
    const { save, installments, ...details } = card;
    const done = await this.store.update(intentId, [from], 'succeeded', {
      payment_method_details: details,
      pending_card: null,
      installments: typeof installments === 'number' ? installments : null,
    });
    if (!done) return this.confirmation((await this.store.get(intentId))!);
    const customerId = typeof done.data.customer === 'string' ? done.data.customer : null;
    if (save === true && customerId) {
      const pm = await this.store.put({ id: newId('pm'), kind: 'payment_method', owner: customerId, status: 'attached', data: details });
      const customer = await this.store.get(customerId);
      if (customer && !customer.data.default_payment_method) {
        await this.store.update(customerId, null, null, { default_payment_method: pm.id });
      }
    }
    return this.confirmation(done);
  }
}
