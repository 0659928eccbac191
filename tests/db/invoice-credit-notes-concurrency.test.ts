/**
 * Credit notes against the factura global under real concurrency, on a throwaway PostgreSQL
 * server: twenty sweeps queuing the same refund at once leave one credit note (the others answer
 * it as replayed), and twenty different refunds of one sale at once, each for more than half of
 * it, credit it once: the sale's part of the global is never credited twice.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyMigrations } from 'local-supabase/migrate';
import { closeAll } from './pg-requests.ts';
import { connectTo, pgServerSupport, startPgServer, type PgServer } from './pg-server.ts';
import { ROOT_DIR } from './support.ts';

const support = pgServerSupport();
if (!support.ok) console.log(`invoice-credit-notes-concurrency.test.ts: se omite, ${support.reason}`);

const USER = '51000000-0000-4000-a000-000000000001';
const CONNECTIONS = 20;
const SALE = 116_000;

type Outcome = { ok: true; value: { id: string; replayed: boolean } } | { ok: false; detail: string | undefined };

function concepts(amount: number): string {
  const base = Math.floor((50 * amount + 29) / 58);
  return JSON.stringify([{ description: 'Devolución', quantity: 1, productKey: '84111506', unitKey: 'ACT', amount, base, iva: amount - base }]);
}

describe.skipIf(!support.ok)('credit notes under concurrency (PostgreSQL server)', () => {
  let server: PgServer;
  let admin: pg.Client;
  const clients: pg.Client[] = [];
  let month = 0;

  /** Runs request i on client i as service_role, all begun first and then fired together. */
  async function atOnce(requests: Array<{ order: string; key: string; amount: number }>): Promise<Outcome[]> {
    await Promise.all(requests.map((_, i) => clients[i]!.query('begin; set local role service_role')));
    return Promise.all(
      requests.map(async ({ order, key, amount }, i): Promise<Outcome> => {
        const client = clients[i]!;
        try {
          const { rows } = await client.query(`select public.request_credit_note($1, $2, $3, $4::jsonb, '04', 'simulated') as r`, [
            order,
            key,
            amount,
            concepts(amount),
          ]);
          await client.query('commit');
          return { ok: true, value: rows[0].r };
        } catch (err) {
          await client.query('rollback');
          return { ok: false, detail: (err as { detail?: string }).detail };
        }
      }),
    );
  }

  /** A sale of $1,160.00 in its own month's factura global, issued, then refunded. */
  async function refundedSaleOfAGlobal(): Promise<string> {
    month += 1;
    const paidAt = `2025-${String(month).padStart(2, '0')}-10T18:00:00Z`;
    const { rows } = await admin.query(
      `insert into public.orders (user_id, subtotal, discount, shipping, total, status, paid_at, payment_method, payment_provider)
       values ($1, 1160, 0, 0, 1160, 'Pagado', $2, 'card', 'stripe') returning id`,
      [USER, paidAt],
    );
    const order = rows[0].id as string;
    await admin.query(`insert into public.order_items (order_id, product_id, quantity, price) values ($1, 'race-nc', 1, 1160)`, [order]);
    const made = await admin.query(
      `select public.create_global_invoice(2025, $1, array[$2::uuid], $3::jsonb,
         '{"rfc":"XAXX010101000","legal_name":"PUBLICO EN GENERAL","tax_regime":"616","tax_zip":"","cfdi_use":"S01"}',
         '04', 'simulated', null, '2026-01-02T00:00:00Z') as r`,
      [month, order, JSON.stringify([{ description: 'Venta', quantity: 1, productKey: '01010101', unitKey: 'ACT', amount: SALE, base: 100000, iva: 16000 }])],
    );
    const globalId = made.rows[0].r.id as string;
    const claimed = await admin.query('select attempts from public.claim_invoices(1, $1, null)', [globalId]);
    await admin.query('select public.complete_invoice($1, $2, $3, gen_random_uuid()::text)', [globalId, claimed.rows[0].attempts, `sim_inv_${globalId}`]);
    await admin.query(`select public.finish_order_refund($1, 'saldo-prueba', 'Reembolsado por la tienda', false)`, [order]);
    return order;
  }

  async function notesOf(order: string): Promise<Array<{ id: string; total: number }>> {
    const { rows } = await admin.query(`select id, round(total * 100)::bigint as total from public.invoices where kind = 'credit_note' and order_id = $1`, [
      order,
    ]);
    return rows.map((r) => ({ id: r.id, total: Number(r.total) }));
  }

  beforeAll(async () => {
    server = await startPgServer();
    admin = await connectTo(server);
    await applyMigrations(async (sql) => void (await admin.query(sql)), ROOT_DIR, { seed: false });
    await admin.query("insert into public.franchises (id, name) values ('pokemon', 'Pokémon') on conflict do nothing");
    await admin.query(`insert into public.products (id, name, price, stock, franchise_id) values ('race-nc', 'Caja de prueba', 1160, 1000, 'pokemon')`);
    await admin.query('insert into auth.users (id, email) values ($1, $2)', [USER, 'nota.carrera@correo.mx']);
    for (let i = 0; i < CONNECTIONS; i += 1) clients.push(await connectTo(server));
  });

  afterAll(() => closeAll(server, admin, clients));

  it('the same refund queued twenty times at once: one credit note', async () => {
    for (let round = 0; round < 3; round += 1) {
      const order = await refundedSaleOfAGlobal();
      const { rows } = await admin.query('select refund_key, amount from public.invoice_credit_notes_due($1)', ['simulated']);
      const due = rows.find((r) => r.refund_key.includes(order))!;
      expect(Number(due.amount)).toBe(SALE);
      const results = await atOnce(Array.from({ length: CONNECTIONS }, () => ({ order, key: due.refund_key as string, amount: SALE })));
      expect(results.every((r) => r.ok)).toBe(true);
      const notes = await notesOf(order);
      expect(notes).toEqual([{ id: notes[0]!.id, total: SALE }]);
      const answers = results.map((r) => (r.ok ? r.value : null));
      expect(answers.filter((a) => a && !a.replayed)).toHaveLength(1);
      expect(new Set(answers.map((a) => a?.id))).toEqual(new Set([notes[0]!.id]));
    }
  });

  it('twenty different refunds of one sale at once, each for more than half of it: credited once', async () => {
    const order = await refundedSaleOfAGlobal();
    const part = Math.floor(SALE * 0.6);
    const results = await atOnce(Array.from({ length: CONNECTIONS }, (_, i) => ({ order, key: `refund:carrera-${i}`, amount: part })));
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    expect(results.filter((r) => !r.ok).map((r) => (r.ok ? '' : r.detail))).toEqual(Array(CONNECTIONS - 1).fill('amount_exceeds_sale'));
    const notes = await notesOf(order);
    expect(notes.map((n) => n.total)).toEqual([part]);
  });
});
