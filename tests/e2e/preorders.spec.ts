/**
 * Preorders on a 375 px phone: a product with no stock on the shelf in an open preorder campaign
 * shows its release date and the preorders left, a shopper adds it, chooses the waitlist at
 * checkout and pays with the simulated card; the Orders tab says it waits for the goods; the admin
 * registers the arrival in 'Preventas' (axe on the section) and the shopper's Orders tab turns to
 * 'Preventa asignada' without a reload.
 */
import AxeBuilder from '@axe-core/playwright';
import { test, expect as baseExpect, type Page } from './fixtures';
import { ADMIN, createConfirmedUser, serviceRest, signInAs, AuthPage } from './pages/auth.ts';
import { CheckoutPage } from './pages/checkout.ts';
import { PHONE } from './pages/phone.ts';

// Screens wait on the local stack, which answers slowly while other suites share the 2 cores.
const expect = baseExpect.configure({ timeout: 20_000 });

test.describe.configure({ timeout: 180_000 });
test.use({ viewport: PHONE });

const PRODUCT = 'pk-display-destined-rivals';

async function axeViolations(page: Page, selector: string): Promise<string[]> {
  const axe = await new AxeBuilder({ page }).include(selector).analyze();
  return axe.violations.map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

test('una preventa se paga con tarjeta, el admin registra la llegada y el cliente la ve asignada', async ({ page, browser }) => {
  // No units on the shelf: the campaign sells 10 preorders, at most 2 per shopper.
  await serviceRest('PATCH', `products?id=eq.${PRODUCT}`, { stock: 0 });
  const campaign = await serviceRest('POST', 'preorder_campaigns', {
    product_id: PRODUCT,
    release_date: '2027-02-12',
    opens_at: new Date(Date.now() - 3_600_000).toISOString(),
    closes_at: new Date(Date.now() + 86_400_000).toISOString(),
    allocation: 10,
    per_customer_limit: 2,
    per_order_limit: 2,
  });
  expect(campaign.status).toBeLessThan(300);
  const user = await createConfirmedUser('preventa');

  await page.goto(`/product/${PRODUCT}`);
  const main = page.getByRole('main');
  await expect(main.getByText('Preventa · Sale el 12 de febrero de 2027')).toBeVisible();
  await expect(main.getByText('Quedan 10 preventas')).toBeVisible();
  // The buy box counts the preorders left, not the empty shelf.
  await expect(main.locator('.stock')).toHaveText('Disponibles: 10');
  await main.getByRole('button', { name: 'Agregar al carrito' }).click();
  await expect(page.locator('.toast').filter({ hasText: 'Agregado al carrito' })).toBeVisible();

  const checkout = new CheckoutPage(page);
  await checkout.gotoSummary();
  await checkout.continueButton.click();
  await page.getByRole('main').getByRole('link', { name: 'Iniciar sesión' }).click();
  const auth = new AuthPage(page);
  await auth.login(user.email, user.password);
  await page.waitForURL((url) => url.pathname === '/checkout/summary');
  const waitlist = page.getByRole('checkbox', { name: 'Si no alcanza, mantenerme en lista de espera' });
  await expect(waitlist).toBeVisible();
  await waitlist.check();
  await checkout.continueButton.click();
  const orderId = await checkout.orderIdFromUrl();
  await checkout.fillAddress();
  await page.getByRole('button', { name: 'Usar esta dirección' }).click();
  await checkout.payWithCard('4242 4242 4242 4242');
  await expect(page.getByRole('heading', { name: 'Gracias por tu compra' })).toBeVisible();
  const { body: lines } = await serviceRest('GET', `preorder_lines?order_id=eq.${orderId}&select=quantity,waitlist,status`);
  expect(lines).toEqual([{ quantity: 1, waitlist: true, status: 'awaiting' }]);

  await page.goto('/account');
  await page.getByRole('tab', { name: 'Pedidos' }).click();
  const row = page.locator(`[data-order-id="${orderId}"]`);
  await expect(row.getByTestId('preorder-status')).toHaveText('Preventa: esperando llegada');

  // The admin, on another phone, registers the arrival of one unit.
  const adminContext = await browser.newContext({ viewport: PHONE });
  try {
    const admin = await adminContext.newPage();
    await signInAs(admin, ADMIN.email, ADMIN.password);
    await admin.goto('/admin/preventas');
    const section = admin.locator('section[aria-labelledby="adm-preorders-title"]');
    await expect(admin.getByRole('heading', { level: 1, name: 'Preventas' })).toBeVisible();
    const campaignRow = section.locator('tr', { hasText: 'Display de sobres Destined Rivals' });
    await expect(campaignRow).toBeVisible();
    expect(await axeViolations(admin, 'section[aria-labelledby="adm-preorders-title"]')).toEqual([]);
    await campaignRow.getByRole('button', { name: /^Registrar llegada de / }).click();
    const form = admin.getByRole('form', { name: /^Registrar llegada de / });
    await form.getByLabel('Unidades recibidas').fill('1');
    expect(await axeViolations(admin, 'section[aria-labelledby="adm-preorders-title"]')).toEqual([]);
    await form.getByRole('button', { name: 'Registrar', exact: true }).click();
    await expect(admin.getByRole('status').filter({ hasText: 'Llegada registrada: 1 pedido(s) surtido(s)' })).toBeVisible();
  } finally {
    await adminContext.close();
  }

  // The shopper's open Orders tab follows the change live.
  await expect(row.getByTestId('preorder-status')).toHaveText('Preventa asignada');
  expect((await serviceRest('GET', `preorder_lines?order_id=eq.${orderId}&select=status`)).body).toEqual([{ status: 'allocated' }]);
});

// A Riftbound preorder (seeded as one, release 29 January 2027) no other journey touches, in a
// listing of a few products: its champion decks.
const CARD_PREORDER = { id: 'rb-championdeck-unleashed-ahri', name: 'Champion Deck Ahri', stock: 18 };
const CHAMPION_DECKS = '/franchise/riftbound/product-types/rb-champion-deck/products';

test("a preorder's listing and /explore cards with an empty shelf read as a preorder, add within the campaign and say 'Agotado' once it closes", async ({
  page,
}) => {
  await serviceRest('PATCH', `products?id=eq.${CARD_PREORDER.id}`, { stock: 0 });
  const created = await serviceRest('POST', 'preorder_campaigns', {
    product_id: CARD_PREORDER.id,
    release_date: '2027-01-29',
    opens_at: new Date(Date.now() - 3_600_000).toISOString(),
    closes_at: new Date(Date.now() + 86_400_000).toISOString(),
    allocation: 2,
    per_customer_limit: 2,
    per_order_limit: 2,
  });
  expect(created.status).toBeLessThan(300);
  const campaignId = (created.body as Array<{ id: string }>)[0]!.id;
  try {
    const cardIn = (where: Page) =>
      where.locator('article.product-card').filter({ has: where.getByRole('heading', { name: CARD_PREORDER.name, exact: true }) });

    for (const address of [CHAMPION_DECKS, `/explore?q=${encodeURIComponent(CARD_PREORDER.name)}`]) {
      await page.goto(address);
      const card = cardIn(page);
      await expect(card.getByText('Preventa · Sale el 29 de enero de 2027')).toBeVisible();
      const add = card.getByRole('button', { name: `Agregar ${CARD_PREORDER.name} al carrito` });
      await expect(add).toBeEnabled();
      await expect(add).toHaveText('Agregar');
      await expect(card.getByText('Agotado')).toHaveCount(0);
      // The card carries the units the campaign still allows, so the cart holds no more than 2.
      await add.click();
      await expect(page.locator('.toast').filter({ hasText: 'Agregado al carrito' }).first()).toBeVisible();
    }
    await cardIn(page)
      .getByRole('button', { name: `Agregar ${CARD_PREORDER.name} al carrito` })
      .click();
    const cart = await page.evaluate(() => localStorage.getItem('cart') ?? '');
    const line = (JSON.parse(cart || '[]') as Array<{ id: string; quantity: number }>).find((item) => item.id === CARD_PREORDER.id);
    expect(line?.quantity).toBe(2);
    expect(await axeViolations(page, 'article.product-card')).toEqual([]);

    // The campaign closed: the empty shelf says 'Agotado' on the listing and /explore.
    await serviceRest('PATCH', `preorder_campaigns?id=eq.${campaignId}`, { closes_at: new Date(Date.now() - 60_000).toISOString() });
    for (const address of [CHAMPION_DECKS, `/explore?q=${encodeURIComponent(CARD_PREORDER.name)}`]) {
      await page.goto(address);
      const card = cardIn(page);
      const soldOut = card.getByRole('button', { name: `Agregar ${CARD_PREORDER.name} al carrito` });
      await expect(soldOut).toHaveText('Agotado');
      await expect(soldOut).toBeDisabled();
    }
  } finally {
    await serviceRest('DELETE', `preorder_campaigns?id=eq.${campaignId}`);
    await serviceRest('PATCH', `products?id=eq.${CARD_PREORDER.id}`, { stock: CARD_PREORDER.stock });
  }
});

/** A datetime-local value in Mexico City time, `offsetMs` from now. */
function mexicoCityLocal(offsetMs: number): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-CA', {
      timeZone: 'America/Mexico_City',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(new Date(Date.now() + offsetMs))
      .map((part) => [part.type, part.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}`;
}

test("a single's offer as a preorder: the admin chooses the copy in Preventas, the card's page offers it as 'Preventa · Sale el …' and checkout orders it as a preorder line", async ({
  page,
  browser,
}) => {
  // A Pokémon single's copy, its shelf emptied for the test.
  const { body } = await serviceRest(
    'GET',
    'card_offers?select=id,product_id,stock&product_id=like.pk-single-*&grading_company=is.null&order=product_id.desc,id.asc&limit=1',
  );
  const [offer] = body as Array<{ id: string; product_id: string; stock: number }>;
  expect(offer, 'a raw copy of a Pokémon single in the seed').toBeDefined();
  await serviceRest('PATCH', `card_offers?id=eq.${offer!.id}`, { stock: 0 });
  let label = '';
  try {
    const adminContext = await browser.newContext({ viewport: PHONE });
    try {
      const admin = await adminContext.newPage();
      await signInAs(admin, ADMIN.email, ADMIN.password);
      await admin.goto('/admin/preventas');
      await admin.getByRole('button', { name: 'Nueva preventa' }).click();
      const form = admin.getByRole('form', { name: 'Nueva preventa' });
      await form.getByLabel('Clave del producto').fill(offer!.product_id);
      const copy = form.getByLabel('Oferta de la carta (solo para cartas individuales)');
      await expect(copy.locator(`option[value="${offer!.id}"]`)).toHaveCount(1);
      await copy.selectOption(offer!.id);
      label = (await copy.locator(`option[value="${offer!.id}"]`).textContent())!.trim();
      await form.getByLabel('Fecha de lanzamiento').fill('2027-03-05');
      await form.getByLabel('Abre (hora del centro de México)').fill(mexicoCityLocal(-3_600_000));
      await form.getByLabel('Cierra (hora del centro de México)').fill(mexicoCityLocal(86_400_000));
      await form.getByLabel('Asignación esperada (0 = sin límite)').fill('5');
      await form.getByLabel('Límite por cliente').fill('2');
      await form.getByLabel('Límite por pedido').fill('2');
      expect(await axeViolations(admin, 'section[aria-labelledby="adm-preorders-title"]')).toEqual([]);
      await form.getByRole('button', { name: 'Guardar preventa' }).click();
      await expect(form).toHaveCount(0);
    } finally {
      await adminContext.close();
    }
    const saved = await serviceRest('GET', `preorder_campaigns?offer_id=eq.${offer!.id}&select=product_id,release_date,allocation`);
    expect(saved.body).toEqual([{ product_id: offer!.product_id, release_date: '2027-03-05', allocation: 5 }]);

    // The card's page wakes its offer picker: the copy is a preorder with the campaign's units.
    await page.goto(`/product/${offer!.product_id}`);
    const main = page.getByRole('main');
    const option = main.locator('.offer-option').filter({ has: page.locator('.offer-name', { hasText: label }) });
    await expect(option.getByText('Preventa · Sale el 5 de marzo de 2027')).toBeVisible();
    await expect(option.getByText('Disponibles: 2')).toBeVisible();
    await option.getByRole('radio').check();
    await main.getByRole('button', { name: 'Agregar al carrito' }).click();
    await expect(page.locator('.toast').filter({ hasText: 'Agregado al carrito' })).toBeVisible();
    expect(await axeViolations(page, '.offer-box')).toEqual([]);

    // Checkout treats its line as a preorder's: the waitlist choice, then a preorder line.
    const user = await createConfirmedUser('preventa-carta');
    await signInAs(page, user.email, user.password);
    const checkout = new CheckoutPage(page);
    await checkout.gotoSummary();
    const waitlist = page.getByRole('checkbox', { name: 'Si no alcanza, mantenerme en lista de espera' });
    await expect(waitlist).toBeVisible();
    await waitlist.check();
    await checkout.continueButton.click();
    const orderId = await checkout.orderIdFromUrl();
    const { body: lines } = await serviceRest('GET', `preorder_lines?order_id=eq.${orderId}&select=offer_id,quantity,waitlist,status`);
    expect(lines).toEqual([{ offer_id: offer!.id, quantity: 1, waitlist: true, status: 'awaiting' }]);
    await checkout.fillAddress();
    await page.getByRole('button', { name: 'Usar esta dirección' }).click();
    await checkout.payWithCard('4242 4242 4242 4242');
    await expect(page.getByRole('heading', { name: 'Gracias por tu compra' })).toBeVisible();

    // The Orders tab follows the copy's preorder: waiting, then filled when the admin registers its arrival.
    await page.goto('/account');
    await page.getByRole('tab', { name: 'Pedidos' }).click();
    const row = page.locator(`[data-order-id="${orderId}"]`);
    await expect(row.getByTestId('preorder-status')).toHaveText('Preventa: esperando llegada');
    const { body: named } = await serviceRest('GET', `products?id=eq.${offer!.product_id}&select=name`);
    const productName = (named as Array<{ name: string }>)[0]!.name;
    const arrivalContext = await browser.newContext({ viewport: PHONE });
    try {
      const admin = await arrivalContext.newPage();
      await signInAs(admin, ADMIN.email, ADMIN.password);
      await admin.goto('/admin/preventas');
      const section = admin.locator('section[aria-labelledby="adm-preorders-title"]');
      const campaignRow = section.locator('tr', { hasText: productName });
      await campaignRow.getByRole('button', { name: /^Registrar llegada de / }).click();
      const form = admin.getByRole('form', { name: /^Registrar llegada de / });
      await form.getByLabel('Unidades recibidas').fill('1');
      await form.getByRole('button', { name: 'Registrar', exact: true }).click();
      await expect(admin.getByRole('status').filter({ hasText: 'Llegada registrada: 1 pedido(s) surtido(s)' })).toBeVisible();
    } finally {
      await arrivalContext.close();
    }
    await expect(row.getByTestId('preorder-status')).toHaveText('Preventa asignada');
    expect((await serviceRest('GET', `preorder_lines?order_id=eq.${orderId}&select=status`)).body).toEqual([{ status: 'allocated' }]);
  } finally {
    await serviceRest('DELETE', `preorder_campaigns?offer_id=eq.${offer!.id}`);
    await serviceRest('PATCH', `card_offers?id=eq.${offer!.id}`, { stock: offer!.stock });
  }
});

test("a single shown sold out whose copy is a preorder now reads 'Preventa' with 'Elegir' on its card, not 'Agotado'", async ({ page, request }) => {
  await page.setViewportSize(PHONE);
  // A Riftbound single (other tests count Pokémon's and One Piece's stock) whose name no other
  // product has, with a raw copy to sell ahead; its shelf is emptied for the test.
  const { body } = await serviceRest(
    'GET',
    'products?select=id,name,card_offers(id,stock,grading_company)&product_type_id=eq.rb-single-card&order=id.asc&limit=50',
  );
  const candidates = body as Array<{ id: string; name: string; card_offers: Array<{ id: string; stock: number; grading_company: string | null }> }>;
  let single: (typeof candidates)[number] | undefined;
  for (const candidate of candidates) {
    if (!candidate.card_offers.some((o) => o.grading_company === null)) continue;
    const { body: same } = await serviceRest('GET', `products?select=id&name=ilike.*${encodeURIComponent(candidate.name)}*`);
    if ((same as unknown[]).length === 1) {
      single = candidate;
      break;
    }
  }
  expect(single, 'a Riftbound single with a name of its own and a raw copy').toBeDefined();
  const offer = single!.card_offers.find((o) => o.grading_company === null)!;
  // /explore's page shows the search's answer (/explore/resultados, polled over HTTP below).
  const results = `/explore/resultados?q=${encodeURIComponent(single!.name)}`;
  const address = `/explore?q=${encodeURIComponent(single!.name)}`;
  const card = page.locator(`article[data-single-preorder="${single!.id}"]`);
  try {
    for (const copy of single!.card_offers) await serviceRest('PATCH', `card_offers?id=eq.${copy.id}`, { stock: 0 });
    // The search's server follows stock changes within seconds: the card is made sold out.
    await expect
      .poll(async () => (await (await request.get(results)).text()).includes(`data-single-preorder="${single!.id}"`), { timeout: 20_000, intervals: [500] })
      .toBe(true);

    // No campaign: the card stays 'Agotado' once the page has asked.
    let asked = page.waitForResponse((res) => res.url().endsWith('/rest/v1/rpc/preorder_open_offers'));
    await page.goto(address);
    expect((await asked).ok()).toBe(true);
    await expect(card.locator('.product-card-overlay')).toHaveText('Agotado');
    await expect(card.getByRole('button', { name: /Agregar/ })).toBeDisabled();
    await expect(card.getByRole('link', { name: /^Elegir/ })).toBeHidden();

    const campaign = await serviceRest('POST', 'preorder_campaigns', {
      product_id: single!.id,
      offer_id: offer.id,
      release_date: '2027-03-05',
      opens_at: new Date(Date.now() - 3_600_000).toISOString(),
      closes_at: new Date(Date.now() + 86_400_000).toISOString(),
      allocation: 5,
      per_customer_limit: 1,
      per_order_limit: 1,
    });
    expect(campaign.status).toBeLessThan(300);
    await page.goto(address);
    const choose = card.getByRole('link', { name: /^Elegir/ });
    await expect(choose).toBeVisible();
    await expect(card.getByText('Preventa', { exact: true })).toBeVisible();
    await expect(card.locator('.product-card-overlay')).toHaveCount(0);
    await expect(card.getByRole('button', { name: /Agregar/ })).toBeHidden();
    expect(await axeViolations(page, `article[data-single-preorder="${single!.id}"]`)).toEqual([]);
    await choose.click();
    await page.waitForURL((url) => url.pathname === `/product/${single!.id}`);
    await expect(page.getByRole('main').getByText('Preventa · Sale el 5 de marzo de 2027')).toBeVisible();

    // A closed campaign sells nothing more: the card says 'Agotado' again.
    await serviceRest('PATCH', `preorder_campaigns?offer_id=eq.${offer.id}`, {
      opens_at: new Date(Date.now() - 7_200_000).toISOString(),
      closes_at: new Date(Date.now() - 1_000).toISOString(),
    });
    asked = page.waitForResponse((res) => res.url().endsWith('/rest/v1/rpc/preorder_open_offers'));
    await page.goto(address);
    expect((await asked).ok()).toBe(true);
    await expect(card.locator('.product-card-overlay')).toHaveText('Agotado');
    await expect(card.getByRole('link', { name: /^Elegir/ })).toBeHidden();
  } finally {
    await serviceRest('DELETE', `preorder_campaigns?offer_id=eq.${offer.id}`);
    for (const copy of single!.card_offers) await serviceRest('PATCH', `card_offers?id=eq.${copy.id}`, { stock: copy.stock });
  }
});
