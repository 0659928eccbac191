/**
 * The buylist in the database (docs/buylist.md): prices per condition with the saldo bonus and the
 * default rule, submissions priced and reserved by the database with their refusals, the release
 * of a submission not received in 14 days, the owner's review and offer, one payment, and the
 * accepted copies entering the right offer.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PGlite } from '@electric-sql/pglite';
import { attempt, commit, migratedPglite, type ApiRole, type Outcome } from './support.ts';

const ANA = '00000000-0000-4000-a000-0000000014a1';
const BETO = '00000000-0000-4000-a000-0000000014b2';
const ADMIN = '00000000-0000-4000-a000-0000000014ad';
const LUFFY = 'op-luffy-op05-119';
const ZORO = 'op-zoro-op05-060';
const NAMI = 'op-nami-op05-070';
const LP_EN = '00000000-0000-4000-d000-000000001401';
/** A valid CLABE: 002 (Banamex), check digit 1. */
const CLABE = '002010077777777771';

type Actor = 'anon' | 'ana' | 'beto' | 'admin' | 'service';
const ACTORS: Record<Actor, [ApiRole, string | undefined]> = {
  anon: ['anon', undefined],
  ana: ['authenticated', ANA],
  beto: ['authenticated', BETO],
  admin: ['authenticated', ADMIN],
  service: ['service_role', undefined],
};

let db: PGlite;
let requests = 0;

async function sql<T = Record<string, unknown>>(statement: string, params: unknown[] = []): Promise<T[]> {
  const outcome = await commit<T>(db, 'postgres', undefined, statement, params);
  if (!outcome.ok) throw new Error(`${statement}: ${outcome.error?.message}`);
  return outcome.rows;
}

function committedAs(actor: Actor, statement: string, params: unknown[] = []): Promise<Outcome<{ r: Record<string, unknown> }>> {
  const [role, sub] = ACTORS[actor];
  return commit<{ r: Record<string, unknown> }>(db, role, sub, statement, params);
}

/** Calls a function returning jsonb as `actor`, committed; throws with the refusal when refused. */
async function call(actor: Actor, fn: string, args: unknown[]): Promise<Record<string, unknown>> {
  const placeholders = args.map((_, i) => `$${i + 1}`).join(', ');
  const outcome = await committedAs(actor, `select public.${fn}(${placeholders}) as r`, args);
  if (!outcome.ok) throw new Error(`${fn}: ${outcome.error?.message} (${outcome.error?.detail})`);
  return outcome.rows[0]!.r;
}

/** A submission's refusal: message, detail and hint. */
async function refusal(actor: Actor, fn: string, args: unknown[]): Promise<{ message: string; detail?: string; hint?: string; code?: string }> {
  const placeholders = args.map((_, i) => `$${i + 1}`).join(', ');
  const [role, sub] = ACTORS[actor];
  const outcome = await attempt(db, role, sub, `select public.${fn}(${placeholders}) as r`, args);
  expect(outcome.ok).toBe(false);
  return { message: outcome.error!.message, detail: outcome.error!.detail, hint: outcome.error!.hint, code: outcome.error!.code };
}

function line(productId: string, condition: string, quantity: number, language = 'en', finish = 'parallel') {
  return { productId, condition, language, finish, quantity };
}

function submit(actor: Actor, lines: unknown[], payout = 'saldo', clabe: string | null = null, requestId = newRequest()) {
  return call(actor, 'submit_buylist', [requestId, JSON.stringify(lines), payout, clabe]);
}

function newRequest(): string {
  requests += 1;
  return `00000000-0000-4000-e000-${String(requests).padStart(12, '0')}`;
}

async function entry(productId: string): Promise<{ wanted: number; reserved: number; bought: number }> {
  const [row] = await sql<{ wanted: number; reserved: number; bought: number }>(
    'select wanted, reserved, bought from public.buylist_entries where product_id = $1 and language is null and finish is null',
    [productId],
  );
  return row!;
}

async function balance(user: string): Promise<number> {
  const [row] = await sql<{ balance: string }>('select coalesce((select balance from public.store_credit_accounts where user_id = $1), 0)::text as balance', [
    user,
  ]);
  return Number(row!.balance);
}

async function status(id: unknown): Promise<string> {
  const [row] = await sql<{ status: string }>('select status from public.buylist_submissions where id = $1', [id]);
  return row!.status;
}

async function linesOf(id: unknown): Promise<Array<{ id: string; quantity: number; condition: string }>> {
  return sql('select id, quantity, condition::text from public.buylist_submission_lines where submission_id = $1 order by position', [id]);
}

beforeAll(async () => {
  db = await migratedPglite();
  await sql(`insert into auth.users (id, email, raw_user_meta_data) values
    ('${ANA}', 'ana14@correo.mx', '{"username":"ana14"}'),
    ('${BETO}', 'beto14@correo.mx', '{"username":"beto14"}'),
    ('${ADMIN}', 'admin14@correo.mx', '{"username":"admin14"}')`);
  await sql(`update public.profiles set is_admin = true where id = '${ADMIN}'`);
  await sql(`insert into public.franchises (id, name) values ('one-piece', 'One Piece')`);
  await sql(`insert into public.products (id, name, price, stock, franchise_id) values
    ('${LUFFY}', 'Monkey.D.Luffy (OP05-119)', 3799, 6, 'one-piece'),
    ('${ZORO}', 'Roronoa Zoro (OP05-060)', 300, 2, 'one-piece'),
    ('${NAMI}', 'Nami (OP05-070)', 80, 1, 'one-piece')`);
  await sql(`insert into public.card_printings (product_id, expansion, collector_number, rarity, name_en) values
    ('${LUFFY}', 'OP05', 'OP05-119', 'SEC', 'Monkey.D.Luffy'),
    ('${ZORO}', 'OP05', 'OP05-060', 'SR', 'Roronoa Zoro'),
    ('${NAMI}', 'OP05', 'OP05-070', 'R', 'Nami')`);
  await sql(`insert into public.card_offers (id, product_id, condition, language, finish, price, stock) values
    ('${LP_EN}', '${LUFFY}', 'LP', 'en', 'parallel', 3849, 3)`);
  await sql(`insert into public.card_offers (product_id, condition, language, finish, price, stock) values
    ('${LUFFY}', 'NM', 'en', 'parallel', 4749, 2),
    ('${LUFFY}', 'NM', 'ja', 'parallel', 3799, 1),
    ('${ZORO}', 'NM', 'en', 'normal', 320, 1),
    ('${ZORO}', 'NM', 'ja', 'normal', 301, 1),
    ('${NAMI}', 'LP', 'en', 'normal', 80, 1)`);
  await sql(`insert into public.buylist_entries (product_id, wanted, nm_price) values ('${LUFFY}', 8, 2400)`);
  await sql(`insert into public.buylist_entries (product_id, wanted) values ('${ZORO}', 30), ('${NAMI}', 5)`);
});

afterAll(async () => {
  await db?.close();
});

describe('buylist prices', () => {
  it('pays each condition its share of the NM price, and the saldo a favor price carries the bonus', async () => {
    const [row] = await sql(`select * from public.buylist_items where product_id = '${LUFFY}'`);
    expect(row).toMatchObject({ collector_number: 'OP05-119', default_rule: false, still_wanted: 8, limit_per_shopper: 4 });
    const money = (key: string) => Number((row as Record<string, unknown>)[key]);
    expect(['nm', 'lp', 'mp', 'hp', 'dmg'].map((c) => money(`cash_${c}`))).toEqual([2400, 1920, 1440, 960, 480]);
    expect(['nm', 'lp', 'mp', 'hp', 'dmg'].map((c) => money(`credit_${c}`))).toEqual([3000, 2400, 1800, 1200, 600]);
  });

  it('the default rule pays its percent of the cheapest NM copy, and an entry without one is not published', async () => {
    const [zoro] = await sql<{ default_rule: boolean; cash_nm: string; cash_lp: string; credit_lp: string }>(
      `select default_rule, cash_nm::text, cash_lp::text, credit_lp::text from public.buylist_items where product_id = '${ZORO}'`,
    );
    // 50 % of $301.00 = $150.50; LP 80 % = $120.40; +25 % = $150.50.
    expect(zoro).toEqual({ default_rule: true, cash_nm: '150.50', cash_lp: '120.40', credit_lp: '150.50' });
    expect(await sql(`select 1 from public.buylist_items where product_id = '${NAMI}'`)).toEqual([]);
  });

  it('the owner edits the shares and the bonus, and the published prices follow', async () => {
    const saved = await committedAs('admin', 'update public.buylist_settings set share_lp = 75, credit_bonus_percent = 30 returning share_lp');
    expect(saved.ok).toBe(true);
    const [row] = await sql<{ cash_lp: string; credit_lp: string }>(
      `select cash_lp::text, credit_lp::text from public.buylist_items where product_id = '${LUFFY}'`,
    );
    expect(row).toEqual({ cash_lp: '1800.00', credit_lp: '2340.00' });
    await sql('update public.buylist_settings set share_lp = 80, credit_bonus_percent = 25');
  });

  it('checks a CLABE by its check digit', async () => {
    const rows = await sql<{ ok: boolean }[]>(
      `select public.clabe_is_valid(c) as ok from unnest(array['${CLABE}', '002010077777777770', '00201007777777777', '00201007777777777a', null]) as c`,
    );
    expect(rows.map((r) => (r as unknown as { ok: boolean }).ok)).toEqual([true, false, false, false, false]);
  });
});

describe('submitting', () => {
  it('prices the lines itself, reserves the copies and gives the submission a number and 14 days', async () => {
    const before = await entry(LUFFY);
    const sent = await submit('beto', [line(LUFFY, 'LP', 1)]);
    expect(sent).toMatchObject({ status: 'por_recibir', totalCash: 1920, totalCredit: 2400, payout: 'saldo', created: true });
    expect(String(sent.code)).toMatch(/^V-\d{6}$/);
    expect((await entry(LUFFY)).reserved).toBe(before.reserved + 1);
    const [row] = await sql<{ days: number }>('select extract(day from expires_at - created_at)::int as days from public.buylist_submissions where id = $1', [
      sent.id,
    ]);
    expect(row!.days).toBe(14);
    const [still] = await sql<{ still_wanted: number }>(`select still_wanted from public.buylist_items where product_id = '${LUFFY}'`);
    expect(still!.still_wanted).toBe(8 - before.reserved - before.bought - 1);
    const mail = await sql('select kind from public.mail_outbox where dedupe_key = $1', [`buylist:submitted:${sent.id}`]);
    expect(mail).toEqual([{ kind: 'buylist_submitted' }]);
    await call('beto', 'cancel_buylist_submission', [sent.id]);
    expect((await entry(LUFFY)).reserved).toBe(before.reserved);
  });

  it('answers the same request once', async () => {
    const request = newRequest();
    const first = await submit('beto', [line(ZORO, 'NM', 1)], 'saldo', null, request).catch((e: Error) => e);
    // $150.50 in cash is above the minimum.
    expect(first).toMatchObject({ created: true });
    const again = await submit('beto', [line(ZORO, 'NM', 1)], 'saldo', null, request);
    expect(again).toMatchObject({ id: (first as Record<string, unknown>).id, created: false });
    expect(await sql('select id from public.buylist_submissions where request_id = $1', [request])).toHaveLength(1);
    await call('beto', 'cancel_buylist_submission', [again.id]);
  });

  it('refuses under the minimum, above the limit, what the shop no longer wants, what it does not buy and a wrong CLABE', async () => {
    const args = (lines: unknown[], payout = 'saldo', clabe: string | null = null) => [newRequest(), JSON.stringify(lines), payout, clabe];
    expect(await refusal('beto', 'submit_buylist', args([line(ZORO, 'DMG', 1)]))).toMatchObject({
      message: 'El mínimo para vender es $100.00.',
      detail: 'below_minimum',
    });
    expect(await refusal('beto', 'submit_buylist', args([line(LUFFY, 'LP', 3), line(LUFFY, 'MP', 2)]))).toMatchObject({
      detail: `limit_exceeded:${LUFFY}`,
      hint: '4',
    });
    expect(await refusal('beto', 'submit_buylist', args([line(NAMI, 'LP', 1, 'en', 'normal')]))).toMatchObject({
      message: 'La tienda no compra esta carta.',
      detail: `not_buying:${NAMI}`,
    });
    expect(await refusal('beto', 'submit_buylist', args([line(LUFFY, 'LP', 1)], 'transferencia', '002010077777777770'))).toMatchObject({
      detail: 'invalid_clabe',
    });
    expect(
      await refusal('beto', 'submit_buylist', args([{ productId: LUFFY, condition: 'XX', language: 'en', finish: 'parallel', quantity: 1 }])),
    ).toMatchObject({
      detail: 'invalid_line:1',
    });
    expect(await refusal('anon', 'submit_buylist', args([line(LUFFY, 'LP', 1)]))).toMatchObject({ code: '42501' });
    await sql(`update public.buylist_entries set wanted = bought + reserved + 1 where product_id = '${LUFFY}'`);
    expect(await refusal('beto', 'submit_buylist', args([line(LUFFY, 'LP', 2)]))).toMatchObject({
      message: 'La tienda ya no compra más de esta carta',
      detail: `not_wanted:${LUFFY}`,
      hint: '1',
    });
    await sql(`update public.buylist_entries set wanted = 8 where product_id = '${LUFFY}'`);
    expect(await sql(`select 1 from public.buylist_submissions where user_id = '${BETO}' and status = 'por_recibir'`)).toEqual([]);
  });

  it('releases the reservation of a submission not received in 14 days', async () => {
    const before = await entry(LUFFY);
    const sent = await submit('beto', [line(LUFFY, 'HP', 2)], 'transferencia', CLABE);
    expect((await entry(LUFFY)).reserved).toBe(before.reserved + 2);
    const early = await committedAs('service', 'select public.release_expired_buylist_submissions() as r');
    expect(early.rows[0]!.r).toBe(0);
    // Fourteen days later.
    await sql(
      "update public.buylist_submissions set created_at = created_at - interval '14 days', expires_at = expires_at - interval '14 days' where id = $1",
      [sent.id],
    );
    const swept = await committedAs('service', 'select public.release_expired_buylist_submissions() as r');
    expect(swept.rows[0]!.r).toBe(1);
    expect(await status(sent.id)).toBe('vencida');
    expect((await entry(LUFFY)).reserved).toBe(before.reserved);
    expect(await sql('select action, actor from public.buylist_events where submission_id = $1 order by id', [sent.id])).toEqual([
      { action: 'submitted', actor: BETO },
      { action: 'expired', actor: null },
    ]);
    expect(await sql('select to_address from public.mail_outbox where dedupe_key = $1', [`buylist:expired:${sent.id}`])).toEqual([
      { to_address: 'beto14@correo.mx' },
    ]);
    const shopper = await refusal('beto', 'release_expired_buylist_submissions', []);
    expect(shopper.code).toBe('42501');
  });
});

describe("the owner's review and the payment", () => {
  it('2 LP copies, one downgraded to MP: the shopper accepts and is credited the adjusted offer with bonus once; stock enters the offers', async () => {
    const lpBefore = await sql<{ stock: number }>('select stock from public.card_offers where id = $1', [LP_EN]);
    const had = await balance(ANA);
    const sent = await submit('ana', [line(LUFFY, 'LP', 2)]);
    expect(sent).toMatchObject({ totalCash: 3840, totalCredit: 4800 });
    expect((await refusal('ana', 'admin_buylist_receive', [sent.id, null])).code).toBe('42501');
    expect(await call('admin', 'admin_buylist_receive', [sent.id, null])).toMatchObject({ status: 'recibida', changed: true });
    const [whole] = await linesOf(sent.id);
    const split = await call('admin', 'admin_buylist_split_line', [whole!.id, 1]);
    const lines = await linesOf(sent.id);
    expect(lines.map((l) => l.quantity)).toEqual([1, 1]);
    expect(await call('admin', 'admin_buylist_review_line', [split.lineId, 'MP', 0, null])).toMatchObject({ unitCash: 1440, unitCredit: 1800 });
    expect(await call('admin', 'admin_buylist_review_line', [whole!.id, 'LP', 0, null])).toMatchObject({ unitCash: 1920 });
    expect(await call('admin', 'admin_buylist_send_offer', [sent.id, null])).toMatchObject({ status: 'oferta_ajustada', offerCash: 3360, offerCredit: 4200 });
    const [offerMail] = await sql<{ kind: string; text_body: string }>('select kind, text_body from public.mail_outbox where dedupe_key = $1', [
      `buylist:offer:${sent.id}`,
    ]);
    expect(offerMail?.kind).toBe('buylist_offer');
    // Each copy as the shop names it everywhere, and the condition the shop found.
    expect(offerMail?.text_body).toContain('· LP · Inglés · Parallel');
    expect(offerMail?.text_body).toContain('· MP · Inglés · Parallel (condición LP → MP)');
    expect(offerMail?.text_body).not.toContain(' en · parallel');
    expect((await refusal('beto', 'accept_buylist_offer', [sent.id])).detail).toBe('submission_not_found');

    expect(await call('ana', 'accept_buylist_offer', [sent.id])).toMatchObject({ status: 'pagada', changed: true });
    expect(await call('ana', 'accept_buylist_offer', [sent.id])).toMatchObject({ status: 'pagada', changed: false });
    expect((await balance(ANA)) - had).toBe(420000);
    const credits = await sql<{ amount: string; reason: string }>(
      `select amount::text, reason from public.store_credit_entries where user_id = '${ANA}' and payment_provider = 'buylist'`,
    );
    expect(credits).toEqual([{ amount: '420000', reason: 'buylist_sale' }]);
    expect(await sql('select method, amount::text, status from public.buylist_payouts where submission_id = $1', [sent.id])).toEqual([
      { method: 'saldo', amount: '4200.00', status: 'pagado' },
    ]);

    // One LP copy onto the LP · Inglés · Parallel offer; the MP copy makes a new offer at the NM price × 60 %.
    expect((await sql<{ stock: number }>('select stock from public.card_offers where id = $1', [LP_EN]))[0]!.stock).toBe(lpBefore[0]!.stock + 1);
    expect(
      await sql(
        `select stock, price::text from public.card_offers where product_id = '${LUFFY}' and condition = 'MP' and language = 'en' and finish = 'parallel'`,
      ),
    ).toEqual([{ stock: 1, price: '2849.40' }]);
    expect(await entry(LUFFY)).toMatchObject({ reserved: 0, bought: 2 });
    const events = await sql<{ action: string; actor: string | null }>('select action, actor from public.buylist_events where submission_id = $1 order by id', [
      sent.id,
    ]);
    expect(events.map((e) => e.action)).toEqual(['submitted', 'received', 'line_split', 'line_reviewed', 'line_reviewed', 'offer_sent', 'accepted', 'paid']);
    expect(events.filter((e) => ['received', 'line_reviewed', 'offer_sent'].includes(e.action)).every((e) => e.actor === ADMIN)).toBe(true);
  });

  it('an offer equal to what was declared is accepted and paid at once; a transfer waits for its reference, paid once', async () => {
    const sent = await submit('beto', [line(ZORO, 'NM', 1, 'ja', 'normal')], 'transferencia', CLABE);
    await call('admin', 'admin_buylist_receive', [sent.id, null]);
    expect(await call('admin', 'admin_buylist_send_offer', [sent.id, null])).toMatchObject({ status: 'aceptada', offerCash: 150.5 });
    expect(await sql('select method, amount::text, status, clabe from public.buylist_payouts where submission_id = $1', [sent.id])).toEqual([
      { method: 'transferencia', amount: '150.50', status: 'pendiente', clabe: CLABE },
    ]);
    // The NM · Japonés · Normal offer had 1 copy.
    expect(await sql(`select stock from public.card_offers where product_id = '${ZORO}' and language = 'ja'`)).toEqual([{ stock: 2 }]);
    expect((await refusal('admin', 'admin_buylist_mark_paid', [sent.id, ' '])).detail).toBe('reference_required');
    expect(await call('admin', 'admin_buylist_mark_paid', [sent.id, 'SPEI-123'])).toMatchObject({ status: 'pagada', changed: true });
    expect(await call('admin', 'admin_buylist_mark_paid', [sent.id, 'SPEI-999'])).toMatchObject({ reference: 'SPEI-123', changed: false });
    expect(await sql('select count(*)::int as n from public.buylist_payouts where submission_id = $1', [sent.id])).toEqual([{ n: 1 }]);
  });

  it('rejected copies need a reason; the shopper may ask for everything back and the owner ships it with a tracking number', async () => {
    const before = await entry(ZORO);
    const sent = await submit('beto', [line(ZORO, 'NM', 2, 'en', 'normal')]);
    await call('admin', 'admin_buylist_receive', [sent.id, null]);
    const [only] = await linesOf(sent.id);
    expect((await refusal('admin', 'admin_buylist_review_line', [only!.id, 'NM', 1, null])).detail).toBe('reason_required');
    await call('admin', 'admin_buylist_review_line', [only!.id, 'NM', 1, 'Es una reimpresión']);
    expect(await call('admin', 'admin_buylist_send_offer', [sent.id, null])).toMatchObject({ status: 'oferta_ajustada', offerCash: 150.5 });
    expect(await call('beto', 'return_buylist_submission', [sent.id])).toMatchObject({ status: 'por_devolver' });
    expect((await refusal('beto', 'accept_buylist_offer', [sent.id])).detail).toBe('invalid_status:por_devolver');
    expect(await entry(ZORO)).toMatchObject({ reserved: before.reserved, bought: before.bought });
    expect(await call('admin', 'admin_buylist_mark_returned', [sent.id, 'DHL 123456'])).toMatchObject({ status: 'devuelta' });
    expect(await sql('select return_tracking from public.buylist_submissions where id = $1', [sent.id])).toEqual([{ return_tracking: 'DHL 123456' }]);
  });
});

describe('the back office list', () => {
  it('lists the submissions with who sent them, by status and by number, for admins only', async () => {
    const sent = await submit('beto', [line(LUFFY, 'NM', 1)]);
    const listed = await committedAs(
      'admin',
      "select code, status, customer_email, copies::int as copies from public.admin_buylist_submissions('por_recibir')",
    );
    expect(listed.rows).toContainEqual({ code: sent.code, status: 'por_recibir', customer_email: 'beto14@correo.mx', copies: 1 });
    expect(listed.rows.every((r) => (r as unknown as { status: string }).status === 'por_recibir')).toBe(true);
    const number = String(sent.code).replace('V-', '');
    for (const search of [String(sent.code), number, String(Number(number))]) {
      const found = await committedAs('admin', 'select id from public.admin_buylist_submissions(null, $1)', [search]);
      expect(found.rows, search).toEqual([{ id: sent.id }]);
    }
    expect((await refusal('beto', 'admin_buylist_submissions', [null, null])).code).toBe('42501');
    await call('beto', 'cancel_buylist_submission', [sent.id]);
  });
});

describe('sell list', () => {
  it('is saved for the shopper alone and emptied of what they submit', async () => {
    const add = await committedAs(
      'ana',
      `insert into public.buylist_sell_list_items (product_id, condition, language, finish, quantity) values ('${ZORO}', 'NM', 'en', 'normal', 1) returning user_id`,
    );
    expect(add.rows).toEqual([{ user_id: ANA }]);
    expect((await attempt(db, 'authenticated', BETO, 'select id from public.buylist_sell_list_items')).rows).toEqual([]);
    await submit('ana', [line(ZORO, 'NM', 1, 'en', 'normal')]);
    expect(await sql(`select id from public.buylist_sell_list_items where user_id = '${ANA}'`)).toEqual([]);
  });
});

describe('the demo buylist', () => {
  let seeded: PGlite;

  beforeAll(async () => {
    seeded = await migratedPglite({ seed: true });
  }, 240_000);

  afterAll(async () => {
    await seeded?.close();
  });

  it('publishes at least 50 priced printings, OP05-119 among them at its own price', async () => {
    const { rows } = await seeded.query<{ product_id: string; collector_number: string; cash_nm: string; cash_lp: string; still_wanted: number }>(
      'select product_id, collector_number, cash_nm::text, cash_lp::text, still_wanted from public.buylist_items order by product_id',
    );
    expect(rows.length).toBeGreaterThanOrEqual(50);
    expect(rows.every((r) => Number(r.cash_nm) > 0 && r.still_wanted > 0)).toBe(true);
    expect(rows.filter((r) => r.collector_number === 'OP05-119')).toEqual([
      { product_id: 'op-single-op-05-monkey-d-luffy-op05-119', collector_number: 'OP05-119', cash_nm: '2400.00', cash_lp: '1920.00', still_wanted: 8 },
    ]);
    const franchises = await seeded.query<{ n: number }>('select count(distinct franchise_id)::int as n from public.buylist_items');
    expect(franchises.rows[0]!.n).toBeGreaterThanOrEqual(2);
  });
});
