/**
 * The server context of the running shop, built once from astro:env: the service-role Supabase
 * client, the payment providers the environment selects, and the mailer.
 */
import {
  getSecret,
  PAYPAL_CLIENT_SECRET,
  SITE_URL,
  STRIPE_SECRET_KEY,
  STRIPE_WEBHOOK_SECRET,
  SUPABASE_SERVICE_ROLE_KEY,
} from 'astro:env/server';
import { PUBLIC_PAYPAL_CLIENT_ID, PUBLIC_STRIPE_PUBLISHABLE_KEY, PUBLIC_SUPABASE_URL } from 'astro:env/client';
import type { ServerContext } from './checkout.ts';
import { ApiError } from './http.ts';
import { createOutbox, mailTransportFor } from './mail.ts';
import { createPayments, paypalConfigured, stripeConfigured, type PaymentSettings } from './payments/index.ts';
import { createAdminClient } from './supabase-admin.ts';

const LOCAL_URL = 'http://127.0.0.1:54321';

let context: ServerContext | null = null;

function settings(): PaymentSettings {
  return {
    stripeSecretKey: STRIPE_SECRET_KEY,
    stripePublishableKey: PUBLIC_STRIPE_PUBLISHABLE_KEY,
    stripeWebhookSecret: STRIPE_WEBHOOK_SECRET,
    paypalClientId: PUBLIC_PAYPAL_CLIENT_ID,
    paypalClientSecret: PAYPAL_CLIENT_SECRET,
    // Not an astro:env variable on purpose: only needed to point at PayPal's sandbox.
    paypalApiBase: process.env.PAYPAL_API_BASE,
  };
}

/** The shared server context; 503 when the service role key is not configured. */
export function serverContext(): ServerContext {
  if (context) return context;
  if (!SUPABASE_SERVICE_ROLE_KEY) {
    throw new ApiError(503, 'Los pagos no están configurados en este servidor (falta SUPABASE_SERVICE_ROLE_KEY).', 'not_configured');
  }
  const url = (PUBLIC_SUPABASE_URL ?? LOCAL_URL).replace(/\/+$/, '');
  const admin = createAdminClient(url, SUPABASE_SERVICE_ROLE_KEY);
  context = {
    admin,
    payments: createPayments(settings(), admin),
    // SMTP when SMTP_URL and MAIL_FROM are set (read at run time), else the local mailbox.
    mail: createOutbox(
      admin,
      mailTransportFor({ smtpUrl: getSecret('SMTP_URL'), mailFrom: getSecret('MAIL_FROM'), supabaseUrl: url, serviceRoleKey: SUPABASE_SERVICE_ROLE_KEY }),
    ),
    siteUrl: SITE_URL ?? 'http://localhost:4321',
  };
  return context;
}

/** What the checkout page tells the browser about payments (no secrets). */
export interface PaymentsPublicConfig {
  card: 'stripe' | 'simulated';
  paypal: 'paypal' | 'simulated';
  stripePublishableKey: string | null;
  paypalClientId: string | null;
  testMode: boolean;
}

/** The browser's view of the payment configuration. */
export function paymentsPublicConfig(): PaymentsPublicConfig {
  const s = settings();
  const stripe = stripeConfigured(s);
  const paypal = paypalConfigured(s);
  const stripeTest = !stripe || (s.stripeSecretKey ?? '').startsWith('sk_test_');
  const paypalTest = !paypal || (s.paypalApiBase ?? '').includes('sandbox');
  return {
    card: stripe ? 'stripe' : 'simulated',
    paypal: paypal ? 'paypal' : 'simulated',
    stripePublishableKey: stripe ? (s.stripePublishableKey ?? null) : null,
    paypalClientId: paypal ? (s.paypalClientId ?? null) : null,
    testMode: stripeTest && paypalTest,
  };
}
