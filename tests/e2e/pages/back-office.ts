import { expect, request as playwrightRequest, type Locator, type Page } from '@playwright/test';
import { STACK_URL, stackKeys } from './auth.ts';
import { shopperWithOrder } from './checkout.ts';

/** The back office at /admin: side navigation and the current section. */
export class BackOffice {
  readonly nav: Locator;
  readonly main: Locator;

  constructor(readonly page: Page) {
    this.nav = page.getByRole('navigation', { name: 'Administración' });
    this.main = page.getByRole('main');
  }

  /** Opens a back-office path and waits for the admin screen (its side navigation). */
  async goto(path = '/admin'): Promise<void> {
    await this.page.goto(path);
    await this.ready();
  }

  /**
   * Waits for the admin screen: the island draws its navigation once it knows the visitor is an
   * admin (session, then profile), which takes seconds on a loaded machine, e.g. while a build runs.
   */
  async ready(): Promise<void> {
    await expect(this.nav).toBeVisible({ timeout: 20_000 });
  }

  /** Opens an order's detail from the list, found by its '#XXXXXX' number. */
  async openOrder(orderId: string): Promise<Locator> {
    const number = orderNumber(orderId);
    await this.goto(`/admin/pedidos?q=${encodeURIComponent(number)}`);
    await this.main.getByRole('link', { name: number, exact: true }).click();
    const detail = this.main.getByTestId('admin-order-detail');
    await expect(detail.getByRole('heading', { level: 1, name: `Pedido ${number}` })).toBeVisible({ timeout: 15_000 });
    return detail;
  }
}

/** '#' + the last 6 characters of the id, upper-cased (what the shopper sees). */
export function orderNumber(orderId: string): string {
  return `#${orderId.slice(-6).toUpperCase()}`;
}

/**
 * A fresh shopper with a PAID order: created through create_order, paid with the simulated card
 * through the shop's own endpoints, as the browser would.
 */
export async function shopperWithPaidOrder(baseURL: string, productId = 'pk-blister-journey-together') {
  const shopper = await shopperWithOrder(productId);
  const api = await playwrightRequest.newContext({ baseURL });
  try {
    const headers = { Authorization: `Bearer ${shopper.token}` };
    const intent = await api.post('/api/create-payment-intent', { headers, data: { orderId: shopper.orderId } });
    expect(intent.ok(), await intent.text()).toBeTruthy();
    const { clientSecret } = (await intent.json()) as { clientSecret: string };
    const paid = await api.post('/api/payments/simulated/confirm', {
      headers,
      data: { clientSecret, card: { number: '4242424242424242', expMonth: 12, expYear: 2034, cvc: '123' }, save: false },
    });
    expect(paid.ok(), await paid.text()).toBeTruthy();
    expect(((await paid.json()) as { status: string }).status).toBe('succeeded');
  } finally {
    await api.dispose();
  }
  return shopper;
}

/** Subscribes an e-mail to the newsletter with the anon key (as the footer form does). */
export async function subscribe(email: string): Promise<void> {
  const { anonKey } = await stackKeys();
  const response = await fetch(`${STACK_URL}/rest/v1/newsletter_subscribers`, {
    method: 'POST',
    headers: { apikey: anonKey, Authorization: `Bearer ${anonKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ email }),
  });
  expect(response.ok, await response.text()).toBe(true);
}
