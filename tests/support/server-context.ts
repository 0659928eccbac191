/**
 * The server context the endpoint handlers receive, as the server tests build it: the service-role
 * client, the payment providers (simulated, or the real SDKs pointed at the local Stripe and
 * PayPal stubs), a mail queue and the shop's base URL.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import type { ServerContext } from '~/server/context.ts';
import { createPayments, type PaymentSettings } from '~/server/payments/providers/index.ts';
import type { MailQueue } from '~/server/mail/types.ts';
import { SHOP_BASE } from './api-requests.ts';
import type { PayPalStub } from './paypal-stub.ts';
import type { StripeStub } from './stripe-stub.ts';

/** A mail queue that drops every message. */
export const noMail: MailQueue = async () => undefined;

/** The context for `payments` settings: the service role as admin, `mail` as the queue, SHOP_BASE as the site. */
export function serverContext(service: SupabaseClient, settings: PaymentSettings, mail: MailQueue = noMail): ServerContext {
  return { admin: service, payments: createPayments(settings, service), mail, siteUrl: SHOP_BASE };
}

/** Live settings with only Stripe, whose SDK talks to the local Stripe stub and checks webhooks with `webhookSecret`. */
export function stripeStubSettings(stub: StripeStub, webhookSecret: string): PaymentSettings {
  return {
    mode: 'live',
    stripeSecretKey: 'sk_test_local_stub',
    stripePublishableKey: 'pk_test_local_stub',
    stripeWebhookSecret: webhookSecret,
    stripeEndpoint: { host: '127.0.0.1', port: stub.port, protocol: 'http' },
  };
}

/** Live settings with only PayPal, whose REST API is the local PayPal stub (and the shop's webhook id there, when given). */
export function paypalStubSettings(stub: PayPalStub, webhookId?: string): PaymentSettings {
  return {
    mode: 'live',
    paypalClientId: 'client-stub',
    paypalClientSecret: 'secret-stub',
    paypalApiBase: stub.url,
    ...(webhookId === undefined ? {} : { paypalWebhookId: webhookId }),
  };
}
