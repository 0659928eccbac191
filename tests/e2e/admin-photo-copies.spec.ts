/**
 * A photo added in the back office on a phone gets its copies: the admin adds a slab's photo (a
 * sideways 1,200 × 900 JPEG) to a new offer of a demo single, and the products bucket then holds
 * the original and its copies (240 and 480 px wide: upright, the photo is 900 px wide; in AVIF,
 * WebP and JPEG). A text file renamed .jpg is refused in Spanish, and nothing of it stays in the bucket.
 */
import AxeBuilder from '@axe-core/playwright';
import sharp from 'sharp';
import { test, expect as baseExpect, expectConsoleError } from './fixtures';
import { STACK_URL, createConfirmedUser, serviceRest, signInAs, stackKeys } from './pages/auth.ts';
import { BackOffice } from './pages/back-office.ts';
import { PHONE } from './pages/phone.ts';

const expect = baseExpect.configure({ timeout: 15_000 });
test.describe.configure({ timeout: 150_000 });
test.use({ viewport: PHONE });

// A demo single; nothing here saves an offer of it, only photos are uploaded (named after it).
const PRODUCT_ID = 'op-single-op-01-nami-op01-016';

/** The products bucket's objects whose names start with the product's id. */
async function storedFor(productId: string): Promise<string[]> {
  const { serviceRoleKey } = await stackKeys();
  const response = await fetch(`${STACK_URL}/storage/v1/object/list/products`, {
    method: 'POST',
    headers: { apikey: serviceRoleKey, authorization: `Bearer ${serviceRoleKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ prefix: '', search: productId, limit: 1000 }),
  });
  expect(response.ok).toBe(true);
  return ((await response.json()) as Array<{ name: string }>).map((o) => o.name).filter((name) => name.startsWith(`${productId}-`));
}

test('a slab photo gets its copies on upload, and a text file renamed .jpg is refused with nothing left', async ({ page }) => {
  const account = await createConfirmedUser('jefa-fotos');
  expect((await serviceRest('PATCH', `profiles?id=eq.${account.id}`, { is_admin: true })).status).toBeLessThan(300);
  await signInAs(page, account.email, account.password);
  const office = new BackOffice(page);
  await office.goto(`/admin/productos?q=${encodeURIComponent(PRODUCT_ID)}`);
  await office.main
    .locator(`[data-product-id="${PRODUCT_ID}"]`)
    .getByRole('button', { name: /Carta y ofertas/ })
    .click();
  const dialog = page.getByRole('dialog', { name: 'Carta y ofertas' });
  await dialog.getByRole('button', { name: 'Agregar oferta' }).click();
  const add = dialog.getByRole('form', { name: 'Nueva oferta' });
  await add.getByLabel('Tipo de oferta').selectOption({ label: 'Carta calificada (slab)' });
  const before = await storedFor(PRODUCT_ID);

  expectConsoleError(page, /status of 422/); // the renamed text file is refused on purpose
  await add.getByLabel('Agregar foto').setInputFiles({ name: 'slab.jpg', mimeType: 'image/jpeg', buffer: Buffer.from('Lista de precios, no una foto.\n') });
  await expect(add.getByText('El archivo no es una imagen válida. Sube una foto PNG, JPG, WebP o GIF.')).toBeVisible();
  expect(await storedFor(PRODUCT_ID)).toEqual(before);
  const axe = await new AxeBuilder({ page }).include('dialog[open]').analyze();
  expect(axe.violations.map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);

  const photo = await sharp({ create: { width: 1200, height: 900, channels: 3, background: '#2a6f97' } })
    .withMetadata({ orientation: 6 })
    .jpeg()
    .toBuffer();
  await add.getByLabel('Agregar foto').setInputFiles({ name: 'slab.jpg', mimeType: 'image/jpeg', buffer: photo });
  await expect(add.getByRole('img', { name: 'Foto 1 del slab' })).toBeVisible();
  await expect(add.getByText('El archivo no es una imagen válida. Sube una foto PNG, JPG, WebP o GIF.')).toHaveCount(0);

  const added = (await storedFor(PRODUCT_ID)).filter((name) => !before.includes(name)).sort();
  const original = added.find((name) => name.endsWith('.jpg') && !/\.\d+w\.jpg$/.test(name))!;
  const stem = original.slice(0, -'.jpg'.length);
  expect(added).toEqual([original, ...[240, 480].flatMap((w) => [`${stem}.${w}w.avif`, `${stem}.${w}w.webp`, `${stem}.${w}w.jpg`])].sort());
});
