/**
 * Facturas in the database: a shopper's request for their own paid order (saved tax data, the
 * Mexico City month it was paid in, one active factura per order, the same request key replays),
 * the issuing queue (claim, failure with its next attempt, completion, a stale claim that changes
 * nothing), the cancellation of a refunded order's factura, the month's factura global (only once
 * the month is over, once, over exactly the uninvoiced sales) and who can read what.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PGlite } from '@electric-sql/pglite';
import { attempt, commit, migratedPglite } from './support.ts';

const ANA = '30000000-0000-4000-a000-000000000001';
const BETO = '30000000-0000-4000-a000-000000000002';
const ADMIN = '30000000-0000-4000-a000-0000000000ad';

let db: PGlite;

async function sql<T = Record<string, unknown>>(statement: string, params: unknown[] = []): Promise<T[]> {
  const outcome = await commit<T>(db, 'postgres', undefined, statement, params);
  if (!outcome.ok) throw new Error(`${statement}: ${outcome.error?.message}`);
  return outcome.rows;
}

/** A paid order of `total` pesos (one line, no shipping) paid at `paidAt`. */
async function paidOrder(user: string, total: number, paidAt: string, status = 'Pagado'): Promise<string> {
  const [row] = await sql<{ id: string }>(
    `insert into public.orders (user_id, subtotal, discount, shipping, total, status, paid_at, payment_method, payment_provider)
     values ($1, $2, 0, 0, $2, $3::public.order_status, $4, 'card', 'stripe') returning id`,
    [user, total, status, paidAt],
  );
  await sql(`insert into public.order_items (order_id, product_id, quantity, price) values ($1, 'pk-inv', 1, $2)`, [row!.id, total]);
  return row!.id;
}

function concepts(totalCentavos: number) {
  const base = Math.floor((totalCentavos * 100 + 58) / 116);
  return JSON.stringify([{ description: 'Caja', quantity: 1, productKey: '60141101', unitKey: 'H87', amount: totalCentavos, base, iva: totalCentavos - base }]);
}

function request(user: string, order: string, key: string, totalCentavos: number, now?: string) {
  return commit<{ r: { id: string; status: string; replayed: boolean } }>(
    db,
    'service_role',
    undefined,
    `select public.request_order_invoice($1, $2, $3, '04', $4::jsonb, 'simulated', coalesce($5::timestamptz, now())) as r`,
    [user, order, key, concepts(totalCentavos), now ?? null],
  );
}

const thisMonth = () => new Date(Date.now() - 60_000).toISOString();

beforeAll(async () => {
  db = await migratedPglite();
  for (const [id, email] of [
    [ANA, 'ana@correo.mx'],
    [BETO, 'beto@correo.mx'],
    [ADMIN, 'jefa@correo.mx'],
  ]) {
    await sql(`insert into auth.users (id, email, raw_user_meta_data) values ($1, $2, '{"username":"u${email!.slice(0, 3)}","name":"N","lastname":"L"}')`, [
      id,
      email,
    ]);
  }
  await sql(`update public.profiles set is_admin = true where id = $1`, [ADMIN]);
  await sql(`insert into public.franchises (id, name) values ('pokemon', 'Pokémon')`);
  await sql(`insert into public.products (id, name, price, stock, franchise_id) values ('pk-inv', 'Caja', 100, 1000, 'pokemon')`);
  await sql(
    `insert into public.tax_profiles (user_id, rfc, legal_name, tax_regime, tax_zip, cfdi_use, invoice_email)
     values ($1, 'GODE561231GR' || public.rfc_check_digit('GODE561231GR0'), 'Ana Gómez Díaz', '612', '06700', 'G03', 'facturas@ana.mx')`,
    [ANA],
  );
});

afterAll(async () => {
  await db?.close();
});

describe('request_order_invoice', () => {
  it("queues the owner's paid order with the saved tax data; the same key replays, another key is refused", async () => {
    const order = await paidOrder(ANA, 1160, thisMonth());
    const first = await request(ANA, order, 'clave-0001', 116000);
    expect(first.error).toBeUndefined();
    expect(first.rows[0]!.r).toMatchObject({ status: 'pending', replayed: false });
    const again = await request(ANA, order, 'clave-0001', 116000);
    expect(again.rows[0]!.r).toEqual({ id: first.rows[0]!.r.id, status: 'pending', replayed: true });
    const other = await request(ANA, order, 'clave-0002', 116000);
    expect(other.error?.detail).toBe('already_invoiced');
    const [invoice] = await sql<{ customer: Record<string, string>; subtotal: string; iva: string; total: string; user_id: string }>(
      'select customer, subtotal, iva, total, user_id from public.invoices where id = $1',
      [first.rows[0]!.r.id],
    );
    expect(invoice).toMatchObject({ subtotal: '1000.00', iva: '160.00', total: '1160.00', user_id: ANA });
    expect(invoice!.customer).toMatchObject({ legal_name: 'Ana Gómez Díaz', tax_regime: '612', cfdi_use: 'G03', tax_zip: '06700', email: 'facturas@ana.mx' });
    const events = await sql<{ to_status: string; actor: string; note: string }>(
      'select to_status, actor, note from public.invoice_events where invoice_id = $1',
      [first.rows[0]!.r.id],
    );
    expect(events).toEqual([{ to_status: 'pending', actor: ANA, note: 'Factura solicitada' }]);
  });

  it('refuses another shopper, an unpaid order, a closed window, missing tax data and amounts that are not the order', async () => {
    const order = await paidOrder(ANA, 500, thisMonth());
    expect((await request(BETO, order, 'clave-0003', 50000)).error?.detail).toBe('order_not_found');
    const pending = await paidOrder(ANA, 500, thisMonth(), 'Pendiente');
    expect((await request(ANA, pending, 'clave-0004', 50000)).error?.detail).toBe('not_paid');
    const refunded = await paidOrder(ANA, 500, thisMonth(), 'Reembolsado');
    expect((await request(ANA, refunded, 'clave-0005', 50000)).error?.detail).toBe('not_paid');
    // Paid on 30 November at 23:30 Mexico City (05:30 UTC on 1 December): asked on 1 December at 00:30 Mexico City.
    const late = await paidOrder(ANA, 500, '2026-12-01T05:30:00Z');
    expect((await request(ANA, late, 'clave-0006', 50000, '2026-12-01T05:59:00Z')).error).toBeUndefined();
    const late2 = await paidOrder(ANA, 500, '2026-12-01T05:30:00Z');
    const closed = await request(ANA, late2, 'clave-0007', 50000, '2026-12-01T06:30:00Z');
    expect(closed.error?.detail).toBe('window_closed');
    expect(closed.error?.message).toContain('último día del mes');
    const betoOrder = await paidOrder(BETO, 500, thisMonth());
    const noProfile = await request(BETO, betoOrder, 'clave-0008', 50000);
    expect(noProfile.error?.detail).toBe('no_tax_profile');
    expect(noProfile.error?.message).toBe('Primero guarda tus datos de facturación.');
    expect((await request(ANA, order, 'clave-0009', 49999)).error?.detail).toBe('amount_mismatch');
  });

  it('nobody but the service role may call it', async () => {
    const order = await paidOrder(ANA, 500, thisMonth());
    for (const [role, sub] of [
      ['anon', undefined],
      ['authenticated', ANA],
      ['authenticated', ADMIN],
    ] as const) {
      const outcome = await attempt(db, role, sub, `select public.request_order_invoice($1, $2, 'clave-0010', '04', $3::jsonb, 'simulated')`, [
        ANA,
        order,
        concepts(50000),
      ]);
      expect(outcome.error?.code).toBe('42501');
    }
  });
});

describe('the issuing queue', () => {
  it('claims once, records a failure with its next attempt, retries when due, and completes; a stale claim changes nothing', async () => {
    const order = await paidOrder(ANA, 200, thisMonth());
    const id = (await request(ANA, order, 'clave-0100', 20000)).rows[0]!.r.id;
    const [claimed] = await sql<{ id: string; status: string; attempts: number }>('select id, status, attempts from public.claim_invoices(10, $1)', [id]);
    expect(claimed).toMatchObject({ id, status: 'issuing', attempts: 1 });
    expect(await sql('select id from public.claim_invoices(10, $1)', [id])).toEqual([]);
    const [failed] = await sql<{ ok: boolean }>(`select public.fail_invoice($1, 1, 'Facturapi: 500', now() - interval '1 second') as ok`, [id]);
    expect(failed!.ok).toBe(true);
    const due = await sql<{ id: string; attempts: number }>('select id, attempts from public.claim_invoices(100)');
    expect(due.find((row) => row.id === id)).toMatchObject({ attempts: 2 });
    const [stale] = await sql<{ ok: boolean }>(`select public.complete_invoice($1, 1, 'inv_stale', null) as ok`, [id]);
    expect(stale!.ok).toBe(false);
    const [done] = await sql<{ ok: boolean }>(`select public.complete_invoice($1, 2, 'inv_1', '9FB6ED1A-5F37-4FEF-980A-7F8C83B51894', 'A', '1') as ok`, [id]);
    expect(done!.ok).toBe(true);
    const events = await sql<{ to_status: string }>('select to_status from public.invoice_events where invoice_id = $1 order by id', [id]);
    expect(events.map((e) => e.to_status)).toEqual(['pending', 'issuing', 'failed', 'issuing', 'issued']);
  });
});

describe('cancelling the factura of a refunded order', () => {
  it('an issued factura goes to cancelling and then cancelled; one never issued is cancelled at once', async () => {
    const order = await paidOrder(ANA, 300, thisMonth());
    const id = (await request(ANA, order, 'clave-0200', 30000)).rows[0]!.r.id;
    await sql('select * from public.claim_invoices(1, $1)', [id]);
    await sql(`select public.complete_invoice($1, 1, 'inv_2', 'UUID-2')`, [id]);
    const toCancel = await sql<{ id: string; status: string; cancel_motive: string }>(
      `select id, status, cancel_motive from public.request_invoice_cancellation($1, '03', $2)`,
      [order, ADMIN],
    );
    expect(toCancel).toEqual([{ id, status: 'cancelling', cancel_motive: '03' }]);
    const [ok] = await sql<{ ok: boolean }>('select public.complete_invoice_cancellation($1) as ok', [id]);
    expect(ok!.ok).toBe(true);
    const [row] = await sql<{ status: string; cancelled_at: string | null }>('select status, cancelled_at from public.invoices where id = $1', [id]);
    expect(row!.status).toBe('cancelled');
    expect(row!.cancelled_at).not.toBeNull();

    const other = await paidOrder(ANA, 300, thisMonth());
    const pendingId = (await request(ANA, other, 'clave-0201', 30000)).rows[0]!.r.id;
    expect(await sql(`select id from public.request_invoice_cancellation($1, '03')`, [other])).toEqual([]);
    const [pendingRow] = await sql<{ status: string }>('select status from public.invoices where id = $1', [pendingId]);
    expect(pendingRow!.status).toBe('cancelled');
    const [told] = await sql<{ ok: boolean }>('select public.mark_invoice_shopper_told($1) as ok', [id]);
    expect(told!.ok).toBe(true);
    const [toldAgain] = await sql<{ ok: boolean | null }>('select public.mark_invoice_shopper_told($1) as ok', [id]);
    expect(toldAgain!.ok).toBeNull();
  });
});

describe('factura global', () => {
  it("covers exactly the month's uninvoiced paid sales, once, and only when the month is over", async () => {
    // March 2026 in Mexico City.
    const a = await paidOrder(ANA, 116, '2026-03-10T18:00:00Z');
    const b = await paidOrder(BETO, 232, '2026-03-31T23:00:00Z'); // still 31 March, 17:00 in Mexico City
    await paidOrder(BETO, 50, '2026-04-01T07:00:00Z'); // April in Mexico City
    await paidOrder(BETO, 50, '2026-03-11T18:00:00Z', 'Reembolsado');
    const invoiced = await paidOrder(ANA, 99, '2026-03-12T18:00:00Z');
    await sql(
      `insert into public.invoices (kind, order_id, user_id, customer, payment_form, concepts, subtotal, iva, total, provider)
       values ('order', $1, $2, '{}', '04', '[{}]', 85.34, 13.66, 99, 'simulated')`,
      [invoiced, ANA],
    );
    const candidates = await sql<{ order_id: string }>('select order_id from public.invoice_global_candidates(2026, 3)');
    expect(candidates.map((c) => c.order_id).sort()).toEqual([a, b].sort());

    const preview = await commit<{ p: { orders: number; total: number; issued: boolean } }>(
      db,
      'authenticated',
      ADMIN,
      'select public.admin_global_invoice_preview(2026, 3) as p',
    );
    expect(preview.rows[0]!.p).toEqual({ orders: 2, total: 348, issued: false });
    expect((await attempt(db, 'authenticated', ANA, 'select public.admin_global_invoice_preview(2026, 3)')).error?.code).toBe('42501');

    const globalConcepts = JSON.stringify([
      { description: 'Venta', quantity: 1, productKey: '01010101', unitKey: 'ACT', amount: 11600, base: 10000, iva: 1600 },
      { description: 'Venta', quantity: 1, productKey: '01010101', unitKey: 'ACT', amount: 23200, base: 20000, iva: 3200 },
    ]);
    const create = (orders: string[], now: string) =>
      commit<{ r: { id: string; orders: number } }>(
        db,
        'service_role',
        undefined,
        `select public.create_global_invoice(2026, 3, $1::uuid[], $2::jsonb, '{"rfc":"XAXX010101000"}', '04', 'simulated', $3, $4::timestamptz) as r`,
        [orders, globalConcepts, ADMIN, now],
      );
    expect((await create([a, b], '2026-03-31T23:30:00Z')).error?.detail).toBe('month_open');
    expect((await create([a], '2026-04-02T00:00:00Z')).error?.detail).toBe('candidates_changed');
    const made = await create([b, a], '2026-04-02T00:00:00Z');
    expect(made.error).toBeUndefined();
    expect(made.rows[0]!.r.orders).toBe(2);
    expect((await create([a, b], '2026-04-02T00:00:00Z')).error?.detail).toBe('already_issued');
    expect(await sql('select order_id from public.invoice_global_candidates(2026, 3)')).toEqual([]);
    const [row] = await sql<{ kind: string; period_year: number; period_month: number; total: string; user_id: string | null }>(
      'select kind, period_year, period_month, total, user_id from public.invoices where id = $1',
      [made.rows[0]!.r.id],
    );
    expect(row).toEqual({ kind: 'global', period_year: 2026, period_month: 3, total: '348.00', user_id: null });
  });
});

describe('who reads facturas', () => {
  it('a shopper reads only their own; the back office reads all; nobody writes directly', async () => {
    const order = await paidOrder(ANA, 400, thisMonth());
    const id = (await request(ANA, order, 'clave-0300', 40000)).rows[0]!.r.id;
    const read = (role: 'anon' | 'authenticated', sub?: string) => attempt<{ id: string }>(db, role, sub, 'select id from public.invoices where id = $1', [id]);
    expect((await read('authenticated', ANA)).rows).toEqual([{ id }]);
    expect((await read('authenticated', BETO)).rows).toEqual([]);
    expect((await read('authenticated', ADMIN)).rows).toEqual([{ id }]);
    expect((await read('anon')).error?.code).toBe('42501');
    const events = (sub: string) => attempt(db, 'authenticated', sub, 'select id from public.invoice_events where invoice_id = $1', [id]);
    expect((await events(ANA)).rows.length).toBe(1);
    expect((await events(BETO)).rows.length).toBe(0);
    for (const sub of [ANA, ADMIN]) {
      expect((await attempt(db, 'authenticated', sub, `update public.invoices set status = 'issued' where id = $1`, [id])).error?.code).toBe('42501');
      expect((await attempt(db, 'authenticated', sub, `delete from public.invoices where id = $1`, [id])).error?.code).toBe('42501');
    }
    expect((await attempt(db, 'service_role', undefined, `update public.invoices set status = 'issued' where id = $1`, [id])).error?.code).toBe('42501');
  });
});
