/**
 * What the endpoints are given, and how the running shop builds it: the server context (the
 * service-role Supabase client, the payment providers of the payment mode, the mailer), the back
 * office's, which adds a client acting as the signed-in admin, and the rebuild endpoint's (the
 * rebuilds scripts/serve.mjs registered; RebuildContext is declared beside that endpoint). Built
 * once from the environment at run time (never frozen into the build, so one build serves any
 * configuration). Endpoints import only the types from here, so tests build their own contexts
 * without astro:env.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { getSecret, SITE_URL, SUPABASE_SERVICE_ROLE_KEY } from 'astro:env/server';
import { PUBLIC_SUPABASE_ANON_KEY, PUBLIC_SUPABASE_URL } from 'astro:env/client';
import type { Database } from '~/data/database.types.ts';
import type { PaymentsPublicConfig } from '~/domain/payments-config.ts';
import { API_CONTEXT_TEXT } from '~/i18n/api.ts';
import { ApiError } from './http/json.ts';
import { createOutbox } from './mail/outbox.ts';
import { mailTransportFor } from './mail/transport.ts';
import type { MailQueue } from './mail/types.ts';
import type { RebuildContext } from './admin/rebuild.ts';
import { registeredRebuilds } from './rebuild/registry.ts';
import { createPayments, describePayments, resolvePaymentsMode, stripeEndpointFrom, type Payments, type PaymentSettings } from './payments/providers/index.ts';
import { createAdminClient, createUserClient, projectUrl } from './supabase.ts';
import { createInvoicing } from './invoicing/index.ts';
import { invoiceAttachments } from './invoicing/attachments.ts';
import type { InvoiceProvider } from './invoicing/types.ts';

/** What every endpoint needs: the service-role client, the providers, the mailer. */
export interface ServerContext {
  admin: SupabaseClient<Database>;
  payments: Payments;
  /** Queues an e-mail: in the shop, the outbox (stored, sent in the background, retried). */
  mail: MailQueue;
  siteUrl: string;
  /** Issues the facturas (src/server/invoicing); absent or null: invoicing unavailable here. */
  invoicing?: InvoiceProvider | null;
}

/** The server context plus a database client that acts as a given signed-in user. */
export interface AdminContext extends ServerContext {
  asUser(token: string): SupabaseClient<Database>;
}

let context: ServerContext | null = null;
let cachedSettings: PaymentSettings | null = null;

/** The payment settings, read from the environment at run time (once per process). */
export function paymentSettings(): PaymentSettings {
  if (cachedSettings) return cachedSettings;
  const read = (key: string) => getSecret(key) ?? undefined;
  cachedSettings = {
    mode: resolvePaymentsMode(read('PAYMENTS_MODE'), projectUrl(PUBLIC_SUPABASE_URL)),
    stripeSecretKey: read('STRIPE_SECRET_KEY'),
    stripePublishableKey: read('PUBLIC_STRIPE_PUBLISHABLE_KEY'),
    stripeWebhookSecret: read('STRIPE_WEBHOOK_SECRET'),
    paypalClientId: read('PUBLIC_PAYPAL_CLIENT_ID'),
    paypalClientSecret: read('PAYPAL_CLIENT_SECRET'),
    // Not schema variables on purpose: only needed to point at PayPal's sandbox, or at a stub.
    paypalApiBase: read('PAYPAL_API_BASE'),
    paypalWebhookId: read('PAYPAL_WEBHOOK_ID'),
    stripeEndpoint: stripeEndpointFrom(read('STRIPE_API_BASE')),
  };
  return cachedSettings;
}

/** The shared server context; 503 when the service role key is not configured. */
export function serverContext(): ServerContext {
  if (context) return context;
  if (!SUPABASE_SERVICE_ROLE_KEY) {
    throw new ApiError(503, API_CONTEXT_TEXT.notConfigured, 'not_configured');
  }
  const url = projectUrl(PUBLIC_SUPABASE_URL);
  const admin = createAdminClient(url, SUPABASE_SERVICE_ROLE_KEY);
  const settings = paymentSettings();
  const invoicing = createInvoicing({
    paymentsMode: settings.mode,
    facturapiKey: getSecret('FACTURAPI_KEY'),
    facturapiApiBase: getSecret('FACTURAPI_API_BASE'),
    issuerZip: getSecret('FACTURAPI_ISSUER_ZIP'),
  });
  context = {
    admin,
    payments: createPayments(settings, admin),
    // SMTP when SMTP_URL and MAIL_FROM are set (read at run time), else the local mailbox. A
    // factura's PDF and XML are downloaded from its provider when its e-mail is sent.
    mail: createOutbox(
      admin,
      mailTransportFor({ smtpUrl: getSecret('SMTP_URL'), mailFrom: getSecret('MAIL_FROM'), supabaseUrl: url, serviceRoleKey: SUPABASE_SERVICE_ROLE_KEY }),
      { resolveAttachments: invoiceAttachments(admin, invoicing) },
    ),
    siteUrl: SITE_URL ?? 'http://localhost:4321',
    invoicing,
  };
  console.log(describePayments(settings));
  return context;
}

/** The browser's view of the payment configuration, from the running server's environment. */
export function paymentsPublicConfig(): PaymentsPublicConfig {
  const settings = paymentSettings();
  if (settings.mode === 'simulated') {
    return { mode: 'simulated', card: 'simulated', paypal: 'simulated', stripePublishableKey: null, paypalClientId: null, testMode: true };
  }
  const { payments } = serverContext();
  return {
    mode: 'live',
    card: payments.card ? 'stripe' : 'unavailable',
    paypal: payments.paypal ? 'paypal' : 'unavailable',
    stripePublishableKey: payments.card ? (settings.stripePublishableKey ?? null) : null,
    paypalClientId: payments.paypal ? (settings.paypalClientId ?? null) : null,
    testMode: payments.testMode,
  };
}

/** serverContext() plus asUser(token): the database sees the admin, and its RLS and grants decide. */
export function adminContext(): AdminContext {
  const base = serverContext();
  const url = projectUrl(PUBLIC_SUPABASE_URL);
  return {
    ...base,
    asUser: (token: string) => createUserClient(url, PUBLIC_SUPABASE_ANON_KEY, token),
  };
}

/**
 * The rebuild endpoints' context: service-role client and the registered rebuilds; the request
 * limit is the endpoint's default, counted in the database so it holds across the server processes.
 */
export function rebuildContext(): RebuildContext {
  const url = projectUrl(PUBLIC_SUPABASE_URL);
  const admin = SUPABASE_SERVICE_ROLE_KEY ? createAdminClient(url, SUPABASE_SERVICE_ROLE_KEY) : null;
  return { admin, rebuilds: registeredRebuilds() };
}
