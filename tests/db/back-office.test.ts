/**
 * The back office's database functions: admin_set_order_status (the order state machine, admins
 * only, every change in order_events), admin_orders (list, search by number / e-mail / name,
 * admins only) and admin_summary.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PGlite } from '@electric-sql/pglite';
import { attempt, commit, inRolledBackTx, migratedPglite } from './support.ts';

const SHOPPER = '00000000-0000-4000-a000-00000000000a';
const OTHER = '00000000-0000-4000-a000-00000000000b';
const ADMIN = '00000000-0000-4000-a000-0000000000ad';
const PENDING = '00000000-0000-4000-c000-0000000abc01';
const PAID = '00000000-0000-4000-c000-0000000abc02';
const SHIPPED = '00000000-0000-4000-c000-0000000abc03';
const OTHERS_ORDER = '00000000-0000-4000-c000-0000000def04';

let db: PGlite;

beforeAll(async () => {
  db = await migratedPglite();
  const statements = [
    `insert into auth.users (id, email, raw_user_meta_data) values
       ('${SHOPPER}', 'ana@correo.mx', '{"username":"ana","name":"Ana","lastname":"García"}'),
       ('${OTHER}', 'luis@correo.mx', '{"username":"luis","name":"Luis","lastname":"Pérez"}'),
       ('${ADMIN}', 'jefa@correo.mx', '{"username":"jefa","name":"Jefa","lastname":"Tienda"}')`,
    `update public.profiles set is_admin = true where id = '${ADMIN}'`,
    `insert into public.franchises (id, name) values ('pokemon', 'Pokémon')`,
    `insert into public.products (id, name, price, stock, franchise_id) values ('pk-a', 'Caja A', 100, 5, 'pokemon'), ('pk-b', 'Sobre B', 50, 2, 'pokemon')`,
    `insert into public.orders (id, user_id, status, subtotal, discount, shipping, total, paid_at, created_at) values
       ('${PENDING}', '${SHOPPER}', 'Pendiente', 100, 0, 99, 199, null, now() - interval '1 day'),
       ('${PAID}', '${SHOPPER}', 'Pagado', 100, 0, 99, 199, now() - interval '2 days', now() - interval '2 days'),
       ('${SHIPPED}', '${SHOPPER}', 'Enviado', 50, 0, 99, 149, now() - interval '3 days', now() - interval '3 days'),
       ('${OTHERS_ORDER}', '${OTHER}', 'Pagado', 100, 0, 99, 199, now() - interval '40 days', now() - interval '40 days')`,
    `insert into public.order_items (order_id, product_id, quantity, price) values ('${PENDING}', 'pk-a', 1, 100), ('${PAID}', 'pk-a', 1, 100)`,
  ];
  for (const statement of statements) {
    const outcome = await commit(db, 'postgres', undefined, statement);
    if (!outcome.ok) throw new Error(`${statement}: ${outcome.error?.message}`);
  }
});

afterAll(async () => {
  await db?.close();
});

describe('admin_set_order_status', () => {
  it('refuses a shopper, even on their own order', async () => {
    const outcome = await attempt(db, 'authenticated', SHOPPER, `select public.admin_set_order_status('${PAID}', 'Enviado', 'DHL', '123')`);
    expect(outcome.error?.code).toBe('42501');
    expect(outcome.error?.message).toBe('Solo un administrador puede cambiar el estado de un pedido.');
  });

  it('ships a paid order with carrier and tracking number, recorded with the admin as actor', async () => {
    await inRolledBackTx(db, 'authenticated', ADMIN, async (q) => {
      const { rows } = await q.query<{ r: { status: string; carrier: string; tracking_number: string } }>(
        `select public.admin_set_order_status('${PAID}', 'Enviado', 'Estafeta', ' 1234567890 ') as r`,
      );
      expect(rows[0]!.r).toMatchObject({ status: 'Enviado', carrier: 'Estafeta', tracking_number: '1234567890' });
      const events = await q.query<{ from_status: string; to_status: string; actor: string; note: string }>(
        `select from_status, to_status, actor, note from public.order_events where order_id = '${PAID}' order by id desc limit 1`,
      );
      expect(events.rows[0]).toEqual({ from_status: 'Pagado', to_status: 'Enviado', actor: ADMIN, note: 'Enviado por Estafeta, guía 1234567890' });
    });
  });

  it('needs a known carrier and a tracking number to ship', async () => {
    const noCarrier = await attempt(db, 'authenticated', ADMIN, `select public.admin_set_order_status('${PAID}', 'Enviado', 'Correos', '1')`);
    expect(noCarrier.error?.message).toBe('Elige la paquetería.');
    const noTracking = await attempt(db, 'authenticated', ADMIN, `select public.admin_set_order_status('${PAID}', 'Enviado', 'DHL', '  ')`);
    expect(noTracking.error?.message).toBe('Escribe el número de guía (hasta 100 caracteres).');
  });

  it('refuses impossible transitions with a Spanish message', async () => {
    const cases: Array<[string, string, string]> = [
      [PENDING, 'Enviado', 'No se puede cambiar un pedido de «Pendiente» a «Enviado».'],
      [PAID, 'Completado', 'No se puede cambiar un pedido de «Pagado» a «Completado».'],
      [PAID, 'Cancelado', 'No se puede cambiar un pedido de «Pagado» a «Cancelado».'],
      [SHIPPED, 'Pagado', 'No se puede cambiar un pedido de «Enviado» a «Pagado».'],
      [SHIPPED, 'Pendiente', 'No se puede cambiar un pedido de «Enviado» a «Pendiente».'],
      [PAID, 'Reembolsado', 'Un reembolso se hace con «Cancelar y reembolsar», a través del proveedor de pago.'],
    ];
    for (const [order, status, message] of cases) {
      const outcome = await attempt(db, 'authenticated', ADMIN, `select public.admin_set_order_status('${order}', '${status}', 'DHL', '1')`);
      expect(outcome.error?.code, `${status}`).toBe('P0001');
      expect(outcome.error?.message).toBe(message);
    }
  });

  it('completes a shipped order', async () => {
    await inRolledBackTx(db, 'authenticated', ADMIN, async (q) => {
      await q.query(`select public.admin_set_order_status('${SHIPPED}', 'Completado')`);
      const { rows } = await q.query<{ status: string; done: boolean }>(
        `select status, completed_at is not null as done from public.orders where id = '${SHIPPED}'`,
      );
      expect(rows[0]).toEqual({ status: 'Completado', done: true });
    });
  });

  it('cancels a pending order and returns its stock', async () => {
    await inRolledBackTx(db, 'authenticated', ADMIN, async (q) => {
      await q.query(`select public.admin_set_order_status('${PENDING}', 'Cancelado', null, null, 'El cliente lo pidió')`);
      const stock = await q.query<{ stock: number }>(`select stock from public.products where id = 'pk-a'`);
      expect(stock.rows[0]!.stock).toBe(6);
      const events = await q.query<{ note: string }>(`select note from public.order_events where order_id = '${PENDING}' order by id desc limit 1`);
      expect(events.rows[0]!.note).toBe('El cliente lo pidió');
    });
  });
});

describe('order history and orders of others', () => {
  it('a shopper reads the events of their own orders only', async () => {
    await commit(db, 'postgres', undefined, `update public.orders set status = 'Procesando' where id = '${OTHERS_ORDER}'`);
    const own = await attempt<{ order_id: string }>(db, 'authenticated', OTHER, `select order_id from public.order_events`);
    // The insert and the change: both events, and only of their own order.
    expect(own.rows.map((r) => r.order_id)).toEqual([OTHERS_ORDER, OTHERS_ORDER]);
    const foreign = await attempt(db, 'authenticated', SHOPPER, `select id from public.order_events where order_id = '${OTHERS_ORDER}'`);
    expect(foreign.rows).toEqual([]);
    const orders = await attempt(db, 'authenticated', SHOPPER, `select id from public.orders where id = '${OTHERS_ORDER}'`);
    expect(orders.rows).toEqual([]);
    const admin = await attempt(db, 'authenticated', ADMIN, `select id from public.order_events where order_id = '${OTHERS_ORDER}'`);
    expect(admin.rows).toHaveLength(2);
  });
});

describe('admin_orders', () => {
  it('lists every order newest first with the customer, 25 per page', async () => {
    const { rows } = await attempt<{ id: string; customer_email: string; customer_name: string; total_count: number }>(
      db,
      'authenticated',
      ADMIN,
      `select id, customer_email, customer_name, total_count from public.admin_orders()`,
    );
    expect(rows.map((r) => r.id)).toEqual([PENDING, PAID, SHIPPED, OTHERS_ORDER]);
    expect(rows[0]).toMatchObject({ customer_email: 'ana@correo.mx', customer_name: 'Ana García' });
    expect(Number(rows[0]!.total_count)).toBe(4);
  });

  it('searches by order number, e-mail and name, and filters by status and dates', async () => {
    const ids = async (args: string) =>
      (await attempt<{ id: string }>(db, 'authenticated', ADMIN, `select id from public.admin_orders(${args})`)).rows.map((r) => r.id);
    expect(await ids(`p_search => '#ABC02'`)).toEqual([]);
    expect(await ids(`p_search => '#0ABC02'`)).toEqual([PAID]);
    expect(await ids(`p_search => '0abc02'`)).toEqual([PAID]);
    expect(await ids(`p_search => 'LUIS@correo'`)).toEqual([OTHERS_ORDER]);
    expect(await ids(`p_search => 'pérez'`)).toEqual([OTHERS_ORDER]);
    expect(await ids(`p_status => 'Pagado'`)).toEqual([PAID]);
    expect(await ids(`p_from => (now() - interval '10 days')::date`)).toEqual([PENDING, PAID, SHIPPED]);
    expect(await ids(`p_to => (now() - interval '30 days')::date`)).toEqual([OTHERS_ORDER]);
    expect(await ids(`p_order_id => '${SHIPPED}'`)).toEqual([SHIPPED]);
  });

  it('is refused to shoppers', async () => {
    const outcome = await attempt(db, 'authenticated', SHOPPER, `select id from public.admin_orders()`);
    expect(outcome.error?.code).toBe('42501');
  });
});

describe('admin_summary', () => {
  it('counts what waits and sums 30 days of sales', async () => {
    const { rows } = await attempt<{
      s: {
        sales: Array<{ day: string; orders: number; total: number }>;
        toShip: number;
        pendingPayment: number;
        refundsToReview: number;
        lowStock: Array<{ id: string; stock: number }>;
      };
    }>(db, 'authenticated', ADMIN, `select public.admin_summary() as s`);
    const summary = rows[0]!.s;
    expect(summary.sales).toHaveLength(30);
    expect(summary.sales.reduce((n, d) => n + d.orders, 0)).toBe(2);
    expect(summary.sales.reduce((n, d) => n + Number(d.total), 0)).toBe(348);
    // PAID and, since the history case above, OTHERS_ORDER ('Procesando').
    expect(summary.toShip).toBe(2);
    expect(summary.pendingPayment).toBe(1);
    expect(summary.refundsToReview).toBe(0);
    expect(summary.lowStock).toEqual([{ id: 'pk-b', name: 'Sobre B', stock: 2 }]);
  });
});

describe('the demo data', () => {
  it('has orders in every status, and the demo customer points match their paid orders', async () => {
    const { DEMO_CUSTOMER, DEMO_CUSTOMER_ORDER_COUNT, DEMO_ORDER_COUNT, DEMO_REWARD_POINTS, DEMO_SHOPPER } = await import('../../scripts/seed/constants.ts');
    const seeded = await migratedPglite({ seed: true });
    try {
      // Statuses sort in the order_status enum's order: the order an order goes through them.
      const statuses = await seeded.query<{ status: string }>('select distinct status from public.orders order by 1');
      expect(statuses.rows.map((r) => r.status)).toEqual(['Pendiente', 'Pagado', 'Procesando', 'Enviado', 'Completado', 'Cancelado', 'Fallido', 'Reembolsado']);
      const count = async (user: string) =>
        (await seeded.query<{ n: number }>('select count(*)::int as n from public.orders where user_id = $1', [user])).rows[0]!.n;
      expect(await count(DEMO_SHOPPER.id)).toBe(DEMO_ORDER_COUNT);
      expect(await count(DEMO_CUSTOMER.id)).toBe(DEMO_CUSTOMER_ORDER_COUNT);
      const points = await seeded.query<{ user_id: string; points: number; earned: number }>(
        `select r.user_id, r.points, (select coalesce(sum(o.points_awarded), 0)::int from public.orders o where o.user_id = r.user_id) as earned
           from public.rewards r where r.user_id in ($1, $2)`,
        [DEMO_SHOPPER.id, DEMO_CUSTOMER.id],
      );
      const byUser = new Map(points.rows.map((r) => [r.user_id, r]));
      expect(byUser.get(DEMO_SHOPPER.id)!.points).toBe(DEMO_REWARD_POINTS);
      expect(byUser.get(DEMO_CUSTOMER.id)!.points).toBe(byUser.get(DEMO_CUSTOMER.id)!.earned);
      const shipped = await seeded.query<{ n: number }>(
        `select count(*)::int as n from public.orders where status in ('Enviado', 'Completado') and user_id = $1 and (carrier is null or tracking_number is null)`,
        [DEMO_CUSTOMER.id],
      );
      expect(shipped.rows[0]!.n).toBe(0);
      // Their history reads like the real thing: the shipment by the admin, with its note.
      const history = await seeded.query<{ from_status: string; to_status: string; by_admin: boolean; note: string }>(
        `select e.from_status, e.to_status, e.actor is not null as by_admin, e.note from public.order_events e
           join public.orders o on o.id = e.order_id
          where o.user_id = $1 and o.status = 'Completado' and e.to_status = 'Enviado' limit 1`,
        [DEMO_CUSTOMER.id],
      );
      expect(history.rows[0]).toMatchObject({ from_status: 'Pagado', to_status: 'Enviado', by_admin: true });
      expect(history.rows[0]!.note).toMatch(/^Enviado por .+, guía MX\d+$/);
      const subscribers = await seeded.query<{ n: number }>('select count(*)::int as n from public.newsletter_subscribers');
      expect(subscribers.rows[0]!.n).toBeGreaterThan(0);
    } finally {
      await seeded.close();
    }
  }, 120_000);
});

describe('admin_summary days', () => {
  it('names each day as a plain date', async () => {
    const { rows } = await attempt<{ s: { sales: Array<{ day: string }> } }>(db, 'authenticated', ADMIN, `select public.admin_summary() as s`);
    for (const d of rows[0]!.s.sales) expect(d.day).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });
});
