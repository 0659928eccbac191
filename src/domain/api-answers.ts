/**
 * What the shop's /api endpoints answer on success, as zod/mini schemas: the server's handlers
 * write their answers through them (src/server/http/json.ts `answer`, checked when type-checking),
 * and the browser's callApi/postApi (src/data/api.ts) parse what arrives with them, so an answer
 * that does not match is a failure. Objects are loose where the server may add fields; a field is
 * optional only where the server leaves it out, nullable only where it sends null. zod/mini keeps
 * this small in the pages that load it.
 */
import * as z from 'zod/mini';
import { REFUND_WAYS } from './refunds.ts';

// Pagos ----------------------------------------------------------------------------------------

/** An order after the server settled its payment (card confirm, PayPal capture, OXXO, plans). */
export const settlementAnswer = z.looseObject({ orderId: z.string(), status: z.string(), changed: z.boolean() });

/** POST /api/payments/simulated/confirm and /authenticate: the simulated card's outcome (the settled order once it succeeded). */
export const simulatedCardAnswer = z.looseObject({
  status: z.string(),
  intentId: z.string(),
  orderId: z.nullable(z.string()),
  /** The decline message for the shopper when the card was refused. */
  error: z.nullable(z.string()),
  order: z.optional(settlementAnswer),
});
export type SimulatedCardAnswer = z.infer<typeof simulatedCardAnswer>;

/** One 'meses sin intereses' plan (monthly in integer centavos). */
export const planOption = z.looseObject({ months: z.number(), monthly: z.number(), label: z.string() });

/** POST /api/payments/installments/plans and /api/payments/simulated/installments. */
export const plansAnswer = z.looseObject({ plans: z.array(planOption) });

/**
 * POST /api/payments/installments/confirm: the settled order, or {status: 'requires_action',
 * clientSecret} when the bank must confirm first.
 */
export const installmentsConfirmAnswer = z.looseObject({ status: z.string(), clientSecret: z.optional(z.nullable(z.string())) });

/** An OXXO voucher (amount in integer centavos). */
export const oxxoVoucher = z.looseObject({
  reference: z.string(),
  expiresAt: z.string(),
  amount: z.number(),
  hostedVoucherUrl: z.nullable(z.string()),
  paymentIntentId: z.string(),
});

/** POST /api/create-payment-intent {method: 'oxxo'}: the order's voucher. */
export const oxxoVoucherAnswer = z.looseObject({ voucher: oxxoVoucher, paymentIntentId: z.string() });

/** POST /api/payments/oxxo/cancel: the order after giving up its voucher (canceled false: it was paid meanwhile). */
export const oxxoCancelAnswer = z.looseObject({ orderId: z.string(), status: z.string(), canceled: z.boolean(), message: z.optional(z.string()) });

/** POST /api/payments/store-credit {use: true}: what the balance paid (centavos) and what is still due. */
export const storeCreditAnswer = z.looseObject({
  orderId: z.string(),
  status: z.string(),
  applied: z.optional(z.number()),
  due: z.optional(z.number()),
  released: z.optional(z.number()),
});

/** POST /api/paypal/create-order and /api/paypal/approve: the PayPal order. */
export const paypalOrderAnswer = z.looseObject({ id: z.string(), status: z.string() });

// Cuenta ---------------------------------------------------------------------------------------

/** GET /api/stripe/payment-methods: the customer's saved cards. */
export const savedCardsAnswer = z.array(
  z.looseObject({
    id: z.string(),
    type: z.string(),
    card: z.looseObject({ brand: z.string(), last4: z.string(), exp_month: z.number(), exp_year: z.number() }),
    is_default: z.boolean(),
  }),
);

/** POST /api/stripe/customers/{id}/default-payment-method. */
export const defaultCardAnswer = z.looseObject({ ok: z.literal(true), customerId: z.string(), defaultPaymentMethod: z.string() });

/** POST /api/stripe/payment-methods/{id}/detach. */
export const detachedCardAnswer = z.looseObject({ ok: z.literal(true), id: z.string() });

// Administración -------------------------------------------------------------------------------

/** POST /api/admin/orders/{id}/status. */
export const orderStatusAnswer = z.looseObject({
  id: z.string(),
  status: z.string(),
  carrier: z.optional(z.nullable(z.string())),
  trackingNumber: z.optional(z.nullable(z.string())),
});

/** POST /api/admin/orders/{id}/refund: done (200) or under way (202, with a message). */
/** GET /api/admin/orders/{id}/refund: the ways this order can be refunded, the default first. */
export const refundOptionsAnswer = z.object({
  ways: z.array(z.enum(REFUND_WAYS)),
  provider: z.nullable(z.enum(['card', 'paypal'])),
  asksForRestock: z.boolean(),
});

export const refundAnswer = z.looseObject({ id: z.string(), status: z.string(), refund: z.string(), message: z.optional(z.string()) });

const rebuildState = z.enum(['idle', 'building', 'queued']);

/** GET /api/admin/rebuild. Progress is null when idle; another server's build reports no share. */
export const rebuildStatusAnswer = z.looseObject({
  status: rebuildState,
  startedAt: z.nullable(z.string()),
  finishedAt: z.nullable(z.string()),
  durationMs: z.nullable(z.number()),
  lastError: z.nullable(z.string()),
  builds: z.number(),
  failures: z.number(),
  reason: z.nullable(z.string()),
  progress: z.nullable(
    z.looseObject({
      phase: z.string(),
      pagesWritten: z.number(),
      pagesExpected: z.optional(z.nullable(z.number())),
      percent: z.optional(z.nullable(z.number())),
    }),
  ),
  lastSuccessAt: z.nullable(z.string()),
  lastPages: z.nullable(z.number()),
});

/** POST /api/admin/rebuild (202). */
export const rebuildStartedAnswer = z.looseObject({ status: rebuildState, startedAt: z.nullable(z.string()) });

/** GET /api/admin/newsletter. */
export const subscribersAnswer = z.looseObject({
  count: z.number(),
  subscribers: z.array(z.looseObject({ email: z.string(), created_at: z.string() })),
});
