/**
 * 'Canjear puntos' on a 375 px phone. A shopper holds 1,250 reward points (given through the service
 * role); the profile shows the balance, the shop's rate ('100 puntos = $10.00') and what the
 * offered 100 points are worth. Two taps on 'Canjear puntos' in the same instant convert once: the
 * points drop by exactly 100, the saldo a favor grows by exactly $10.00, and the database holds one
 * redemption and one ledger credit. Points that are not whole blocks, or more than the balance, are
 * refused in Spanish. Axe on the account screen; nothing scrolls sideways. In the back office an
 * admin changes the rate (a minimum that is not whole blocks is refused), and the change is
 * recorded with who made it.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect as baseExpect, test, type Page } from './fixtures';
import { AccountPage } from './pages/account';
import { ADMIN, createConfirmedUser, serviceRest, signInAs } from './pages/auth';
import { PHONE } from './pages/phone';

// The local stack answers slowly while other suites share the 2 cores.
const expect = baseExpect.configure({ timeout: 15_000 });

test.use({ viewport: PHONE });
// The second test changes the shop's rate, which the first one reads: one after the other.
test.describe.configure({ mode: 'serial' });

const START_RATE = { points_per_block: 100, pesos_per_block: 10, min_points: 100 };

async function expectNoAxeViolations(page: Page) {
  const section = await new AxeBuilder({ page }).include('[data-testid="points-redeem"]').analyze();
  expect(section.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`)).toEqual([]);
  const main = await new AxeBuilder({ page }).include('main').analyze();
  const serious = main.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(serious.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`)).toEqual([]);
}

test('a double tap on Canjear puntos converts one block of points into saldo a favor, once', async ({ page }) => {
  test.setTimeout(90_000);
  const shopper = await createConfirmedUser('puntos');
  const given = await serviceRest('PATCH', `rewards?user_id=eq.${shopper.id}`, { points: 1250 });
  expect(given.status, JSON.stringify(given.body)).toBe(200);
  expect(given.body).toHaveLength(1);
  // The shop's starting rate: 100 points = $10.00, one block at least.
  const rate = await serviceRest('GET', 'points_rate?select=points_per_block,pesos_per_block,min_points');
  const [row] = rate.body as Array<{ points_per_block: number; pesos_per_block: number | string; min_points: number }>;
  expect([row?.points_per_block, Number(row?.pesos_per_block), row?.min_points]).toEqual([100, 10, 100]);

  await signInAs(page, shopper.email, shopper.password);
  const account = new AccountPage(page);
  const summary = account.panel.getByRole('region', { name: 'Resumen' });
  const redeem = account.panel.getByRole('region', { name: 'Canjear puntos' });
  const points = summary.getByTestId('summary-points');

  await expect(points).toHaveText('1,250');
  await expect(summary.getByText('Saldo a favor: $0.00', { exact: true })).toBeVisible();
  await expect(redeem.getByText('100 puntos = $10.00', { exact: true })).toBeVisible();
  await expect(redeem.getByText('Tienes 1,250 puntos.')).toBeVisible();
  await expect(redeem.getByLabel('Puntos a canjear')).toHaveValue('100');
  await expect(redeem.getByText('Recibirás $10.00 de saldo a favor.')).toBeVisible();
  await expectNoAxeViolations(page);

  // Two taps in the same instant: the second comes before the page has drawn the first as sending.
  const button = redeem.getByRole('button', { name: 'Canjear puntos' });
  await button.evaluate((element: HTMLButtonElement) => {
    element.click();
    element.click();
  });
  await expect(redeem.getByRole('status').filter({ hasText: 'Canjeaste 100 puntos por $10.00 de saldo a favor. Te quedan 1,150 puntos.' })).toBeVisible();
  await expect(points).toHaveText('1,150');
  await expect(summary.getByText('Saldo a favor: $10.00', { exact: true })).toBeVisible();
  await expect(redeem.getByText('Tienes 1,150 puntos.')).toBeVisible();

  // The database agrees: one redemption, one credit in the ledger, the points taken once.
  const redemptions = await serviceRest('GET', `points_redemptions?user_id=eq.${shopper.id}&select=points,credit,points_after`);
  const made = redemptions.body as Array<{ points: number; credit: number | string; points_after: number }>;
  expect(made.map((r) => [r.points, Number(r.credit), r.points_after])).toEqual([[100, 1000, 1150]]);
  const credits = await serviceRest('GET', `store_credit_entries?user_id=eq.${shopper.id}&select=amount,reason`);
  const entries = credits.body as Array<{ amount: number | string; reason: string }>;
  expect(entries.map((e) => [Number(e.amount), e.reason])).toEqual([[1000, 'points']]);
  const rewards = await serviceRest('GET', `rewards?user_id=eq.${shopper.id}&select=points`);
  expect(rewards.body).toEqual([{ points: 1150 }]);

  // Points that are not whole blocks, or more than the balance, are refused before anything is sent.
  const field = redeem.getByLabel('Puntos a canjear');
  await field.fill('150');
  await button.click();
  await expect(redeem.getByText('Canjea tus puntos en bloques de 100.')).toBeVisible();
  await field.fill('2000');
  await expect(redeem.getByText('Recibirás $200.00 de saldo a favor.')).toBeVisible();
  await button.click();
  await expect(redeem.getByText('No tienes suficientes puntos.')).toBeVisible();
  expect((await serviceRest('GET', `points_redemptions?user_id=eq.${shopper.id}&select=id`)).body).toHaveLength(1);
  await expectNoAxeViolations(page);

  // At 375 px nothing scrolls sideways; after a reload the same balances.
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
  await page.reload();
  await expect(points).toHaveText('1,150');
  await expect(summary.getByText('Saldo a favor: $10.00', { exact: true })).toBeVisible();
  await expect(redeem.getByText('Tienes 1,150 puntos.')).toBeVisible();
});

test('an admin changes the points rate in the back office, and the change is recorded', async ({ page }) => {
  test.setTimeout(90_000);
  try {
    await signInAs(page, ADMIN.email, ADMIN.password);
    await page.goto('/admin');
    const settings = page.getByRole('region', { name: 'Canje de puntos' });
    await expect(settings.getByText('Hoy: 100 puntos = $10.00, mínimo 100 puntos.')).toBeVisible({ timeout: 20_000 });
    const results = await new AxeBuilder({ page }).include('[data-testid="points-rate-settings"]').analyze();
    expect(results.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`)).toEqual([]);

    const form = settings.getByRole('form', { name: 'Canje de puntos' });
    await form.getByLabel('Saldo a favor por bloque (MXN)').fill('12.50');
    await form.getByLabel('Mínimo de puntos por canje').fill('150');
    await form.getByRole('button', { name: 'Guardar equivalencia' }).click();
    await expect(form.getByText('El mínimo debe ser de bloques completos: un múltiplo de los puntos por bloque, al menos uno.')).toBeVisible();

    await form.getByLabel('Mínimo de puntos por canje').fill('200');
    await form.getByRole('button', { name: 'Guardar equivalencia' }).click();
    await expect(settings.getByRole('status').filter({ hasText: 'Equivalencia guardada.' })).toBeVisible();
    await expect(settings.getByText('Hoy: 100 puntos = $12.50, mínimo 200 puntos.')).toBeVisible();

    const changes = await serviceRest('GET', 'points_rate_changes?select=changed_by,points_per_block,pesos_per_block,min_points&order=id.desc&limit=1');
    const [change] = changes.body as Array<{ changed_by: string; points_per_block: number; pesos_per_block: number | string; min_points: number }>;
    expect([change?.points_per_block, Number(change?.pesos_per_block), change?.min_points]).toEqual([100, 12.5, 200]);
    const who = await serviceRest('GET', `profiles?id=eq.${change?.changed_by}&select=is_admin`);
    expect(who.body).toEqual([{ is_admin: true }]);
  } finally {
    const restored = await serviceRest('PATCH', 'points_rate?id=eq.true', START_RATE);
    expect(restored.status, JSON.stringify(restored.body)).toBe(200);
  }
});
