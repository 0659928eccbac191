/**
 * Promotions end to end on a 375 px phone: the admin creates 'BUENFIN15' (15% on Pokémon booster
 * boxes: franchise + product type, picked from the catalogue's lists by name; a product found by
 * its name is added as a chip and taken off again) starting today in 'Promociones', and the list
 * shows the scope in words; a shopper applies it to a cart with a booster box and a blister, sees
 * the discount only under the booster box's line, pays with the simulated card, and the order's
 * discount and the back office's row (uses 1, discount given, sales) agree. Axe on the Promociones
 * screen and the cart.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect as baseExpect, test, type Page } from './fixtures';
import { ADMIN, createConfirmedUser, serviceRest, signInAs } from './pages/auth';
import { addFromProductPage, CheckoutPage, mxn, orderInDb } from './pages/checkout';
import { PHONE } from './pages/phone';

// The checkout and the back office hydrate and talk to the local stack; a busy 2-core machine is slow.
const expect = baseExpect.configure({ timeout: 15_000 });

const BOX = 'pk-boosterbox-journey-together';
const BLISTER = 'pk-blister-journey-together';

test.use({ viewport: PHONE });

async function axe(page: Page) {
  const results = await new AxeBuilder({ page }).include('main').analyze();
  expect(results.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.length})`)).toEqual([]);
}

async function productOf(id: string): Promise<{ name: string; product_type_id: string }> {
  const { body } = await serviceRest('GET', `products?id=eq.${id}&select=name,product_type_id`);
  return (body as Array<{ name: string; product_type_id: string }>)[0]!;
}

async function productTypeOf(id: string): Promise<{ id: string; name: string }> {
  const { body } = await serviceRest('GET', `product_types?id=eq.${id}&select=id,name`);
  return (body as Array<{ id: string; name: string }>)[0]!;
}

async function priceOf(id: string): Promise<number> {
  const { body } = await serviceRest('GET', `products?id=eq.${id}&select=price`);
  return Number((body as Array<{ price: number }>)[0]!.price);
}

/** Today at 00:00 in Mexico City, as the datetime-local field takes it. */
function todayInMexicoCity(): string {
  const day = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Mexico_City', year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date());
  return `${day}T00:00`;
}

async function signOut(page: Page) {
  await page.context().clearCookies();
  await page.evaluate(() => localStorage.clear());
}

test('the admin creates BUENFIN15 for Pokémon booster boxes; a shopper gets it on the box only, pays, and the back office agrees', async ({ page }) => {
  test.setTimeout(180_000);
  // A BUENFIN15 of an earlier run keeps its history under another code.
  await serviceRest('PATCH', 'promotions?code=eq.BUENFIN15', { code: `BUENFIN15-${Date.now()}` });

  const { name: boxName, product_type_id: boxTypeId } = await productOf(BOX);
  const boxType = await productTypeOf(boxTypeId);
  expect(boxType.id).toBe('booster-box');

  await signInAs(page, ADMIN.email, ADMIN.password);
  await page.goto('/admin/promociones');
  const main = page.getByRole('main');
  await expect(main.getByRole('heading', { name: 'Promociones', level: 1 })).toBeVisible();
  await expect(main.getByRole('region', { name: 'Lista de promociones' })).toContainText('MEKACAT10');
  await main.getByRole('button', { name: 'Nueva promoción' }).click();
  const form = main.getByRole('form', { name: 'Nueva promoción' });
  // A wrong value is explained before anything is sent.
  await form.getByLabel('Código', { exact: true }).fill('BUENFIN15');
  await form.getByLabel('Porcentaje de descuento').fill('150');
  await form.getByRole('button', { name: 'Guardar promoción' }).click();
  await expect(form.getByRole('alert')).toHaveText('El porcentaje debe ser un número entero entre 1 y 100.');
  await form.getByLabel('Porcentaje de descuento').fill('15');
  await form.getByLabel('Empieza (hora del centro de México)').fill(todayInMexicoCity());
  // The scope is picked from the catalogue's names: the franchise, then its booster-box type.
  await form.getByRole('group', { name: 'Franquicias' }).getByRole('checkbox', { name: 'Pokémon' }).check();
  const types = form.getByRole('group', { name: 'Tipos de producto' });
  await expect(types.getByRole('group', { name: 'One Piece' })).toHaveCount(0);
  await types.getByRole('group', { name: 'Pokémon' }).getByRole('checkbox', { name: boxType.name }).check();
  // A product is found by part of its name and shown as a removable chip; taking it off leaves the scope as picked.
  const products = form.getByRole('group', { name: 'Productos' });
  await products.getByLabel('Buscar producto (nombre o número de colección)').fill(boxName);
  await products
    .getByRole('list', { name: 'Productos encontrados' })
    .getByRole('button', { name: `Agregar ${boxName}` })
    .click();
  const chips = products.getByRole('list', { name: 'Productos elegidos' });
  await expect(chips).toContainText(boxName);
  await chips.getByRole('button', { name: `Quitar ${boxName}` }).click();
  await expect(products.getByText('Ningún producto elegido.')).toBeVisible();
  await axe(page);
  await form.getByRole('button', { name: 'Guardar promoción' }).click();
  await expect(main.getByRole('status').filter({ hasText: 'Promoción guardada.' })).toBeVisible();
  const adminRow = main.locator('tr[data-promotion-code="BUENFIN15"]');
  await expect(adminRow).toContainText('15%');
  await expect(adminRow).toContainText('0 / sin límite');
  await expect(adminRow).toContainText(`Pokémon · ${boxType.name}`);
  await axe(page);

  // The shopper.
  await signOut(page);
  const shopper = await createConfirmedUser('buenfin');
  await signInAs(page, shopper.email, shopper.password);
  await addFromProductPage(page, BOX);
  await addFromProductPage(page, BLISTER);
  const checkout = new CheckoutPage(page);
  await checkout.gotoSummary();
  await checkout.applyCoupon('buenfin15');
  await expect(checkout.couponMessage).toHaveText('🎉 Cupón aplicado: 15% de descuento.');

  const [box, blister] = [await priceOf(BOX), await priceOf(BLISTER)];
  const discount = Math.round(box * 15) / 100;
  const subtotal = box + blister;
  const shipping = subtotal >= 2999 ? 0 : 99;
  const total = Math.round((subtotal - discount + shipping) * 100) / 100;
  await expect(checkout.row(BOX)).toContainText(`Cupón BUENFIN15: −${mxn(discount)}`);
  await expect(checkout.row(BLISTER)).not.toContainText('Cupón BUENFIN15');
  await expect(page.locator('[data-amount="discount"]')).toHaveText(`−${mxn(discount)}`);
  await expect(checkout.total).toHaveText(mxn(total));
  await axe(page);

  await checkout.continueButton.click();
  const orderId = await checkout.orderIdFromUrl();
  await checkout.fillAddress();
  await page.getByRole('button', { name: 'Usar esta dirección' }).click();
  await expect(page.getByRole('heading', { name: 'Confirmar tu pago' })).toBeVisible();
  await checkout.payWithCard('4242 4242 4242 4242');
  await expect(page.getByRole('heading', { name: 'Gracias por tu compra' })).toBeVisible();
  await expect(page.locator('.confirm-grid [data-amount="total"]')).toHaveText(mxn(total));

  const order = await orderInDb(orderId);
  expect(order.status).toBe('Pagado');
  expect(Number(order.discount)).toBe(discount);
  expect(Number(order.total)).toBe(total);

  // The back office counts the use, the discount given and the sale.
  await signOut(page);
  await signInAs(page, ADMIN.email, ADMIN.password);
  await page.goto('/admin/promociones');
  const row = page.getByRole('main').locator('tr[data-promotion-code="BUENFIN15"]');
  await expect(row).toContainText('1 / sin límite');
  await expect(row.locator('td').nth(5)).toHaveText(mxn(discount));
  await expect(row.locator('td').nth(6)).toHaveText(mxn(total));
});
