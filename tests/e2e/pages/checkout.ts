import { expect as baseExpect, request as playwrightRequest, type Locator, type Page } from '@playwright/test';
import { AuthPage, createConfirmedUser, mailboxHeaders, serviceRest, stackKeys, STACK_URL } from './auth';

// Hydration and the local stack are slow on a busy 2-core machine.
const expect = baseExpect.configure({ timeout: 15_000 });

/** The checkout screens (/checkout/summary and /checkout/{orderId}). */
export class CheckoutPage {
  readonly main: Locator;
  readonly progress: Locator;
  readonly cartTable: Locator;
  readonly couponInput: Locator;
  readonly couponMessage: Locator;
  readonly continueButton: Locator;
  readonly total: Locator;

  constructor(readonly page: Page) {
    this.main = page.getByRole('main');
    this.progress = this.main.getByRole('navigation', { name: 'Progreso de la compra' });
    this.cartTable = this.main.getByRole('table');
    this.couponInput = this.main.getByRole('textbox', { name: 'Cupón de descuento' });
    this.couponMessage = this.main.locator('.coupon-message');
    this.continueButton = this.main.getByRole('button', { name: 'Continuar con el envío' });
    this.total = this.main.locator('.cart-totals [data-amount="total"]');
  }

  /** Opens the cart summary and waits for the island to hydrate. */
  async gotoSummary(): Promise<void> {
    await this.page.goto('/checkout/summary');
    await expect(this.progress).toContainText('Paso 1 de 4');
    await expect(this.page.locator('astro-island[component-url*="CheckoutApp"]')).not.toHaveAttribute('ssr', '');
  }

  /** The row of a product in the cart table. */
  row(productId: string): Locator {
    return this.main.locator(`tr[data-product-id="${productId}"]`);
  }

  /** Applies a coupon code through the coupon form. */
  async applyCoupon(code: string): Promise<void> {
    await this.couponInput.fill(code);
    await this.main.getByRole('button', { name: 'Aplicar' }).click();
  }

  /** The id in /checkout/{id} once the order exists. */
  async orderIdFromUrl(): Promise<string> {
    await this.page.waitForURL(/\/checkout\/[0-9a-f-]{36}$/);
    return new URL(this.page.url()).pathname.split('/').pop()!;
  }

  /**
   * Fills and saves the new-address form for México: the postal code first (a code the catalogue
   * does not know leaves every field to be typed), then the rest.
   */
  async fillAddress(
    address = { street: 'Av. Reforma', exterior: '222', neighborhood: 'Juárez', municipality: 'Cuauhtémoc', state: 'CDMX', zip: '99998', phone: '5512345678' },
  ): Promise<void> {
    const form = this.main.getByRole('form', { name: 'Nueva dirección' });
    await fillMexicanAddress(form, address);
    await form.getByRole('button', { name: 'Guardar dirección' }).click();
  }

  /** Fills the (simulated) card form and pays. */
  async payWithCard(number: string, { save = false, expiry = '12/34', cvc = '123' } = {}): Promise<void> {
    await this.main.getByLabel('Número de tarjeta').fill(number);
    await this.main.getByLabel('Vencimiento (MM/AA)').fill(expiry);
    await this.main.getByLabel('CVC').fill(cvc);
    if (save) await this.main.getByLabel('Guardar tarjeta').check();
    await this.main.getByRole('button', { name: /^Pagar \$/ }).click();
  }
}

/** The Mexican parts of an address form, by field. */
export type MexicanAddress = { street: string; exterior: string; neighborhood: string; municipality: string; state: string; zip: string; phone: string };

/**
 * Fills a Mexican address form: the postal code first; when the catalogue knows it, the colonia is
 * chosen from its list (or typed under 'Otra' when not listed), else typed.
 */
export async function fillMexicanAddress(form: Locator, address: MexicanAddress): Promise<void> {
  await form.getByLabel('Código Postal').fill(address.zip);
  // The lookup answers: the code's colonias, or that the catalogue does not know it.
  await expect(form.getByRole('status').filter({ hasText: /Encontramos|No encontramos/ })).toBeVisible();
  const list = form.getByRole('combobox', { name: 'Colonia' });
  if (await list.isVisible()) {
    const options = await list.locator('option').allTextContents();
    if (options.includes(address.neighborhood)) await list.selectOption({ label: address.neighborhood });
    else {
      await list.selectOption({ label: 'Otra' });
      await form.getByLabel('Nombre de la colonia').fill(address.neighborhood);
    }
  } else {
    await form.getByRole('textbox', { name: 'Colonia', exact: true }).fill(address.neighborhood);
  }
  await form.getByLabel('Estado', { exact: true }).fill(address.state);
  await form.getByLabel('Municipio o alcaldía').fill(address.municipality);
  await form.getByLabel('Calle', { exact: true }).fill(address.street);
  await form.getByLabel('Número exterior').fill(address.exterior);
  await form.getByLabel('Teléfono de contacto').fill(address.phone);
}

/** Adds a product from its page (quantity as given) and returns the toast. */
export async function addFromProductPage(page: Page, productId: string, quantity = 1): Promise<Locator> {
  await page.goto(`/product/${productId}`);
  const main = page.getByRole('main');
  await expect(main.locator('.stock')).toContainText('Disponibles');
  // The buy box hydrates on the first interaction, which the click itself triggers.
  for (let i = 1; i < quantity; i += 1) await main.getByRole('button', { name: 'Aumentar cantidad' }).click();
  await expect(main.getByRole('spinbutton', { name: 'Cantidad' })).toHaveValue(String(quantity));
  await main.getByRole('button', { name: 'Agregar al carrito' }).click();
  const toast = page.locator('.toast').filter({ hasText: 'Agregado al carrito' });
  await expect(toast).toBeVisible();
  return toast;
}

/** Signs in on /auth?next=… (the page returns to `next`). */
export async function signInFrom(page: Page, email: string, password: string): Promise<void> {
  const auth = new AuthPage(page);
  await auth.login(email, password);
}

/** An order as the database has it (service role). */
export async function orderInDb(orderId: string): Promise<{
  status: string;
  total: number;
  paid_at: string | null;
  subtotal: number;
  discount: number;
  shipping: number;
  shipping_address_id: string | null;
}> {
  const { body } = await serviceRest('GET', `orders?id=eq.${orderId}&select=status,total,paid_at,subtotal,discount,shipping,shipping_address_id`);
  return (body as Array<never>)[0]!;
}

/** The e-mails in the local mailbox for an address. */
export async function mailbox(to: string): Promise<Array<{ subject: string; text: string }>> {
  const api = await playwrightRequest.newContext();
  try {
    const response = await api.get(`${STACK_URL}/mailbox/api/messages?to=${encodeURIComponent(to)}`, { headers: await mailboxHeaders() });
    return (await response.json()) as Array<{ subject: string; text: string }>;
  } finally {
    await api.dispose();
  }
}

/** Puts a cart straight into localStorage (before any page script runs). */
export async function seedCart(page: Page, items: unknown[]): Promise<void> {
  await page.addInitScript((value) => {
    if (!sessionStorage.getItem('cart-seeded')) {
      localStorage.setItem('cart', value);
      sessionStorage.setItem('cart-seeded', '1');
    }
  }, JSON.stringify(items));
}

/** Formats pesos the way the shop shows them. */
export function mxn(pesos: number): string {
  return new Intl.NumberFormat('es-MX', { style: 'currency', currency: 'MXN', minimumFractionDigits: 2 }).format(pesos);
}

/**
 * A fresh shopper with a pending order (through create_order, as the browser) that ships to a new
 * address of theirs. Returns the credentials, the order id and the shopper's access token.
 */
export async function shopperWithOrder(
  productId = 'pk-blister-journey-together',
): Promise<{ email: string; password: string; orderId: string; token: string }> {
  const user = await createConfirmedUser('pedido');
  const { anonKey } = await stackKeys();
  const login = await fetch(`${STACK_URL}/auth/v1/token?grant_type=password`, {
    method: 'POST',
    headers: { apikey: anonKey, 'content-type': 'application/json' },
    body: JSON.stringify({ email: user.email, password: user.password }),
  });
  const token = ((await login.json()) as { access_token: string }).access_token;
  const rest = async (pathAndQuery: string, method: string, body: unknown) => {
    const res = await fetch(`${STACK_URL}/rest/v1/${pathAndQuery}`, {
      method,
      headers: { apikey: anonKey, authorization: `Bearer ${token}`, 'content-type': 'application/json', prefer: 'return=representation' },
      body: JSON.stringify(body),
    });
    expect(res.ok, await res.clone().text()).toBe(true);
    return res.json();
  };
  const [address] = (await rest('addresses', 'POST', {
    user_id: user.id,
    street: 'Insurgentes Sur',
    exterior_number: '1000',
    neighborhood: 'Del Valle Centro',
    municipality: 'Benito Juárez',
    phone: '5512345678',
    city: 'Ciudad de México',
    state: 'CDMX',
    zip: '03100',
    country: 'México',
  })) as Array<{ id: string }>;
  const orderId = (await rest('rpc/create_order', 'POST', { items: [{ product_id: productId, quantity: 1 }] })) as string;
  await rest(`orders?id=eq.${orderId}`, 'PATCH', { shipping_address_id: address!.id });
  return { email: user.email, password: user.password, orderId, token };
}
