/**
 * Credit notes against the factura global in the database: a refunded sale of an issued global
 * is found with the amount still to credit, queued once per refund (the same refund key replays),
 * never for more than the sale's part of the global (partial notes add up to it), only once the
 * global is issued and with the global's provider; the note carries the global's receiver, period
 * and folio fiscal, goes through the same queue, and only the back office reads it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PGlite } from '@electric-sql/pglite';
import { attempt, commit, migratedPglite } from './support.ts';

const ANA = '31000000-0000-4000-a000-000000000001';
const BETO = '31000000-0000-4000-a000-000000000002';
const ADMIN = '31000000-0000-4000-a000-0000000000ad';
const GLOBAL_UUID = '6F1C2A3B-4D5E-4F60-8A1B-2C3D4E5F6A7B';

let db: PGlite;
let globalId: string;
let soldA: string;
let soldB: string;
let outsider: string;

async function sql<T = Record<string, unknown>>(statement: string, params: unknown[] = []): Promise<T[]> {
  const outcome = await commit<T>(db, 'postgres', undefined, statement, params);
  if (!outcome.ok) throw new Error(`${statement}: ${outcome.error?.message}`);
  return outcome.rows;
}

async function paidOrder(user: string, total: number, paidAt: string): Promise<string> {
  const [row] = await sql<{ id: string }>(
    `insert into public.orders (user_id, subtotal, discount, shipping, total, status, paid_at, payment_method, payment_provider)
     values ($1, $2, 0, 0, $2, 'Pagado', $3, 'card', 'stripe') returning id`,
    [user, total, paidAt],
  );
  await sql(`insert into public.order_items (order_id, product_id, quantity, price) values ($1, 'pk-nc', 1, $2)`, [row!.id, total]);
  return row!.id;
}

/** One concept for `amount` centavos, IVA broken out as the shop does (base rounded half up). */
function concepts(amount: number, productKey = '84111506') {
  const base = Math.floor((50 * amount + 29) / 58);
  return JSON.stringify([{ description: 'Devolución', quantity: 1, productKey, unitKey: 'ACT', amount, base, iva: amount - base }]);
}

type Answer = { r: { id: string; status: string; replayed: boolean } };

function requestNote(order: string, key: string, amount: number, options: { provider?: string; conceptsAmount?: number } = {}) {
  return commit<Answer>(db, 'service_role', undefined, `select public.request_credit_note($1, $2, $3, $4::jsonb, '04', $5, $6) as r`, [
    order,
    key,
    amount,
    concepts(options.conceptsAmount ?? amount),
    options.provider ?? 'simulated',
    ADMIN,
  ]);
}

const due = (provider = 'simulated') =>
  sql<{ order_id: string; refund_key: string; amount: number; payment: Record<string, unknown> }>(
    'select order_id, refund_key, amount::int as amount, payment from public.invoice_credit_notes_due($1)',
    [provider],
  );

const refund = (order: string, ref: string) => sql(`select public.finish_order_refund($1, $2, 'Reembolsado por la tienda', false)`, [order, ref]);

beforeAll(async () => {
  db = await migratedPglite();
  for (const [id, email] of [
    [ANA, 'ana.nc@correo.mx'],
    [BETO, 'beto.nc@correo.mx'],
    [ADMIN, 'jefa.nc@correo.mx'],
  ]) {
    await sql(`insert into auth.users (id, email, raw_user_meta_data) values ($1, $2, '{"username":"u${email!.slice(0, 4)}","name":"N","lastname":"L"}')`, [
      id,
      email,
    ]);
  }
  await sql(`update public.profiles set is_admin = true where id = $1`, [ADMIN]);
  await sql(`insert into public.franchises (id, name) values ('pokemon', 'Pokémon')`);
  await sql(`insert into public.products (id, name, price, stock, franchise_id) values ('pk-nc', 'Caja', 100, 1000, 'pokemon')`);
  // May 2026 in Mexico City: two sales go into the month's factura global.
  soldA = await paidOrder(ANA, 1160, '2026-05-10T18:00:00Z');
  soldB = await paidOrder(BETO, 580, '2026-05-11T18:00:00Z');
  outsider = await paidOrder(ANA, 300, '2026-06-03T18:00:00Z');
  const globalConcepts = JSON.stringify([
    { description: 'Venta', quantity: 1, productKey: '01010101', unitKey: 'ACT', amount: 116000, base: 100000, iva: 16000 },
    { description: 'Venta', quantity: 1, productKey: '01010101', unitKey: 'ACT', amount: 58000, base: 50000, iva: 8000 },
  ]);
  const [made] = await sql<Answer>(
    `select public.create_global_invoice(2026, 5, $1::uuid[], $2::jsonb,
       '{"rfc":"XAXX010101000","legal_name":"PUBLICO EN GENERAL","tax_regime":"616","tax_zip":"","cfdi_use":"S01"}',
       '04', 'simulated', $3, '2026-06-02T00:00:00Z') as r`,
    [[soldA, soldB], globalConcepts, ADMIN],
  );
  globalId = made!.r.id;
});

afterAll(async () => {
  await db?.close();
});

describe('a refunded sale of a factura global', () => {
  it('waits while the global is not issued yet', async () => {
    await refund(soldA, 'saldo-a');
    expect(await due()).toEqual([]);
    const early = await requestNote(soldA, 'refund:early-key', 116000);
    expect(early.error?.detail).toBe('global_not_issued');
    // The global is issued through its queue.
    const [claimed] = await sql<{ attempts: number }>('select attempts from public.claim_invoices(1, $1, null)', [globalId]);
    await sql('select public.complete_invoice($1, $2, $3, $4)', [globalId, claimed!.attempts, `sim_inv_${globalId}`, GLOBAL_UUID]);
  });

  it('is found with its whole part of the global; one credit note per refund, however often it is asked', async () => {
    const found = await due();
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ order_id: soldA, amount: 116000, payment: { payment_method: 'card', total: 1160, credit_applied: 0 } });
    expect(found[0]!.refund_key).toMatch(new RegExp(`^refund:${soldA}:[0-9a-f]{16}$`));
    expect(await due('facturapi')).toEqual([]);

    const key = found[0]!.refund_key;
    const first = await requestNote(soldA, key, 116000);
    expect(first.error).toBeUndefined();
    expect(first.rows[0]!.r).toMatchObject({ status: 'pending', replayed: false });
    const again = await requestNote(soldA, key, 116000);
    expect(again.rows[0]!.r).toEqual({ id: first.rows[0]!.r.id, status: 'pending', replayed: true });
    const notes = await sql<Record<string, unknown>>(
      `select kind, order_id, user_id, status, total::text, subtotal::text, iva::text, payment_form, period_year, period_month,
              related_invoice_id, related_cfdi_uuid, customer->>'rfc' as rfc, customer->>'cfdi_use' as cfdi_use, request_key
         from public.invoices where kind = 'credit_note' and order_id = $1`,
      [soldA],
    );
    expect(notes).toEqual([
      {
        kind: 'credit_note',
        order_id: soldA,
        user_id: null,
        status: 'pending',
        total: '1160.00',
        subtotal: '1000.00',
        iva: '160.00',
        payment_form: '04',
        period_year: 2026,
        period_month: 5,
        related_invoice_id: globalId,
        related_cfdi_uuid: GLOBAL_UUID,
        rfc: 'XAXX010101000',
        cfdi_use: 'S01',
        request_key: key,
      },
    ]);
    const events = await sql<{ to_status: string; actor: string; note: string }>(
      'select to_status, actor, note from public.invoice_events where invoice_id = $1',
      [first.rows[0]!.r.id],
    );
    expect(events).toEqual([{ to_status: 'pending', actor: ADMIN, note: 'Nota de crédito por reembolso' }]);
    // Nothing is due any more, and nothing more can be credited for that sale.
    expect(await due()).toEqual([]);
    expect((await requestNote(soldA, 'refund:another-key', 100)).error?.detail).toBe('amount_exceeds_sale');
    // The global itself is not touched.
    const [global] = await sql<{ status: string }>('select status from public.invoices where id = $1', [globalId]);
    expect(global!.status).toBe('issued');
  });

  it('credits a partial refund for its amount, and never more than what is left of the sale', async () => {
    const part = await requestNote(soldB, 'refund:partial-1', 20000);
    expect(part.error).toBeUndefined();
    const [row] = await sql<{ total: string; subtotal: string; iva: string }>(
      'select total::text, subtotal::text, iva::text from public.invoices where id = $1',
      [part.rows[0]!.r.id],
    );
    expect(row).toEqual({ total: '200.00', subtotal: '172.41', iva: '27.59' });
    expect((await requestNote(soldB, 'refund:partial-2', 38001)).error?.detail).toBe('amount_exceeds_sale');
    expect((await requestNote(soldB, 'refund:partial-2', 0)).error?.detail).toBe('amount_exceeds_sale');
    // Then the whole sale is refunded: only what is left is due.
    await refund(soldB, 'saldo-b');
    const [left] = await due();
    expect(left).toMatchObject({ order_id: soldB, amount: 38000 });
    expect((await requestNote(soldB, left!.refund_key, 38000)).error).toBeUndefined();
    expect(await due()).toEqual([]);
    const [sum] = await sql<{ total: string; notes: number }>(
      `select sum(total)::text as total, count(*)::int as notes from public.invoices where kind = 'credit_note' and order_id = $1`,
      [soldB],
    );
    expect(sum).toEqual({ total: '580.00', notes: 2 });
  });

  it('refuses what does not add up or does not belong to the global', async () => {
    expect((await requestNote(outsider, 'refund:outsider', 30000)).error?.detail).toBe('not_in_global_invoice');
    const other = await paidOrder(ANA, 100, '2026-05-20T18:00:00Z');
    expect((await requestNote(other, 'refund:other-1', 100)).error?.detail).toBe('not_in_global_invoice');
    expect((await requestNote(soldA, 'short', 100)).error?.detail).toBe('invalid_key');
    // A key already used for another sale's refund.
    expect((await requestNote(soldB, 'refund:partial-1', 100)).rows[0]?.r.replayed).toBe(true);
    expect((await requestNote(soldA, 'refund:partial-1', 100)).error?.detail).toBe('invalid_key');
  });

  it('checks the concepts and the provider against the global', async () => {
    const fresh = await paidOrder(BETO, 232, '2026-05-21T18:00:00Z');
    // A sale of the month left out of the global cannot be credited against it.
    expect((await requestNote(fresh, 'refund:fresh-1', 100)).error?.detail).toBe('not_in_global_invoice');
    await sql(`insert into public.invoice_orders (invoice_id, order_id, total) values ($1, $2, 232)`, [globalId, fresh]);
    expect((await requestNote(fresh, 'refund:fresh-1', 10000, { conceptsAmount: 9999 })).error?.detail).toBe('amount_mismatch');
    expect((await requestNote(fresh, 'refund:fresh-1', 10000, { provider: 'facturapi' })).error?.detail).toBe('other_provider');
    const ok = await requestNote(fresh, 'refund:fresh-1', 10000);
    expect(ok.error).toBeUndefined();
  });
});

describe('issuing and reading a credit note', () => {
  it('goes through the same queue; only the back office reads it; nobody writes it directly', async () => {
    const [note] = await sql<{ id: string }>(`select id from public.invoices where kind = 'credit_note' and order_id = $1`, [soldA]);
    const [claimed] = await sql<{ status: string; attempts: number }>('select status, attempts from public.claim_invoices(1, $1, null)', [note!.id]);
    expect(claimed).toEqual({ status: 'issuing', attempts: 1 });
    await sql('select public.fail_invoice($1, 1, $2, now())', [note!.id, 'Proveedor caído']);
    const [retried] = await sql<{ attempts: number }>('select attempts from public.claim_invoices(1, $1, null)', [note!.id]);
    expect(retried!.attempts).toBe(2);
    const [done] = await sql<{ ok: boolean }>('select public.complete_invoice($1, 2, $2, $3) as ok', [
      note!.id,
      `sim_inv_${note!.id}`,
      'AAAAAAAA-BBBB-4CCC-8DDD-EEEEEEEEEEEE',
    ]);
    expect(done!.ok).toBe(true);
    const statuses = await sql<{ to_status: string }>('select to_status from public.invoice_events where invoice_id = $1 order by id', [note!.id]);
    expect(statuses.map((s) => s.to_status)).toEqual(['pending', 'issuing', 'failed', 'issuing', 'issued']);

    const read = (sub: string) => attempt<{ id: string }>(db, 'authenticated', sub, 'select id from public.invoices where id = $1', [note!.id]);
    expect((await read(ANA)).rows).toEqual([]);
    expect((await read(ADMIN)).rows).toEqual([{ id: note!.id }]);
    expect(
      (
        await attempt(db, 'anon', undefined, `select public.request_credit_note($1, $2, 1, $3::jsonb, '04', 'simulated')`, [
          soldA,
          'refund:x-anon',
          concepts(1),
        ])
      ).error?.code,
    ).toBe('42501');
    expect(
      (
        await attempt(db, 'authenticated', ADMIN, `select public.request_credit_note($1, $2, 1, $3::jsonb, '04', 'simulated')`, [
          soldA,
          'refund:x-admin',
          concepts(1),
        ])
      ).error?.code,
    ).toBe('42501');
    expect((await attempt(db, 'authenticated', ADMIN, `select * from public.invoice_credit_notes_due('simulated')`)).error?.code).toBe('42501');
    expect((await attempt(db, 'service_role', undefined, `update public.invoices set total = 1 where id = $1`, [note!.id])).error?.code).toBe('42501');
  });
});
