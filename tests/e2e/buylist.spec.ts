/**
 * 'Vende tus cartas' end to end on a 375 px phone: a new shopper types 'OP05-119' into /vende's
 * search before the page is live (CPU slowed 6×), adds 2 LP copies, sees what the shop pays in saldo
 * a favor and by transfer, tries a transfer's CLABE (a wrong check digit, then a right one naming
 * its bank), submits for saldo and opens the packing slip; the admin receives the cards in
 * 'Compras', splits one copy off and downgrades it to MP (its price follows), accepts the other and
 * sends the adjusted offer; the shopper double-clicks 'Aceptar la oferta' in 'Mis ventas'. The
 * balance grows once, by exactly the adjusted offer in saldo (computed from buylist_settings and the
 * entry's NM price), the LP and MP offers of the card grow by one copy each, both views read
 * 'Pagada', and the outbox holds the e-mail of each step. axe runs on every screen on the way.
 */
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { formatCentavos, toCentavos, type Centavos } from '~/domain/money';
import { expect as baseExpect, test } from './fixtures';
import { ADMIN, createConfirmedUser, serviceRest, signInAs } from './pages/auth';
import { expectFitsPhone, holdScripts, PHONE } from './pages/phone';

// The local stack answers slowly while other suites share the machine's 2 cores.
const expect = baseExpect.configure({ timeout: 15_000 });

test.use({ viewport: PHONE });

/** The demo buylist's card with a price of its own (supabase/local/seed/buylist_demo.sql). */
const CARD = { productId: 'op-single-op-05-monkey-d-luffy-op05-119', name: 'Monkey.D.Luffy (OP05-119)', collector: 'OP05-119' };
/** The copies sold: English, parallel (the seed has an LP offer of those, and no MP one). */
const COPIES = { language: 'en', languageLabel: 'Inglés', finish: 'parallel', finishLabel: 'Parallel' };
/** Banamex's published example CLABE, and the same with a wrong check digit. */
const CLABE = { valid: '002010077777777771', wrongCheckDigit: '002010077777777772', bank: 'Banamex' };

async function rows<T>(path: string): Promise<T[]> {
  const { status, body } = await serviceRest('GET', path);
  baseExpect(status, path).toBe(200);
  return body as T[];
}

/** What the shop pays per copy of the card, read from the database's rules (docs/buylist.md, Prices). */
async function buyPrices(): Promise<{ cash: Record<'LP' | 'MP', Centavos>; credit: Record<'LP' | 'MP', Centavos>; bonus: number }> {
  const [settings] = await rows<{ share_lp: number; share_mp: number; credit_bonus_percent: number }>(
    'buylist_settings?select=share_lp,share_mp,credit_bonus_percent',
  );
  const [entry] = await rows<{ nm_price: number }>(`buylist_entries?product_id=eq.${CARD.productId}&language=is.null&finish=is.null&select=nm_price`);
  const nm = toCentavos(entry!.nm_price);
  const bonus = Number(settings!.credit_bonus_percent);
  const cash = (share: number) => Math.round((nm * Number(share)) / 100) as Centavos;
  const credit = (each: Centavos) => Math.round((each * (100 + bonus)) / 100) as Centavos;
  const lp = cash(settings!.share_lp);
  const mp = cash(settings!.share_mp);
  return { cash: { LP: lp, MP: mp }, credit: { LP: credit(lp), MP: credit(mp) }, bonus };
}

/** The stock of the card's raw offers of the copies sold, by condition (absent = no offer). */
async function offerStock(): Promise<Record<string, number>> {
  const offers = await rows<{ condition: string; stock: number }>(
    `card_offers?product_id=eq.${CARD.productId}&grading_company=is.null&language=eq.${COPIES.language}&finish=eq.${COPIES.finish}&select=condition,stock`,
  );
  return Object.fromEntries(offers.map((offer) => [offer.condition, offer.stock]));
}

async function balance(userId: string): Promise<number> {
  const accounts = await rows<{ balance: number }>(`store_credit_accounts?user_id=eq.${userId}&select=balance`);
  return Number(accounts[0]?.balance ?? 0);
}

async function expectNoAxeViolations(page: Page, screen: string) {
  const results = await new AxeBuilder({ page }).include('main').analyze();
  baseExpect(
    results.violations.map((v) => `${v.id} (${v.impact}): ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`),
    `axe on ${screen}`,
  ).toEqual([]);
}

test('a phone shopper sells 2 LP copies for saldo, the admin downgrades one to MP, the shopper accepts once and is paid exactly the adjusted offer', async ({
  page,
  browser,
}, testInfo) => {
  test.setTimeout(120_000);
  const shopper = await createConfirmedUser('vende');
  const prices = await buyPrices();
  const stockBefore = await offerStock();
  const balanceBefore = await balance(shopper.id);

  // 1. The shopper, on a phone-speed CPU, types the number before the page is live: its scripts
  // are held until the number is in the box, and the island is still the server's HTML then.
  await signInAs(page, shopper.email, shopper.password);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 6 });
  const releaseScripts = await holdScripts(page);
  await page.goto('/vende', { waitUntil: 'commit' });
  const main = page.getByRole('main');
  const search = main.getByRole('searchbox', { name: 'Busca por nombre o número de colección' });
  await search.pressSequentially(CARD.collector);
  await expect(page.locator('astro-island:has(.sell-search-form)')).toHaveAttribute('ssr', '');
  releaseScripts();
  const card = main.getByRole('article', { name: CARD.name });
  await expect(card).toBeVisible({ timeout: 30_000 });
  await expect(search).toHaveValue(CARD.collector);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });

  // What the shop pays per LP copy, by transfer and in saldo a favor with its bonus.
  const lpRow = card.getByRole('row', { name: /\(LP\)/ });
  await expect(lpRow.getByRole('cell')).toHaveText([formatCentavos(prices.cash.LP), formatCentavos(prices.credit.LP)]);
  await expect(card.getByRole('columnheader', { name: `Saldo a favor (+${prices.bonus} %)` })).toBeVisible();

  const add = card.getByRole('form', { name: `Agregar ${CARD.name} a mi lista` });
  await add.getByLabel('Condición').selectOption({ label: 'Poco jugada (LP)' });
  await add.getByLabel('Idioma').selectOption({ label: COPIES.languageLabel });
  await add.getByLabel('Acabado').selectOption({ label: COPIES.finishLabel });
  await add.getByLabel('Cantidad').fill('2');
  await add.getByRole('button', { name: 'Agregar a mi lista' }).click();
  await expect(main.getByText(`${CARD.name} agregada a tu lista`)).toBeVisible();

  const list = main.getByRole('form', { name: 'Tu lista de venta' });
  await expect(list.getByRole('listitem')).toHaveCount(1);
  await expect(list.getByRole('listitem')).toContainText(`${CARD.name} · LP · ${COPIES.languageLabel} · ${COPIES.finishLabel} × 2`);
  await expect(list.getByTestId('total-credit')).toHaveText(formatCentavos((prices.credit.LP * 2) as Centavos));
  await expect(list.getByTestId('total-transfer')).toHaveText(formatCentavos((prices.cash.LP * 2) as Centavos));
  await expectNoAxeViolations(page, '/vende with a sell list');
  await expectFitsPhone(page, testInfo, '/vende with a sell list');

  // 7. The transfer's CLABE: a wrong check digit is refused in Spanish, a right one names its bank.
  await list.getByRole('radio', { name: 'Transferencia bancaria a tu CLABE' }).check();
  const clabe = list.getByRole('textbox', { name: 'CLABE (18 dígitos)' });
  await clabe.fill(CLABE.wrongCheckDigit);
  await expect(list.getByText('CLABE no válida: revisa el dígito verificador')).toBeVisible();
  await expect(clabe).toHaveAttribute('aria-invalid', 'true');
  await clabe.fill(CLABE.valid);
  await expect(list.getByText(`Banco: ${CLABE.bank}`)).toBeVisible();
  await expect(clabe).not.toHaveAttribute('aria-invalid', 'true');

  // Saldo a favor, submitted: the number, then the packing slip.
  await list.getByRole('radio', { name: /^Saldo a favor/ }).check();
  // A double tap, as on a phone: one submission.
  await list.getByRole('button', { name: 'Enviar mi venta' }).dblclick();
  const done = main.getByRole('heading', { name: /^Tu venta V-\d+ está registrada$/ });
  await expect(done).toBeVisible();
  await expect(done).toBeFocused();
  await expect(done).toBeInViewport();
  const code = /V-\d+/.exec((await done.textContent()) ?? '')![0];
  const submissions = await rows<{ id: string; code: string; status: string; credit_bonus_percent: number }>(
    `buylist_submissions?user_id=eq.${shopper.id}&select=id,code,status,credit_bonus_percent`,
  );
  expect(submissions.map((row) => row.code)).toEqual([code]);
  const submission = submissions[0];
  expect(submission!.status).toBe('por_recibir');
  expect(Number(submission!.credit_bonus_percent)).toBe(prices.bonus);

  await main.getByRole('link', { name: 'Imprimir guía de envío' }).click();
  await expect(page.getByRole('heading', { level: 1, name: `Guía de envío · Venta ${code}` })).toBeVisible();
  await expect(page.getByRole('table', { name: 'Cartas enviadas' }).getByRole('row').nth(1)).toContainText(
    `${CARD.name} · LP · ${COPIES.languageLabel} · ${COPIES.finishLabel}`,
  );
  await expectNoAxeViolations(page, 'the packing slip');
  await expectFitsPhone(page, testInfo, 'the packing slip');

  // The shopper keeps 'Mis ventas' open: it follows the shop's steps live, without a reload.
  await page.goto('/account?tab=sales');
  const panel = page.getByRole('tabpanel');
  const sale = panel.getByRole('listitem').filter({ has: page.getByRole('heading', { name: new RegExp(`^Venta ${code} · `) }) });
  await expect(sale.getByRole('heading', { level: 3 })).toHaveText(`Venta ${code} · Por recibir`);

  // 2. The admin, in Compras, receives the cards, splits one copy off and downgrades it to MP.
  const adminContext = await browser.newContext({ viewport: PHONE, locale: 'es-MX', timezoneId: 'America/Mexico_City' });
  const admin = await adminContext.newPage();
  await signInAs(admin, ADMIN.email, ADMIN.password);
  await admin.goto('/admin/compras');
  const compras = admin.getByRole('main');
  await compras.getByRole('button', { name: `Ver venta ${code}` }).click();
  const detail = compras.getByRole('region', { name: new RegExp(`^Venta ${code} · `) });
  await expect(detail.getByRole('heading', { level: 2 })).toHaveText(`Venta ${code} · Por recibir`);
  await detail.getByRole('button', { name: 'Marcar como recibida' }).click();
  await expect(detail.getByRole('heading', { level: 2 })).toHaveText(`Venta ${code} · Recibida`);
  await detail.getByRole('form', { name: 'Línea 1' }).getByRole('button', { name: 'Separar 1 copia' }).click();
  await expect(detail.getByTestId('purchase-line')).toHaveCount(2);
  await expect(detail.getByTestId('purchase-line').nth(1)).toContainText(`Línea 2: ${CARD.name} · LP · ${COPIES.languageLabel} · ${COPIES.finishLabel} × 1`);

  const second = detail.getByRole('form', { name: 'Línea 2' });
  await second.getByLabel('Condición').selectOption({ label: 'Jugada (MP)' });
  await second.getByRole('button', { name: 'Guardar revisión' }).click();
  // The price follows the condition.
  await expect(detail.getByTestId('purchase-line').nth(1)).toContainText(`× 1 · ${formatCentavos(prices.cash.MP)}`);
  await expect(detail.getByTestId('purchase-line').nth(1)).toContainText('Revisada');
  await detail.getByRole('form', { name: 'Línea 1' }).getByRole('button', { name: 'Guardar revisión' }).click();
  await expect(detail.getByTestId('purchase-line').nth(0)).toContainText('Revisada');
  await expect(detail.getByTestId('purchase-line').nth(0)).toContainText(`× 1 · ${formatCentavos(prices.cash.LP)}`);
  await expectNoAxeViolations(admin, 'Compras with the submission open');
  await expectFitsPhone(admin, testInfo, 'Compras with the submission open');
  await detail.getByRole('button', { name: 'Enviar oferta' }).click();
  await expect(detail.getByRole('heading', { level: 2 })).toHaveText(`Venta ${code} · Oferta ajustada`);
  const offer = (prices.credit.LP + prices.credit.MP) as Centavos;
  await expect(detail.getByText(`Oferta: ${formatCentavos(offer)}`)).toBeVisible();

  // 3. The shopper's open 'Mis ventas' shows the adjusted offer, and they accept it with a double click.
  await expect(sale.getByRole('heading', { level: 3 })).toHaveText(`Venta ${code} · Oferta ajustada`);
  await expect(sale.getByTestId('sale-offer')).toHaveText(formatCentavos(offer));
  await expect(sale).toContainText('Condición LP → MP');
  await expectNoAxeViolations(page, "'Mis ventas' with a submission");
  await expectFitsPhone(page, testInfo, "'Mis ventas' with a submission");
  const accepts: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes('/rpc/accept_buylist_offer')) accepts.push(request.url());
  });
  await sale.getByRole('button', { name: 'Aceptar la oferta' }).dblclick();
  await expect(sale.getByRole('heading', { level: 3 })).toHaveText(`Venta ${code} · Pagada`);
  await expect(sale.getByRole('definition').last()).toHaveText(formatCentavos(offer));

  // 4–5. Paid once, exactly the adjusted offer in saldo; the copies entered the stock.
  const credits = await rows<{ amount: number }>(`store_credit_entries?user_id=eq.${shopper.id}&reason=eq.buylist_sale&select=amount`);
  expect(credits.map((entry) => Number(entry.amount))).toEqual([offer]);
  expect(accepts, 'the double click sends the acceptance once').toHaveLength(1);
  expect(await balance(shopper.id)).toBe(balanceBefore + offer);
  const stockAfter = await offerStock();
  expect(stockAfter.LP).toBe((stockBefore.LP ?? 0) + 1);
  expect(stockAfter.MP).toBe((stockBefore.MP ?? 0) + 1);

  await admin.reload();
  await expect(compras.getByTestId('purchase-row').filter({ hasText: code }).getByRole('cell').nth(2)).toHaveText('Pagada');

  // The e-mail of each step reached the outbox, once.
  const steps = ['submitted', 'received', 'offer', 'paid'];
  const mails = await rows<{ kind: string; to_address: string; subject: string; text_body: string }>(
    `mail_outbox?dedupe_key=in.(${steps.map((step) => `"buylist:${step}:${submission!.id}"`).join(',')})&select=kind,to_address,subject,text_body`,
  );
  expect(mails.map((mail) => mail.kind).sort()).toEqual(steps.map((step) => `buylist_${step}`).sort());
  expect(new Set(mails.map((mail) => mail.to_address))).toEqual(new Set([shopper.email]));
  // The adjusted offer's e-mail names the offer in saldo and each line as the admin left it.
  const offerMail = mails.find((mail) => mail.kind === 'buylist_offer')!;
  expect(offerMail.subject).toBe(`Oferta ajustada de tu venta ${code}`);
  expect(offerMail.text_body).toContain(formatCentavos(offer));
  // Each copy as the shop names it everywhere, and the condition the shop found.
  expect(offerMail.text_body).toContain(`1 × ${CARD.name} · MP · ${COPIES.languageLabel} · ${COPIES.finishLabel} (condición LP → MP)`);
  expect(offerMail.text_body).toContain(`1 × ${CARD.name} · LP · ${COPIES.languageLabel} · ${COPIES.finishLabel}\n`);
  await adminContext.close();
});

test("the packing slip of a sale that is not the shopper's reads as not found, and passes axe", async ({ page }) => {
  const shopper = await createConfirmedUser('guia');
  await signInAs(page, shopper.email, shopper.password);
  await page.goto('/vende/guia?id=00000000-0000-4000-8000-000000000000');
  await expect(page.getByRole('alert')).toHaveText('No encontramos esa venta en tu cuenta.');
  await expectNoAxeViolations(page, '/vende/guia');
});
