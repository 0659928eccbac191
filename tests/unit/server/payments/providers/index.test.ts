/**
 * The one place that picks the payment providers: the mode from PAYMENTS_MODE or the backend's
 * address, each live provider only with all of its keys, what the server log says, and where
 * STRIPE_API_BASE points the Stripe SDK.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { describe, expect, it } from 'vitest';
import type { Database } from '~/data/database.types.ts';
import {
  createPayments,
  describePayments,
  isLoopbackUrl,
  paypalMissing,
  resolvePaymentsMode,
  stripeEndpointFrom,
  stripeMissing,
  type PaymentSettings,
} from '~/server/payments/providers/index.ts';
import { PayPalRestProvider } from '~/server/payments/providers/paypal.ts';
import { SimulatedCardProvider } from '~/server/payments/providers/simulated-card.ts';
import { StripeCardProvider } from '~/server/payments/providers/stripe.ts';

const admin = {} as SupabaseClient<Database>;
const stripeKeys = { stripeSecretKey: 'sk_test_1', stripePublishableKey: 'pk_test_1', stripeWebhookSecret: 'whsec_1' };
const paypalKeys = { paypalClientId: 'id', paypalClientSecret: 'secreto' };

describe('the payment mode', () => {
  it('is PAYMENTS_MODE when set, in any case, and refuses any other value', () => {
    expect(resolvePaymentsMode(' LIVE ', 'http://127.0.0.1:54321')).toBe('live');
    expect(resolvePaymentsMode('simulated', 'https://proyecto.supabase.co')).toBe('simulated');
    expect(() => resolvePaymentsMode('prueba', undefined)).toThrow("PAYMENTS_MODE debe ser 'live' o 'simulated' (se recibió 'prueba').");
  });

  it('is simulated on a backend on this machine, live anywhere else', () => {
    expect(resolvePaymentsMode(undefined, 'http://localhost:54321')).toBe('simulated');
    expect(resolvePaymentsMode('', undefined)).toBe('simulated');
    expect(resolvePaymentsMode(undefined, 'https://proyecto.supabase.co')).toBe('live');
    expect(isLoopbackUrl('http://[::1]:54321')).toBe(true);
    expect(isLoopbackUrl('no es una URL')).toBe(false);
  });
});

describe('the providers', () => {
  it('are both simulated in simulated mode, whatever keys are set', () => {
    const payments = createPayments({ mode: 'simulated', ...stripeKeys }, admin);
    expect(payments.card).toBeInstanceOf(SimulatedCardProvider);
    expect(payments.paypal?.name).toBe('simulated-paypal');
    expect(payments.testMode).toBe(true);
  });

  it('are live only with all of their keys, and test mode only when no real money can move', () => {
    const stripeOnly = createPayments({ mode: 'live', ...stripeKeys, paypalClientId: 'id' }, admin);
    expect(stripeOnly.card).toBeInstanceOf(StripeCardProvider);
    expect(stripeOnly.paypal).toBeNull();
    expect(stripeOnly.testMode).toBe(true);
    const real = createPayments({ mode: 'live', ...stripeKeys, stripeSecretKey: 'sk_live_1', ...paypalKeys }, admin);
    expect(real.paypal).toBeInstanceOf(PayPalRestProvider);
    expect(real.testMode).toBe(false);
    const sandbox = createPayments({ mode: 'live', ...paypalKeys, paypalApiBase: 'https://api-m.sandbox.paypal.com' }, admin);
    expect(sandbox.card).toBeNull();
    expect(sandbox.testMode).toBe(true);
    expect(createPayments({ mode: 'live' }, admin)).toEqual({ mode: 'live', card: null, paypal: null, testMode: false });
  });

  it('name the keys each one lacks, blank ones included', () => {
    expect(stripeMissing({ mode: 'live', stripeSecretKey: ' ' })).toEqual(['STRIPE_SECRET_KEY', 'PUBLIC_STRIPE_PUBLISHABLE_KEY', 'STRIPE_WEBHOOK_SECRET']);
    expect(stripeMissing({ mode: 'live', ...stripeKeys })).toEqual([]);
    expect(paypalMissing({ mode: 'live', paypalClientId: 'id' })).toEqual(['PAYPAL_CLIENT_SECRET']);
  });
});

describe('describePayments', () => {
  it('says the mode and, in live mode, what each provider lacks and a missing PayPal webhook', () => {
    expect(describePayments({ mode: 'simulated' })).toMatch(/^pagos: modo simulated/);
    const settings: PaymentSettings = { mode: 'live', ...stripeKeys, ...paypalKeys };
    expect(describePayments(settings)).toBe('pagos: modo live; Stripe activo; PayPal activo sin webhook (falta PAYPAL_WEBHOOK_ID)');
    expect(describePayments({ ...settings, paypalWebhookId: 'WH-1' })).toBe('pagos: modo live; Stripe activo; PayPal activo');
    expect(describePayments({ mode: 'live', ...paypalKeys, paypalWebhookId: 'WH-1' })).toBe(
      'pagos: modo live; Stripe NO disponible (falta STRIPE_SECRET_KEY, PUBLIC_STRIPE_PUBLISHABLE_KEY, STRIPE_WEBHOOK_SECRET); PayPal activo',
    );
  });
});

describe('stripeEndpointFrom', () => {
  it("points the SDK at STRIPE_API_BASE's host, port and protocol, or at Stripe when it is not set", () => {
    expect(stripeEndpointFrom('http://127.0.0.1:12111')).toEqual({ host: '127.0.0.1', port: 12111, protocol: 'http' });
    expect(stripeEndpointFrom('https://stripe.test')).toEqual({ host: 'stripe.test', port: 443, protocol: 'https' });
    expect(stripeEndpointFrom('http://stub.test')).toEqual({ host: 'stub.test', port: 80, protocol: 'http' });
    expect(stripeEndpointFrom(undefined)).toBeUndefined();
    expect(stripeEndpointFrom('  ')).toBeUndefined();
  });
});
