/**
 * The one place that picks the payment providers from the environment: Stripe and PayPal when
 * their keys are set, the simulated provider (records in the database, Stripe's test cards)
 * otherwise. Nothing else in the shop asks which one is in use.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { PayPalRestProvider, PAYPAL_LIVE_API } from './paypal.ts';
import { SimulatedCardProvider, SimulatedPayPalProvider } from './simulated.ts';
import { databaseSimStore } from './simulated-store.ts';
import { StripeCardProvider, type StripeEndpoint } from './stripe.ts';
import type { CardProvider, PayPalProvider } from './types.ts';

/** The payment settings read from the environment. */
export interface PaymentSettings {
  stripeSecretKey?: string | undefined;
  stripePublishableKey?: string | undefined;
  stripeWebhookSecret?: string | undefined;
  paypalClientId?: string | undefined;
  paypalClientSecret?: string | undefined;
  paypalApiBase?: string | undefined;
  /** Tests only: where the Stripe SDK sends requests. */
  stripeEndpoint?: StripeEndpoint | undefined;
}

/** The providers in use, and what the browser needs to know about them. */
export interface Payments {
  card: CardProvider;
  paypal: PayPalProvider;
  /** True when neither provider charges real money (simulated or test keys). */
  testMode: boolean;
}

const set = (value: string | undefined): value is string => typeof value === 'string' && value.trim() !== '';

/** Whether real Stripe is configured (server secret and publishable key). */
export function stripeConfigured(s: PaymentSettings): boolean {
  return set(s.stripeSecretKey) && set(s.stripePublishableKey);
}

/** Whether real PayPal is configured (client id and secret). */
export function paypalConfigured(s: PaymentSettings): boolean {
  return set(s.paypalClientId) && set(s.paypalClientSecret);
}

/** Builds the providers for the environment; `admin` is the service-role Supabase client. */
export function createPayments(settings: PaymentSettings, admin: SupabaseClient): Payments {
  const store = databaseSimStore(admin);
  const card: CardProvider = stripeConfigured(settings)
    ? new StripeCardProvider(settings.stripeSecretKey!, set(settings.stripeWebhookSecret) ? settings.stripeWebhookSecret : null, settings.stripeEndpoint)
    : new SimulatedCardProvider(store);
  const paypal: PayPalProvider = paypalConfigured(settings)
    ? new PayPalRestProvider(settings.paypalClientId!, settings.paypalClientSecret!, settings.paypalApiBase || PAYPAL_LIVE_API)
    : new SimulatedPayPalProvider(store);
  const stripeTest = card.name === 'simulated' || settings.stripeSecretKey!.startsWith('sk_test_');
  const paypalTest = paypal.name === 'simulated-paypal' || (settings.paypalApiBase ?? '').includes('sandbox');
  return { card, paypal, testMode: stripeTest && paypalTest };
}
