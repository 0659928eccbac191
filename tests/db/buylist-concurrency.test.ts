/**
 * The buylist under real concurrency, on a throwaway PostgreSQL server: twenty shoppers sending the
 * last wanted copies of a card at once get exactly those copies reserved and the rest refused with
 * 'La tienda ya no compra más de esta carta'; twenty acceptances of one offer at once (a double
 * click many times over), and two admins sending an unchanged offer at once, pay it once.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyMigrations } from 'local-supabase/migrate';
import { beginAsUser, closeAll } from './pg-requests.ts';
import { connectTo, pgServerSupport, startPgServer, type PgServer } from './pg-server.ts';
import { ROOT_DIR } from './support.ts';

const support = pgServerSupport();
if (!support.ok) console.log(`buylist-concurrency.test.ts: se omite, ${support.reason}`);

const CONNECTIONS = 20;
const CARD = 'race-luffy-op05-119';
const ADMIN = '60000000-0000-4000-a000-0000000000ad';
const SECOND_ADMIN = '60000000-0000-4000-a000-0000000000ae';
const shopper = (i: number) => `60000000-0000-4000-a000-${String(i + 1).padStart(12, '0')}`;

type Result = { ok: true; value: Record<string, unknown> } | { ok: false; message: string; detail: string | undefined };

describe.skipIf(!support.ok)('buylist under concurrency (PostgreSQL server)', () => {
  let server: PgServer;
  let admin: pg.Client;
  const clients: pg.Client[] = [];
  let request = 0;

  /** Runs call i on client i as user i, every transaction begun first and then fired together. */
  async function atOnce(calls: Array<{ user: string; sql: string; params: unknown[] }>): Promise<Result[]> {
    await Promise.all(calls.map(({ user }, i) => beginAsUser(clients[i]!, user)));
    return Promise.all(
      calls.map(async ({ sql, params }, i): Promise<Result> => {
        const client = clients[i]!;
        try {
          const { rows } = await client.query<{ r: Record<string, unknown> }>(sql, params);
          await client.query('commit');
          return { ok: true, value: rows[0]!.r };
        } catch (err) {
          await client.query('rollback');
          const e = err as { message: string; detail?: string };
          return { ok: false, message: e.message, detail: e.detail };
        }
      }),
    );
  }

  /** One call as `user`, committed. */
  async function as(user: string, sql: string, params: unknown[]): Promise<Record<string, unknown>> {
    await beginAsUser(admin, user);
    try {
      const { rows } = await admin.query<{ r: Record<string, unknown> }>(sql, params);
      await admin.query('commit');
      return rows[0]!.r;
    } catch (err) {
      await admin.query('rollback');
      throw err;
    }
  }

  const submitSql = 'select public.submit_buylist($1, $2::jsonb, $3) as r';
  const lpCopy = (quantity: number) => JSON.stringify([{ productId: CARD, condition: 'LP', language: 'en', finish: 'parallel', quantity }]);
  const newRequest = () => `60000000-0000-4000-e000-${String((request += 1)).padStart(12, '0')}`;

  async function entry(): Promise<{ wanted: number; reserved: number; bought: number }> {
    const { rows } = await admin.query('select wanted, reserved, bought from public.buylist_entries where product_id = $1', [CARD]);
    return rows[0];
  }

  async function balance(user: string): Promise<{ balance: number; credits: number }> {
    const { rows } = await admin.query(
      `select coalesce((select balance from public.store_credit_accounts where user_id = $1), 0)::bigint as balance,
              (select count(*) from public.store_credit_entries where user_id = $1 and reason = 'buylist_sale')::int as credits`,
      [user],
    );
    return { balance: Number(rows[0].balance), credits: rows[0].credits };
  }

  beforeAll(async () => {
    server = await startPgServer();
    admin = await connectTo(server);
    await applyMigrations(async (sql) => void (await admin.query(sql)), ROOT_DIR, { seed: false });
    await admin.query("insert into public.franchises (id, name) values ('one-piece', 'One Piece') on conflict do nothing");
    await admin.query(`insert into public.products (id, name, price, stock, franchise_id) values ($1, 'Monkey.D.Luffy', 3799, 1, 'one-piece')`, [CARD]);
    await admin.query(`insert into public.card_printings (product_id, expansion, collector_number, rarity) values ($1, 'OP05', 'OP05-119', 'SEC')`, [CARD]);
    await admin.query(`insert into public.card_offers (product_id, condition, language, finish, price, stock) values ($1, 'LP', 'en', 'parallel', 3849, 0)`, [
      CARD,
    ]);
    await admin.query(`insert into public.buylist_entries (product_id, wanted, nm_price) values ($1, 3, 2400)`, [CARD]);
    for (let i = 0; i < CONNECTIONS; i += 1) {
      await admin.query('insert into auth.users (id, email) values ($1, $2)', [shopper(i), `vende${i}@correo.mx`]);
    }
    await admin.query('insert into auth.users (id, email) values ($1, $2), ($3, $4)', [ADMIN, 'jefe@correo.mx', SECOND_ADMIN, 'socia@correo.mx']);
    await admin.query('update public.profiles set is_admin = true where id in ($1, $2)', [ADMIN, SECOND_ADMIN]);
    for (let i = 0; i < CONNECTIONS; i += 1) clients.push(await connectTo(server));
  });

  afterAll(() => closeAll(server, admin, clients));

  it('twenty shoppers send the last three wanted copies at once: exactly three are reserved, the rest refused', async () => {
    const results = await atOnce(
      Array.from({ length: CONNECTIONS }, (_, i) => ({ user: shopper(i), sql: submitSql, params: [newRequest(), lpCopy(1), 'saldo'] })),
    );
    const reserved = results.filter((r) => r.ok);
    const refused = results.filter((r): r is Extract<Result, { ok: false }> => !r.ok);
    expect(reserved).toHaveLength(3);
    expect(refused).toHaveLength(CONNECTIONS - 3);
    for (const r of refused)
      expect({ message: r.message, detail: r.detail }).toEqual({ message: 'La tienda ya no compra más de esta carta', detail: `not_wanted:${CARD}` });
    expect(await entry()).toEqual({ wanted: 3, reserved: 3, bought: 0 });
    const { rows } = await admin.query(
      "select count(*)::int as n, sum(l.quantity)::int as units from public.buylist_submissions s join public.buylist_submission_lines l on l.submission_id = s.id where s.status = 'por_recibir'",
    );
    expect(rows[0]).toEqual({ n: 3, units: 3 });
  });

  it('two copies each for the last three: one shopper gets two reserved, the others are refused until one copy is left', async () => {
    await admin.query("update public.buylist_submissions set status = 'cancelada' where status = 'por_recibir'");
    await admin.query('update public.buylist_entries set reserved = 0 where product_id = $1', [CARD]);
    const results = await atOnce(
      Array.from({ length: CONNECTIONS }, (_, i) => ({ user: shopper(i), sql: submitSql, params: [newRequest(), lpCopy(2), 'saldo'] })),
    );
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    const refused = results.filter((r): r is Extract<Result, { ok: false }> => !r.ok);
    expect(new Set(refused.map((r) => r.detail))).toEqual(new Set([`not_wanted:${CARD}`]));
    expect(await entry()).toMatchObject({ reserved: 2 });
  });

  it('twenty acceptances of one adjusted offer at once pay it once', async () => {
    await admin.query("update public.buylist_submissions set status = 'cancelada' where status = 'por_recibir'");
    await admin.query('update public.buylist_entries set reserved = 0, wanted = 10 where product_id = $1', [CARD]);
    const seller = shopper(0);
    const before = await balance(seller);
    const sent = await as(seller, submitSql, [newRequest(), lpCopy(2), 'saldo']);
    await as(ADMIN, 'select public.admin_buylist_receive($1) as r', [sent.id]);
    const { rows } = await admin.query('select id from public.buylist_submission_lines where submission_id = $1', [sent.id]);
    await as(ADMIN, "select public.admin_buylist_review_line($1, 'MP') as r", [rows[0].id]);
    await as(ADMIN, 'select public.admin_buylist_send_offer($1) as r', [sent.id]);
    const results = await atOnce(
      Array.from({ length: CONNECTIONS }, () => ({ user: seller, sql: 'select public.accept_buylist_offer($1) as r', params: [sent.id] })),
    );
    expect(results.every((r) => r.ok)).toBe(true);
    expect(results.filter((r) => r.ok && r.value.changed === true)).toHaveLength(1);
    const after = await balance(seller);
    // Two MP copies at $1,440.00, $1,800.00 each in saldo a favor.
    expect(after.balance - before.balance).toBe(360000);
    expect(after.credits - before.credits).toBe(1);
    const stock = await admin.query("select stock from public.card_offers where product_id = $1 and condition = 'MP'", [CARD]);
    expect(stock.rows).toEqual([{ stock: 2 }]);
  });

  it('two admins sending an unchanged offer at once: accepted and paid once', async () => {
    const seller = shopper(1);
    const before = await balance(seller);
    const sent = await as(seller, submitSql, [newRequest(), lpCopy(1), 'saldo']);
    await as(ADMIN, 'select public.admin_buylist_receive($1) as r', [sent.id]);
    const results = await atOnce([ADMIN, SECOND_ADMIN].map((user) => ({ user, sql: 'select public.admin_buylist_send_offer($1) as r', params: [sent.id] })));
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    expect(results.filter((r) => !r.ok).map((r) => (r.ok ? '' : r.detail))).toEqual(['invalid_status:pagada']);
    const after = await balance(seller);
    expect(after.balance - before.balance).toBe(240000);
    expect(after.credits - before.credits).toBe(1);
  });
});
