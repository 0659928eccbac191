/**
 * What the unit tests of the payment endpoints hand them: a ServerContext whose database is the
 * in-memory stand-in (tests/support/fake-supabase.ts: results queued per table or function) and
 * whose Auth knows one shopper by the token 'tok', the simulated providers on an in-memory store,
 * and requests as the browser sends them.
 */
import { vi } from 'vitest';
import type { ServerContext } from '~/server/context.ts';
import { memorySimStore } from '~/server/payments/providers/simulated-records.ts';
import { SimulatedCardProvider } from '~/server/payments/providers/simulated-card.ts';
import { SimulatedPayPalProvider } from '~/server/payments/providers/simulated-paypal.ts';
import { fakeSupabase, type Result } from '../../../support/fake-supabase.ts';

export const ORDER_ID = '0f8fad5b-d9cb-469f-a165-70867728950e';
export const SHOPPER = { id: 'u1', email: 'comprador@correo.test' };

/** The shopper's pending order as the orders table holds it (amounts in pesos). */
export function storedOrder(fields: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: ORDER_ID,
    user_id: SHOPPER.id,
    status: 'Pendiente',
    subtotal: '1299.00',
    discount: 0,
    shipping: 0,
    total: '1299.00',
    credit_applied: 0,
    paid_at: null,
    expires_at: new Date(Date.now() + 15 * 60_000).toISOString(),
    shipping_address_id: 'a1',
    shipping_address: null,
    payment_provider: null,
    payment_ref: null,
    payment_method: null,
    installments: null,
    oxxo_voucher: null,
    ...fields,
  };
}

/** One of the shopper's addresses, as requireShippingAddress reads it. */
export const ADDRESS = {
  label: 'Casa',
  street: 'Av. Reforma',
  exterior_number: '1',
  neighborhood: 'Juárez',
  municipality: 'Cuauhtémoc',
  city: 'CDMX',
  state: 'CDMX',
  zip: '06600',
  country: 'México',
  phone: '5512345678',
  user_id: SHOPPER.id,
};

export function simulatedPayments() {
  const store = memorySimStore();
  return { mode: 'simulated' as const, card: new SimulatedCardProvider(store), paypal: new SimulatedPayPalProvider(store), testMode: true };
}

export function endpointContext(results: Record<string, Result[]> = {}, payments: unknown = simulatedPayments()) {
  const fake = fakeSupabase(results);
  fake.auth.getUser.mockImplementation(async (token: string) =>
    token === 'tok' ? { data: { user: SHOPPER }, error: null } : { data: { user: null }, error: { message: 'invalid JWT' } },
  );
  const mail = vi.fn(async () => undefined);
  const ctx = { admin: fake.client, payments, mail, siteUrl: 'https://tienda.mx' } as unknown as ServerContext;
  return { ctx, calls: fake.calls, mail };
}

/** A POST with a JSON body, as the shopper's browser sends it (`token` null: signed out). */
export function post(path: string, body: unknown, token: string | null = 'tok'): Request {
  return new Request(`https://tienda.mx${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
}
