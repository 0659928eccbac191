/**
 * 'Lista de compra' end to end on a 375 px phone: the admin is told in Spanish that an LP share of
 * 120 is no percent, changes the LP share and the saldo bonus, adds a printing the shop did not buy
 * with an NM price of its own and pauses another; the database records each change with the admin
 * as its author. A visitor's /vende search then finds the new printing priced by the new rules (LP
 * by transfer and in saldo a favor) and no longer finds the paused one. Axe on the section, which
 * fits the phone. The rules, the paused entry and the added one are put back afterwards.
 *
 * The packing slip of a shopper's sale shows the shop's receiving address as published in
 * buylist_settings (the demo shop's), and the notice asking to write first once it is withdrawn.
 */
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { formatCentavos, toCentavos, type Centavos } from '~/domain/money';
import { expect as baseExpect, test } from './fixtures';
import { accessToken, ADMIN, createConfirmedUser, serviceRest, signInAs, stackKeys, STACK_URL } from './pages/auth';
import { expectFitsPhone, PHONE } from './pages/phone';

// The back office and /vende talk to the local stack; a busy 2-core machine is slow.
const expect = baseExpect.configure({ timeout: 15_000 });

test.use({ viewport: PHONE });

/** The demo buylist's card with a price of its own: the other buylist journey sells it, so it is never paused here. */
const LUFFY = 'op-single-op-05-monkey-d-luffy-op05-119';
const NEW_SHARE_LP = 70;
const NEW_BONUS = 30;
const NEW_NM_PRICE = '1234.50';

interface Settings {
  share_lp: number;
  credit_bonus_percent: number;
}

async function rows<T>(path: string): Promise<T[]> {
  const { status, body } = await serviceRest('GET', path);
  baseExpect(status, path).toBe(200);
  return body as T[];
}

async function axe(page: Page, screen: string) {
  const results = await new AxeBuilder({ page }).include('main').analyze();
  baseExpect(
    results.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`),
    `axe on ${screen}`,
  ).toEqual([]);
}

/** A printing the shop does not buy yet, with a collector number no other printing has. */
async function printingToAdd(): Promise<{ productId: string; name: string; collector: string }> {
  const bought = new Set((await rows<{ product_id: string }>('buylist_entries?select=product_id')).map((row) => row.product_id));
  const printings = await rows<{ product_id: string; collector_number: string; products: { name: string } }>(
    'card_printings?select=product_id,collector_number,products(name)&product_id=like.op-single-*&order=product_id&limit=400',
  );
  const count = new Map<string, number>();
  for (const printing of printings) count.set(printing.collector_number, (count.get(printing.collector_number) ?? 0) + 1);
  const free = printings.find((printing) => !bought.has(printing.product_id) && count.get(printing.collector_number) === 1);
  baseExpect(free, 'a printing outside the buylist').toBeTruthy();
  return { productId: free!.product_id, name: free!.products.name, collector: free!.collector_number };
}

/** An active demo entry for any language and finish, not OP05-119, whose collector number is its own in the buylist. */
async function entryToPause(): Promise<{ id: string; productId: string; name: string; collector: string }> {
  const items = await rows<{ entry_id: string; product_id: string; name: string; collector_number: string; language: string | null; finish: string | null }>(
    'buylist_items?select=entry_id,product_id,name,collector_number,language,finish&order=product_id',
  );
  const count = new Map<string, number>();
  for (const item of items) count.set(item.collector_number, (count.get(item.collector_number) ?? 0) + 1);
  const item = items.find(
    (row) =>
      row.product_id !== LUFFY &&
      row.language === null &&
      row.finish === null &&
      count.get(row.collector_number) === 1 &&
      /[A-Za-z]/.test(row.collector_number),
  );
  baseExpect(item, 'an entry to pause').toBeTruthy();
  return { id: item!.entry_id, productId: item!.product_id, name: item!.name, collector: item!.collector_number };
}

test('the admin changes the LP share and the bonus, adds a priced printing and pauses another; /vende follows', async ({ page }, testInfo) => {
  test.setTimeout(180_000);
  const [before] = await rows<Settings>('buylist_settings?select=share_lp,credit_bonus_percent');
  baseExpect(Number(before!.share_lp)).not.toBe(NEW_SHARE_LP);
  const added = await printingToAdd();
  const paused = await entryToPause();
  const [last] = await rows<{ id: number }>('buylist_rule_events?select=id&order=id.desc&limit=1');
  const lastEvent = last?.id ?? 0;
  const admins = (await rows<{ id: string }>('profiles?is_admin=eq.true&select=id')).map((row) => row.id);

  try {
    await signInAs(page, ADMIN.email, ADMIN.password);
    await page.goto('/admin/lista-de-compra');
    const main = page.getByRole('main');
    await expect(main.getByRole('heading', { name: 'Lista de compra', level: 1 })).toBeVisible();
    await expect(page.getByRole('navigation', { name: 'Administración' }).getByRole('link', { name: 'Lista de compra' })).toHaveAttribute(
      'aria-current',
      'page',
    );

    // The rules: a wrong value is explained before anything is sent, then the new share and bonus are saved.
    const rules = main.getByRole('form', { name: 'Reglas de precio' });
    const lp = rules.getByRole('textbox', { name: 'LP (% del precio NM)' });
    await expect(lp).toHaveValue(String(Number(before!.share_lp)));
    await lp.fill('120');
    await rules.getByRole('button', { name: 'Guardar reglas' }).click();
    await expect(rules.getByText('Escribe un porcentaje entre 0 y 100, con hasta dos decimales.')).toBeVisible();
    await expect(lp).toHaveAttribute('aria-invalid', 'true');
    await lp.fill(String(NEW_SHARE_LP));
    await rules.getByRole('textbox', { name: 'Bono en saldo a favor (%)' }).fill(String(NEW_BONUS));
    await rules.getByRole('button', { name: 'Guardar reglas' }).click();
    await expect(rules.getByRole('status')).toHaveText('Guardado.');
    await axe(page, 'Lista de compra');

    // A printing the shop did not buy, found by its number, with an NM price of its own.
    await main.getByRole('button', { name: 'Agregar carta' }).click();
    const add = main.getByRole('form', { name: 'Agregar una carta a la lista' });
    await add.getByRole('searchbox', { name: 'Busca la carta por nombre o número de colección' }).fill(added.collector);
    await add.getByRole('button', { name: `Elegir ${added.name}` }).click();
    await expect(add.getByText(`Carta elegida: ${added.name} · ${added.collector}`)).toBeVisible();
    await add.getByRole('textbox', { name: 'Copias que buscamos' }).fill('5');
    await add.getByRole('textbox', { name: 'Precio NM (MXN; vacío = la regla)' }).fill(NEW_NM_PRICE);
    await axe(page, 'Lista de compra, adding a printing');
    await add.getByRole('button', { name: 'Agregar a la lista' }).click();
    await expect(main.getByText(`${added.name}: agregada a la lista.`)).toBeVisible();
    const addedRow = main.getByRole('region', { name: 'Cartas de la lista de compra' }).getByRole('row').filter({ hasText: added.name });
    await expect(addedRow).toContainText(formatCentavos(toCentavos(NEW_NM_PRICE)));

    // Another one paused, found in the list by its number.
    await main.getByRole('searchbox', { name: 'Buscar en la lista por nombre o número de colección' }).fill(paused.collector);
    const table = main.getByRole('region', { name: 'Cartas de la lista de compra' });
    await expect(table.getByRole('row').filter({ hasText: paused.name })).toHaveCount(1);
    await table.getByRole('button', { name: `Pausar ${paused.name}` }).click();
    await expect(main.getByText(`${paused.name}: pausada.`)).toBeVisible();
    await expect(table.getByRole('row').filter({ hasText: paused.name })).toContainText('Pausada');
    await expect(table.getByRole('button', { name: `Reanudar ${paused.name}` })).toBeVisible();
    await axe(page, 'Lista de compra, a paused entry');
    await expectFitsPhone(page, testInfo, 'Lista de compra');

    // The database holds the new rules and records each change with the admin as its author.
    const [after] = await rows<Settings>('buylist_settings?select=share_lp,credit_bonus_percent');
    baseExpect([Number(after!.share_lp), Number(after!.credit_bonus_percent)]).toEqual([NEW_SHARE_LP, NEW_BONUS]);
    const events = await rows<{ subject: string; action: string; product_id: string | null; changes: Record<string, { to: unknown }>; actor: string }>(
      `buylist_rule_events?id=gt.${lastEvent}&select=subject,action,product_id,changes,actor&order=id`,
    );
    const mine = events.filter((event) => admins.includes(event.actor));
    baseExpect(mine.find((event) => event.subject === 'settings')?.changes).toMatchObject({
      share_lp: { to: NEW_SHARE_LP },
      credit_bonus_percent: { to: NEW_BONUS },
    });
    baseExpect(mine.find((event) => event.action === 'added' && event.product_id === added.productId)?.changes).toMatchObject({
      nm_price: { to: Number(NEW_NM_PRICE) },
    });
    baseExpect(mine.find((event) => event.action === 'updated' && event.product_id === paused.productId)?.changes).toEqual({
      active: { from: true, to: false },
    });

    // A visitor's /vende: the new printing at the new LP share and bonus, the paused one gone.
    await page.context().clearCookies();
    await page.evaluate(() => localStorage.clear());
    await page.goto('/vende');
    const search = main.getByRole('searchbox', { name: 'Busca por nombre o número de colección' });
    await search.fill(added.collector);
    const card = main.getByRole('article', { name: added.name });
    await expect(card).toBeVisible({ timeout: 30_000 });
    const cash = Math.round((toCentavos(NEW_NM_PRICE) * NEW_SHARE_LP) / 100) as Centavos;
    const credit = Math.round((cash * (100 + NEW_BONUS)) / 100) as Centavos;
    await expect(card.getByRole('row', { name: /\(LP\)/ }).getByRole('cell')).toHaveText([formatCentavos(cash), formatCentavos(credit)]);
    await expect(card.getByRole('columnheader', { name: `Saldo a favor (+${NEW_BONUS} %)` })).toBeVisible();

    await search.fill(paused.collector);
    // The search ran (the previous card is gone); the paused card was in the published buylist before.
    await expect(main.getByRole('article', { name: added.name })).toHaveCount(0);
    await expect(main.getByRole('article', { name: paused.name })).toHaveCount(0);
  } finally {
    // Put the demo buylist back as the other journeys expect it.
    await serviceRest('PATCH', 'buylist_settings?id=eq.true', { share_lp: before!.share_lp, credit_bonus_percent: before!.credit_bonus_percent });
    await serviceRest('PATCH', `buylist_entries?id=eq.${paused.id}`, { active: true });
    await serviceRest('DELETE', `buylist_entries?product_id=eq.${added.productId}`);
  }
});

const ADDRESS_COLUMNS = ['ship_name', 'ship_street', 'ship_colonia', 'ship_zip', 'ship_municipio', 'ship_state', 'ship_phone', 'ship_hours'] as const;
type Address = Record<(typeof ADDRESS_COLUMNS)[number], string | null>;

/** Calls a shop function as a signed-in shopper through the REST API. */
async function rpcAs(token: string, name: string, args: Record<string, unknown>): Promise<{ status: number; body: Record<string, unknown> }> {
  const { anonKey } = await stackKeys();
  const response = await fetch(`${STACK_URL}/rest/v1/rpc/${name}`, {
    method: 'POST',
    headers: { apikey: anonKey, Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(args),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

test("the packing slip shows the shop's published receiving address, and a notice while there is none", async ({ page }) => {
  test.setTimeout(120_000);
  const [address] = await rows<Address>(`buylist_settings?select=${ADDRESS_COLUMNS.join(',')}`);
  baseExpect(address!.ship_name, 'the demo shop publishes its receiving address').toBeTruthy();
  const shopper = await createConfirmedUser('guia-direccion');
  const token = await accessToken(shopper.email, shopper.password);
  const sent = await rpcAs(token, 'submit_buylist', {
    p_request_id: crypto.randomUUID(),
    p_lines: [{ productId: LUFFY, condition: 'NM', language: 'en', finish: 'parallel', quantity: 1 }],
    p_payout: 'saldo',
  });
  baseExpect(sent.status, JSON.stringify(sent.body)).toBe(200);
  const id = String(sent.body.id);

  try {
    await signInAs(page, shopper.email, shopper.password);
    await page.goto(`/vende/guia?id=${id}`);
    const main = page.getByRole('main');
    await expect(main.getByRole('heading', { name: `Guía de envío · Venta ${String(sent.body.code)}` })).toBeVisible();
    const shown = main.getByTestId('shop-receiving-address');
    await expect(shown.locator('span')).toHaveText([
      address!.ship_name!,
      address!.ship_street!,
      `Col. ${address!.ship_colonia}`,
      `${address!.ship_zip} ${address!.ship_municipio}, ${address!.ship_state}`,
      ...(address!.ship_phone ? [`Tel. ${address!.ship_phone.replace(/^(\d{2})(\d{4})(\d{4})$/, '$1 $2 $3')}`] : []),
      ...(address!.ship_hours ? [`Horario del mostrador: ${address!.ship_hours}`] : []),
    ]);

    // Withdrawn, the slip says so instead of showing an address.
    const cleared = await serviceRest('PATCH', 'buylist_settings?id=eq.true', Object.fromEntries(ADDRESS_COLUMNS.map((column) => [column, null])));
    baseExpect(cleared.status).toBe(200);
    await page.reload();
    await expect(main.getByText('La tienda aún no publica su dirección de recepción; escríbenos antes de enviar.')).toBeVisible();
    await expect(main.getByTestId('shop-receiving-address')).toHaveCount(0);
  } finally {
    await serviceRest('PATCH', 'buylist_settings?id=eq.true', address);
    await rpcAs(token, 'cancel_buylist_submission', { p_submission: id });
  }
});
