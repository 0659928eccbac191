/**
 * A single card bought on a 375 px phone: found by typing 'OP05-119' in the header search,
 * 'LP · Inglés · Parallel' of OP05-119 chosen on its page
 * is its own cart line (a second copy of the same card in another condition is a second line, each
 * with its own buttons), the demo shopper pays it with the simulated card, and the confirmation,
 * the receipt e-mail and the account's Orders tab show the offer's label; the database priced the
 * line at the offer's price and took the unit from the offer's stock. A line stored at a stale
 * price takes its offer's live price, with a notice naming the offer.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect as baseExpect, test, type Page } from './fixtures';
import { AccountPage } from './pages/account';
import { AuthPage, serviceRest, SHOPPER } from './pages/auth';
import { CheckoutPage, mailbox, mxn, orderInDb, seedCart } from './pages/checkout';
import { PHONE } from './pages/phone';

// The checkout hydrates and talks to the local stack; on a busy 2-core machine that takes a while.
const expect = baseExpect.configure({ timeout: 15_000 });

test.use({ viewport: PHONE });

// Demo singles (supabase/seed.sql, scripts/seed/cards.ts FIXED_OFFERS): OP05-119 has LP · Inglés ·
// Parallel at $3,849 (3 left) and NM · Inglés · Parallel at $4,749 (2 left).
const LUFFY = { id: 'op-single-op-05-monkey-d-luffy-op05-119', name: 'Monkey.D.Luffy (OP05-119)' };
const LP = 'LP · Inglés · Parallel';
const NM = 'NM · Inglés · Parallel';

interface OfferRow {
  id: string;
  price: number;
  stock: number;
}

/** One offer of OP05-119 as the local stack has it. */
async function luffyOffer(condition: string, language: string, finish: string): Promise<OfferRow> {
  const { body } = await serviceRest(
    'GET',
    `card_offers?product_id=eq.${LUFFY.id}&condition=eq.${condition}&language=eq.${language}&finish=eq.${finish}&select=id,price,stock`,
  );
  const [row] = body as OfferRow[];
  if (!row) throw new Error(`sin la oferta ${condition} ${language} ${finish} de ${LUFFY.id}`);
  return { id: row.id, price: Number(row.price), stock: row.stock };
}

/** The cart as the browser keeps it. */
async function storedCart(page: Page): Promise<Array<Record<string, unknown>>> {
  return page.evaluate(() => JSON.parse(localStorage.getItem('cart') ?? '[]') as Array<Record<string, unknown>>);
}

/** Chooses a copy in the offer picker of the card's page and adds it to the cart. */
async function addCopy(page: Page, label: string, linesAfter: number): Promise<void> {
  const main = page.getByRole('main');
  await main.getByRole('radio', { name: new RegExp(`^${label}`) }).click();
  await expect(main.getByText(`Opción elegida: ${label}`)).toBeVisible();
  await main.getByRole('button', { name: 'Agregar al carrito' }).click();
  await expect.poll(async () => (await storedCart(page)).length).toBe(linesAfter);
}

/** A cart line as the product page stores it. */
function cartLine(offer: OfferRow, label: string, priceCentavos: number) {
  return { id: LUFFY.id, name: LUFFY.name, priceCentavos, quantity: 1, stock: offer.stock, image: '', offerId: offer.id, offerLabel: label };
}

async function axe(page: Page) {
  const results = await new AxeBuilder({ page }).include('main').analyze();
  expect(results.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.length})`)).toEqual([]);
}

test('OP05-119 found by the header search, LP · Inglés · Parallel chosen on its page is its own cart line, and the paid order shows it everywhere', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const lp = await luffyOffer('LP', 'en', 'parallel');
  const nm = await luffyOffer('NM', 'en', 'parallel');

  // Found by its collector number in the header search, typed as the shopper lands.
  await page.goto('/', { waitUntil: 'commit' });
  const search = page.getByRole('banner').getByRole('combobox', { name: 'Buscar productos' });
  await search.pressSequentially('OP05-119');
  const suggestion = page.getByRole('listbox', { name: 'Productos sugeridos' }).getByRole('option').first();
  await expect(suggestion).toHaveText(LUFFY.name);
  await suggestion.click();
  await page.waitForURL(`**/product/${LUFFY.id}`);
  await addCopy(page, LP, 1);
  await addCopy(page, NM, 2);
  expect(await storedCart(page)).toEqual([
    expect.objectContaining({ id: LUFFY.id, offerId: lp.id, offerLabel: LP, priceCentavos: lp.price * 100, quantity: 1 }),
    expect.objectContaining({ id: LUFFY.id, offerId: nm.id, offerLabel: NM, priceCentavos: nm.price * 100, quantity: 1 }),
  ]);

  await page.goto('/auth?next=/checkout/summary');
  await new AuthPage(page).login(SHOPPER.email, SHOPPER.password);
  await page.waitForURL((url) => url.pathname === '/checkout/summary');
  const checkout = new CheckoutPage(page);

  // Two offers of one card are two lines, each with its label under the name.
  const rows = checkout.row(LUFFY.id);
  await expect(rows).toHaveCount(2);
  const lpRow = checkout.main.locator(`tr[data-offer-id="${lp.id}"]`);
  const nmRow = checkout.main.locator(`tr[data-offer-id="${nm.id}"]`);
  await expect(lpRow.getByRole('rowheader')).toHaveText(`${LUFFY.name}${LP}`);
  await expect(nmRow.getByRole('rowheader')).toHaveText(`${LUFFY.name}${NM}`);
  await expect(lpRow).toContainText(mxn(lp.price));
  await expect(nmRow).toContainText(mxn(nm.price));

  // Each line's buttons name its offer, and act on that line only.
  await page.getByRole('button', { name: `Agregar uno de ${LUFFY.name}, ${LP}` }).click();
  await expect(page.getByRole('status', { name: `Cantidad de ${LUFFY.name}, ${LP}` })).toHaveText('2');
  await expect(page.getByRole('status', { name: `Cantidad de ${LUFFY.name}, ${NM}` })).toHaveText('1');
  await page.getByRole('button', { name: `Quitar uno de ${LUFFY.name}, ${LP}` }).click();
  await expect(page.getByRole('status', { name: `Cantidad de ${LUFFY.name}, ${LP}` })).toHaveText('1');
  await page.getByRole('button', { name: `Eliminar ${LUFFY.name}, ${NM}` }).click();
  await expect(rows).toHaveCount(1);
  await expect(lpRow).toBeVisible();
  await expect(page.locator('[data-amount="subtotal"]')).toHaveText(mxn(lp.price));
  await axe(page);

  // The demo shopper ships to the saved default address and pays with the test card.
  await checkout.continueButton.click();
  const orderId = await checkout.orderIdFromUrl();
  await page.getByRole('button', { name: 'Usar esta dirección' }).click();
  await expect(page.getByRole('heading', { name: 'Confirmar tu pago' })).toBeVisible();
  await checkout.payWithCard('4242 4242 4242 4242');
  await expect(page.getByRole('heading', { name: 'Gracias por tu compra' })).toBeVisible();
  const confirmed = page.locator('.order-lines li').filter({ hasText: LUFFY.name });
  await expect(confirmed).toHaveCount(1);
  await expect(confirmed).toContainText(LP);
  await expect(confirmed).toContainText(mxn(lp.price));
  await axe(page);

  // The database priced the line at the offer and took the unit from the offer's stock.
  const row = await orderInDb(orderId);
  expect(row.status).toBe('Pagado');
  expect(Number(row.subtotal)).toBe(lp.price);
  const { body: items } = await serviceRest('GET', `order_items?order_id=eq.${orderId}&select=offer_id,offer_label,price,quantity`);
  expect((items as Array<Record<string, unknown>>).map((i) => ({ ...i, price: Number(i.price) }))).toEqual([
    { offer_id: lp.id, offer_label: LP, price: lp.price, quantity: 1 },
  ]);
  expect((await luffyOffer('LP', 'en', 'parallel')).stock).toBe(lp.stock - 1);
  const number = (await page.locator('[data-order-number]').textContent())!;
  await expect
    .poll(async () => (await mailbox(SHOPPER.email)).find((m) => m.subject === `Confirmación de tu pedido ${number}`)?.text ?? '')
    .toContain(`${LUFFY.name}, ${LP} × 1 — ${mxn(lp.price)}`);

  // The account's Orders tab shows the order's line with the offer.
  await page.goto('/account');
  const account = new AccountPage(page);
  await account.openTab('Pedidos');
  const orderRow = account.panel.locator(`[data-order-id="${orderId}"]`);
  await orderRow.getByRole('button', { name: /Ver detalles/ }).click();
  const line = account.panel.getByTestId('order-lines').getByTestId('order-line');
  await expect(line).toHaveCount(1);
  await expect(line).toContainText(LUFFY.name);
  await expect(line).toContainText(LP);
  await axe(page);
});

test("a line stored at a stale price takes its offer's live price, with a notice naming the offer", async ({ page }) => {
  const lp = await luffyOffer('LP', 'en', 'parallel');
  await seedCart(page, [cartLine(lp, LP, 100)]);
  await page.goto('/checkout/summary');
  const checkout = new CheckoutPage(page);
  await expect(page.getByText(`El precio de «${LUFFY.name}, ${LP}» cambió de $1.00 a ${mxn(lp.price)}.`)).toBeVisible();
  await expect(checkout.main.locator(`tr[data-offer-id="${lp.id}"]`)).toContainText(mxn(lp.price));
  await expect(page.locator('[data-amount="subtotal"]')).toHaveText(mxn(lp.price));
});
