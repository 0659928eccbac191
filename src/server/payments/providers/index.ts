/**
 * The one place that picks the payment providers, from one explicit payment mode:
 * - `simulated`: both card and PayPal are the simulated provider (records in the database,
 *   Stripe's test cards); no money ever moves and every payment screen says 'Modo de prueba'.
 * - `live`: Stripe and PayPal with their keys. A provider whose keys are missing or incomplete is
 *   unavailable (null), never simulated: its endpoints answer 503 and its tab says so.
 * Nothing else in the shop asks which provider is in use.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import type { Database } from '~/data/database.types.ts';
import { PAYMENTS_MODE_OPERATOR_TEXT as MODE } from '~/i18n/payments.ts';
import { PayPalRestProvider, PAYPAL_LIVE_API } from './paypal.ts';
import { SimulatedCardProvider } from './simulated-card.ts';
import { SimulatedPayPalProvider } from './simulated-paypal.ts';
import { databaseSimStore } from './simulated-records.ts';
import { StripeCardProvider, type StripeEndpoint } from './stripe.ts';
import type { CardProvider, PayPalProvider } from './types.ts';

export type PaymentsMode = 'live' | 'simulated';

/** The payment settings read from the environment. */
export interface PaymentSettings {
  mode: PaymentsMode;
  stripeSecretKey?: string | undefined;
  stripePublishableKey?: string | undefined;
  stripeWebhookSecret?: string | undefined;
  paypalClientId?: string | undefined;
  paypalClientSecret?: string | undefined;
  paypalApiBase?: string | undefined;
  /** The id of the shop's webhook at PayPal (PAYPAL_WEBHOOK_ID): without it /api/paypal/webhook answers 503. */
  paypalWebhookId?: string | undefined;
  /** Where the Stripe SDK sends requests (tests and the production check point it at a stub). */
  stripeEndpoint?: StripeEndpoint | undefined;
}

/** The providers in use, and what the browser needs to know about them. */
export interface Payments {
  mode: PaymentsMode;
  /** Null in live mode when Stripe's keys are missing: card payments are unavailable. */
  card: CardProvider | null;
  /** Null in live mode when PayPal's keys are missing: PayPal is unavailable. */
  paypal: PayPalProvider | null;
  /** True when no provider charges real money (simulated mode, or test/sandbox keys). */
  testMode: boolean;
}

const set = (value: string | undefined): value is string => typeof value === 'string' && value.trim() !== '';

/** Whether a Supabase URL is a backend on this machine (the embedded local stack). */
export function isLoopbackUrl(url: string | undefined): boolean {
  if (!url) return true;
  try {
    const host = new URL(url).hostname;
    return host === '127.0.0.1' || host === 'localhost' || host === '[::1]' || host === '::1';
  } catch {
    return false;
  }
}

/**
 * The payment mode: PAYMENTS_MODE when it is set (anything but 'live' or 'simulated' is an
 * error), else simulated on the embedded local stack and live everywhere else.
 */
export function resolvePaymentsMode(explicit: string | undefined, supabaseUrl: string | undefined): PaymentsMode {
  const value = (explicit ?? '').trim().toLowerCase();
  if (value === 'live' || value === 'simulated') return value;
  if (value !== '') throw new Error(MODE.invalidMode(explicit));
  return isLoopbackUrl(supabaseUrl) ? 'simulated' : 'live';
}

/** What is missing for real Stripe (server secret, publishable key, webhook secret). */
export function stripeMissing(s: PaymentSettings): string[] {
  const missing: string[] = [];
  if (!set(s.stripeSecretKey)) missing.push('STRIPE_SECRET_KEY');
  if (!set(s.stripePublishableKey)) missing.push('PUBLIC_STRIPE_PUBLISHABLE_KEY');
  if (!set(s.stripeWebhookSecret)) missing.push('STRIPE_WEBHOOK_SECRET');
  return missing;
}

/** What is missing for real PayPal (client id and secret). */
export function paypalMissing(s: PaymentSettings): string[] {
  const missing: string[] = [];
  if (!set(s.paypalClientId)) missing.push('PUBLIC_PAYPAL_CLIENT_ID');
  if (!set(s.paypalClientSecret)) missing.push('PAYPAL_CLIENT_SECRET');
  return missing;
}

/** One line for the server log: the mode and, in live mode, what each provider lacks. */
export function describePayments(s: PaymentSettings): string {
  if (s.mode === 'simulated') return MODE.simulated;
  const stripe = stripeMissing(s);
  const paypal = paypalMissing(s);
  const part = (name: string, missing: string[]) => (missing.length === 0 ? MODE.providerActive(name) : MODE.providerMissing(name, missing.join(', ')));
  // PayPal works without its webhook, but a capture PayPal completes later (after PENDING) is then
  // found only by the sweeper, once the reservation ended, and refunded.
  const webhook = paypal.length === 0 && !set(s.paypalWebhookId) ? MODE.noPayPalWebhook : '';
  return MODE.live(part('Stripe', stripe), part('PayPal', paypal), webhook);
}

/** Builds the providers for the settings; `admin` is the service-role Supabase client. */
export function createPayments(settings: PaymentSettings, admin: SupabaseClient<Database>): Payments {
  if (settings.mode === 'simulated') {
    const store = databaseSimStore(admin);
    return { mode: 'simulated', card: new SimulatedCardProvider(store), paypal: new SimulatedPayPalProvider(store), testMode: true };
  }
  const card =
    stripeMissing(settings).length === 0 ? new StripeCardProvider(settings.stripeSecretKey!, settings.stripeWebhookSecret!, settings.stripeEndpoint) : null;
  const paypal =
    paypalMissing(settings).length === 0
      ? new PayPalRestProvider(
          settings.paypalClientId!,
          settings.paypalClientSecret!,
          settings.paypalApiBase || PAYPAL_LIVE_API,
          set(settings.paypalWebhookId) ? settings.paypalWebhookId.trim() : null,
        )
      : null;
  const stripeTest = !card || settings.stripeSecretKey!.startsWith('sk_test_');
  const paypalTest = !paypal || (settings.paypalApiBase ?? '').includes('sandbox');
  return { mode: 'live', card, paypal, testMode: stripeTest && paypalTest && (card !== null || paypal !== null) };
}

/** Where STRIPE_API_BASE points the Stripe SDK (a stub in the production check); undefined: Stripe. */
export function stripeEndpointFrom(base: string | undefined): StripeEndpoint | undefined {
  if (!set(base)) return undefined;
  const url = new URL(base);
  return {
    host: url.hostname,
    port: Number(url.port || (url.protocol === 'https:' ? 443 : 80)),
    protocol: url.protocol === 'http:' ? 'http' : 'https',
  };
}
