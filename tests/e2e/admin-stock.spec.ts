/**
 * The back office's product edit never sells a unit twice: when a shopper's order reserves units
 * while the admin has the edit dialog open, 'Guardar cambios' writes nothing and says how many
 * units there are now; saving again writes.
 */
import { test, expect as baseExpect } from './fixtures';
import { ADMIN, serviceRest, signInAs } from './pages/auth.ts';
import { BackOffice } from './pages/back-office.ts';
import { shopperWithOrder } from './pages/checkout.ts';

// Screens wait on the local stack, which answers slowly while other suites share the 2 cores.
const expect = baseExpect.configure({ timeout: 15_000 });

test.describe.configure({ timeout: 120_000 });

// A product no other end-to-end test buys or edits (6 units, 2 per customer in the seed).
const PRODUCT_ID = 'op-boosterbox-op-05';

async function stockOf(): Promise<number> {
  const { body } = await serviceRest('GET', `products?id=eq.${PRODUCT_ID}&select=stock`);
  return (body as Array<{ stock: number }>)[0]!.stock;
}

const changedWhileEditing = (stock: number) => `El inventario cambió mientras editabas: ahora hay ${stock}. Revisa y guarda de nuevo.`;

test('un pedido reserva unidades mientras la administradora edita el stock: no se escribe nada, se avisa y el segundo guardado escribe', async ({ page }) => {
  await signInAs(page, ADMIN.email, ADMIN.password);
  const office = new BackOffice(page);
  await office.goto(`/admin/productos?q=${encodeURIComponent(PRODUCT_ID)}`);
  const row = office.main.locator(`[data-product-id="${PRODUCT_ID}"]`);
  await expect(row).toBeVisible();

  // The admin opens the dialog and restocks: the dialog read the stock there was.
  const read = await stockOf();
  expect(read).toBeGreaterThanOrEqual(2);
  await row.getByRole('button', { name: /Editar/ }).click();
  const dialog = page.getByRole('dialog', { name: 'Editar producto' });
  const stockField = dialog.getByLabel('Stock');
  await expect(stockField).toHaveValue(String(read));
  const wanted = read + 4;
  await stockField.fill(String(wanted));

  // Meanwhile a shopper's order reserves one unit (create_order through the API).
  await shopperWithOrder(PRODUCT_ID);
  expect(await stockOf()).toBe(read - 1);

  await dialog.getByRole('button', { name: 'Guardar cambios' }).click();
  await expect(dialog.getByRole('alert')).toHaveText(changedWhileEditing(read - 1));
  await expect(dialog).toBeVisible();
  // Nothing was written: the shopper's reservation stands.
  expect(await stockOf()).toBe(read - 1);
  // The stock the admin typed stays for review.
  await expect(stockField).toHaveValue(String(wanted));

  // Saving again compares against the stock there is now, and writes.
  await dialog.getByRole('button', { name: 'Guardar cambios' }).click();
  await expect(dialog).toBeHidden();
  await expect(office.main.getByRole('status').filter({ hasText: 'Stock actualizado' })).toBeVisible();
  expect(await stockOf()).toBe(wanted);

  // A stock the admin did not touch follows the database: another reservation, then save twice.
  await row.getByRole('button', { name: /Editar/ }).click();
  await expect(stockField).toHaveValue(String(wanted));
  await shopperWithOrder(PRODUCT_ID);
  await dialog.getByRole('button', { name: 'Guardar cambios' }).click();
  await expect(dialog.getByRole('alert')).toHaveText(changedWhileEditing(wanted - 1));
  await expect(stockField).toHaveValue(String(wanted - 1));
  expect(await stockOf()).toBe(wanted - 1);
  await dialog.getByRole('button', { name: 'Guardar cambios' }).click();
  await expect(dialog).toBeHidden();
  await expect(office.main.getByRole('status').filter({ hasText: 'Producto guardado.' })).toBeVisible();
  expect(await stockOf()).toBe(wanted - 1);
});
