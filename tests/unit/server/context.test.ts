/**
 * The contexts the running shop gives its endpoints, built from the environment at run time: the
 * payment mode and providers it selects, what the checkout page is told, and the refusal when
 * the service role key is missing. Each case reads a fresh copy of the module (it keeps what it
 * built for the life of the process) with the environment stood in for astro:env.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '~/server/http/json.ts';

const env = vi.hoisted(() => ({
  url: undefined as string | undefined,
  anonKey: 'anon-key' as string | undefined,
  serviceKey: undefined as string | undefined,
  siteUrl: undefined as string | undefined,
  secrets: {} as Record<string, string>,
}));
vi.mock('astro:env/client', () => ({
  get PUBLIC_SUPABASE_URL() {
    return env.url;
  },
  get PUBLIC_SUPABASE_ANON_KEY() {
    return env.anonKey;
  },
}));
vi.mock('astro:env/server', () => ({
  getSecret: (key: string) => env.secrets[key],
  get SUPABASE_SERVICE_ROLE_KEY() {
    return env.serviceKey;
  },
  get SITE_URL() {
    return env.siteUrl;
  },
}));

async function freshContext(settings: Partial<typeof env>) {
  Object.assign(env, { url: undefined, serviceKey: undefined, siteUrl: undefined, secrets: {} }, settings);
  vi.resetModules();
  return import('~/server/context.ts');
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('serverContext', () => {
  it('answers 503 without the service role key', async () => {
    const { serverContext } = await freshContext({ url: 'https://proyecto.supabase.co' });
    const error = (() => {
      try {
        serverContext();
      } catch (e) {
        return e;
      }
    })();
    // The module was read afresh, and with it its own ApiError class.
    expect((error as Error).constructor.name).toBe(ApiError.name);
    expect(error).toMatchObject({ status: 503, code: 'not_configured' });
  });

  it('on the local stack: simulated payments, the default site address, one context for the process', async () => {
    vi.spyOn(console, 'log').mockImplementation(() => undefined);
    const { serverContext, paymentsPublicConfig } = await freshContext({ serviceKey: 'service-key' });
    const context = serverContext();
    expect(context.payments.mode).toBe('simulated');
    expect(context.siteUrl).toBe('http://localhost:4321');
    expect(serverContext()).toBe(context);
    expect(paymentsPublicConfig()).toEqual({
      mode: 'simulated',
      card: 'simulated',
      paypal: 'simulated',
      stripePublishableKey: null,
      paypalClientId: null,
      testMode: true,
    });
  });

  it('on a hosted project: live payments, each provider only with all of its keys, and only public keys for the browser', async () => {
    const log = vi.spyOn(console, 'log').mockImplementation(() => undefined);
    const { paymentsPublicConfig, paymentSettings } = await freshContext({
      url: 'https://proyecto.supabase.co',
      serviceKey: 'service-key',
      siteUrl: 'https://tienda.mx',
      secrets: {
        STRIPE_SECRET_KEY: 'sk_test_1',
        PUBLIC_STRIPE_PUBLISHABLE_KEY: 'pk_test_1',
        STRIPE_WEBHOOK_SECRET: 'whsec_1',
        PUBLIC_PAYPAL_CLIENT_ID: 'paypal-id',
      },
    });
    expect(paymentSettings().mode).toBe('live');
    expect(paymentsPublicConfig()).toEqual({
      mode: 'live',
      card: 'stripe',
      paypal: 'unavailable',
      stripePublishableKey: 'pk_test_1',
      paypalClientId: null,
      testMode: true,
    });
    expect(log.mock.calls.flat().join('\n')).toMatch(/PayPal NO disponible \(falta PAYPAL_CLIENT_SECRET\)/);
  });

  it('refuses a PAYMENTS_MODE it does not know', async () => {
    const { paymentSettings } = await freshContext({ serviceKey: 'k', secrets: { PAYMENTS_MODE: 'gratis' } });
    expect(() => paymentSettings()).toThrow(/PAYMENTS_MODE/);
  });
});

describe('adminContext and rebuildContext', () => {
  it("adds a client acting as the admin's token, on the project's URL", async () => {
    vi.spyOn(console, 'log').mockImplementation(() => undefined);
    const { adminContext, serverContext } = await freshContext({ url: 'http://127.0.0.1:54321/', serviceKey: 'service-key' });
    const context = adminContext();
    expect(context.admin).toBe(serverContext().admin);
    const fetchMock = vi.fn<typeof fetch>().mockResolvedValue(new Response('[]', { status: 200, headers: { 'content-type': 'application/json' } }));
    vi.stubGlobal('fetch', fetchMock);
    try {
      await context.asUser('token-del-admin').from('profiles').select('id');
    } finally {
      vi.unstubAllGlobals();
    }
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(String(url)).toMatch(/^http:\/\/127\.0\.0\.1:54321\/rest\/v1\/profiles\?select=id/);
    expect(new Headers(init?.headers).get('authorization')).toBe('Bearer token-del-admin');
    expect(new Headers(init?.headers).get('apikey')).toBe('anon-key');
  });

  it('has no database client for the rebuilds without the service role key', async () => {
    const { rebuildContext } = await freshContext({});
    expect(rebuildContext().admin).toBeNull();
    const withKey = await freshContext({ serviceKey: 'service-key' });
    expect(withKey.rebuildContext().admin).not.toBeNull();
  });
});
