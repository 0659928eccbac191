/**
 * Timed drops on a phone: the product page says when the drop goes on sale (Mexico City time) and
 * counts down by the shop's clock even when the phone's clock is years off; its add button is held
 * and turns on at the drop's instant with no reload; a listing card's 'Agregar' is held the same
 * way once the catalogue is rebuilt with the drop; the back office lists the drop under
 * Lanzamientos. The browser's clock is Playwright's (page.clock), the CPU throttled 4× where the
 * countdown runs.
 */
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, test, type APIRequestContext } from './fixtures';
import { ADMIN, AuthPage, accessToken, atPath, serviceRest } from './pages/auth.ts';
import { BackOffice } from './pages/back-office.ts';

const PHONE = { width: 375, height: 740 };
const LISTING = '/franchise/pokemon/expansions/destined-rivals/products';
// A phone whose clock is years behind: the countdown must still be the shop's.
const WRONG_CLOCK = new Date('2024-03-01T12:00:00Z');

/** 'viernes 11 de diciembre a las 10:00', said independently of the shop's code. */
function mexicoCityWhen(at: Date): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('es-MX', {
      timeZone: 'America/Mexico_City',
      weekday: 'long',
      day: 'numeric',
      month: 'long',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(at)
      .map((part) => [part.type, part.value]),
  );
  return `${parts.weekday} ${parts.day} de ${parts.month} a las ${parts.hour}:${parts.minute}`;
}

async function serious(page: Page, selector: string): Promise<string[]> {
  const axe = await new AxeBuilder({ page }).include(selector).analyze();
  return axe.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
}

async function throttle(page: Page): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
}

async function rebuildIdle(request: APIRequestContext, token: string): Promise<string> {
  const response = await request.get('/api/admin/rebuild', { headers: { Authorization: `Bearer ${token}` } });
  return ((await response.json()) as { status: string }).status;
}

/** A drop product of Destined Rivals going on sale `minutes` from now (whole minute), stock 5, limit 2. */
async function createDrop(minutes: number): Promise<{ id: string; name: string; at: Date }> {
  const stamp = Date.now();
  const at = new Date(Math.ceil((stamp + minutes * 60_000) / 60_000) * 60_000);
  // Two tests may create their drop in the same millisecond (parallel workers): the id must still be new.
  const unique = `${stamp}-${Math.random().toString(36).slice(2, 8)}`;
  const id = `pk-e2e-drop-${unique}`;
  const name = `Caja de lanzamiento ${unique}`;
  const created = await serviceRest('POST', 'products', {
    id,
    name,
    price: 1999,
    stock: 5,
    limit_per_customer: 2,
    franchise_id: 'pokemon',
    product_type_id: 'booster-pack',
    expansion_id: 'destined-rivals',
    on_sale_at: at.toISOString(),
  });
  expect(created.status).toBe(201);
  return { id, name, at };
}

test.describe('a timed drop on a 375 px phone', () => {
  test.use({ viewport: PHONE });

  test('the product page counts down by the shop clock and the add button turns on at the drop, with no reload; axe finds nothing serious', async ({
    page,
  }) => {
    // A 4× slower CPU and axe on top: more than the default 30 s on a busy machine.
    test.setTimeout(120_000);
    const drop = await createDrop(3);
    try {
      await page.clock.install({ time: WRONG_CLOCK });
      await throttle(page);
      await page.goto(`/product/${drop.id}`);
      await expect(page.getByRole('heading', { level: 1, name: drop.name })).toBeVisible();
      await expect(page.getByText(`A la venta el ${mexicoCityWhen(drop.at)}`)).toBeVisible();
      const timer = page.getByRole('timer', { name: 'Tiempo para que salga a la venta' });
      // At most three minutes left by the shop's clock, although the phone believes it is 2024.
      await expect(timer).toHaveText(/^Faltan 00:0[0-3]:\d\d$/, { timeout: 10_000 });
      const add = page.getByRole('button', { name: 'Agregar al carrito' });
      await expect(add).toBeDisabled();
      // Tapping the held box wakes the island; it keeps the button held.
      await page.getByRole('group', { name: 'Cantidad' }).getByRole('button', { name: 'Aumentar cantidad' }).click({ force: true });
      await expect(add).toBeDisabled();
      expect(await serious(page, 'main')).toEqual([]);

      await page.evaluate(() => document.documentElement.setAttribute('data-same-page', 'yes'));
      const left = drop.at.getTime() - Date.now();
      await page.clock.fastForward(Math.max(left, 0) + 5_000);
      await expect(timer).toHaveText('¡Ya está a la venta!');
      await expect(add).toBeEnabled();
      await expect(page.locator('html')).toHaveAttribute('data-same-page', 'yes');
    } finally {
      await serviceRest('DELETE', `products?id=eq.${drop.id}`);
    }
  });

  test("a listing card holds 'Agregar' until the drop and then enables it; the back office lists the drop; axe finds nothing serious", async ({
    page,
    request,
  }) => {
    test.setTimeout(540_000);
    const drop = await createDrop(30);
    const admin = await accessToken(ADMIN.email, ADMIN.password);
    try {
      // The listing is prebuilt: rebuild the catalogue with the drop in it.
      await expect.poll(() => rebuildIdle(request, admin), { timeout: 180_000, intervals: [1000] }).toBe('idle');
      const started = await request.post('/api/admin/rebuild', { headers: { Authorization: `Bearer ${admin}` }, data: {} });
      expect(started.status()).toBe(202);
      await expect.poll(async () => (await (await request.get(LISTING)).text()).includes(drop.name), { timeout: 300_000, intervals: [2000] }).toBe(true);

      // The back office's drop schedule lists it (by the real clock: it is still ahead).
      await page.goto(`/auth?next=${encodeURIComponent('/admin/lanzamientos')}`);
      await new AuthPage(page).login(ADMIN.email, ADMIN.password);
      await page.waitForURL(atPath('/admin/lanzamientos'));
      const office = new BackOffice(page);
      await office.ready();
      await expect(office.nav.getByRole('link', { name: 'Lanzamientos' })).toHaveAttribute('aria-current', 'page');
      await expect(page.getByRole('heading', { level: 1, name: 'Lanzamientos' })).toBeVisible();
      const row = page.getByRole('row').filter({ hasText: drop.name });
      await expect(row).toContainText(`A la venta el ${mexicoCityWhen(drop.at)}`);
      // Stock 5, limit 2 (a phone shows each cell with its column's name before it).
      await expect(row.getByRole('cell').filter({ hasText: /^\s*5\s*$/ })).toHaveCount(1);
      await expect(row.getByRole('cell').filter({ hasText: /^\s*2\s*$/ })).toHaveCount(1);
      expect(await serious(page, 'main')).toEqual([]);

      // The listing, its clock then moved past the drop.
      await page.clock.install({ time: new Date() });
      await throttle(page);
      await page.goto(LISTING);
      const held = page.getByRole('button', { name: `${drop.name}: A la venta el ${mexicoCityWhen(drop.at)}` });
      await expect(held).toHaveText('Próximamente');
      await expect(held).toBeDisabled();
      expect(await serious(page, 'main')).toEqual([]);

      await page.clock.fastForward(drop.at.getTime() - Date.now() + 5_000);
      const add = page.getByRole('button', { name: `Agregar ${drop.name} al carrito` });
      await expect(add).toHaveText('Agregar');
      await expect(add).toBeEnabled();
    } finally {
      await serviceRest('DELETE', `products?id=eq.${drop.id}`);
    }
  });

  test("/explore's card holds 'Agregar' until the drop, also when the filters put it in the page, and turns it on at the instant with no reload", async ({
    page,
  }) => {
    test.setTimeout(120_000);
    // A sealed product no other journey touches, given a drop three minutes ahead: /explore's
    // catalogue follows the products' changes within seconds, with no rebuild.
    const product = { id: 'pk-themedeck-legendary-treasures-reshiram-y-zekrom', name: 'Mazo temático Reshiram y Zekrom' };
    const at = new Date(Math.ceil((Date.now() + 3 * 60_000) / 60_000) * 60_000);
    const patched = await serviceRest('PATCH', `products?id=eq.${product.id}`, { on_sale_at: at.toISOString() });
    expect(patched.status).toBe(200);
    try {
      const query = `/explore?q=${encodeURIComponent(product.name)}`;
      await expect
        .poll(async () => (await page.request.get(query)).text(), { timeout: 30_000, intervals: [1000] })
        .toContain(`${product.name}: A la venta el ${mexicoCityWhen(at)}`);

      await page.clock.install({ time: new Date() });
      // /explore with no words, then the words typed: the card comes in with the filters' answer.
      await page.goto('/explore');
      await page.getByRole('main').getByRole('searchbox', { name: 'Buscar', exact: true }).fill(product.name);
      const held = page.getByRole('button', { name: `${product.name}: A la venta el ${mexicoCityWhen(at)}` });
      await expect(held).toHaveText('Próximamente');
      await expect(held).toBeDisabled();
      // Still held a few seconds on (the page's live stock read has answered meanwhile).
      await page.clock.fastForward(5_000);
      await expect(held).toBeDisabled();
      expect(await serious(page, 'main')).toEqual([]);

      await page.evaluate(() => document.documentElement.setAttribute('data-same-page', 'yes'));
      await page.clock.fastForward(at.getTime() - Date.now() + 5_000);
      const add = page.getByRole('button', { name: `Agregar ${product.name} al carrito` });
      await expect(add).toHaveText('Agregar');
      await expect(add).toBeEnabled();
      await expect(page.locator('html')).toHaveAttribute('data-same-page', 'yes');
    } finally {
      await serviceRest('PATCH', `products?id=eq.${product.id}`, { on_sale_at: null });
    }
  });
});
