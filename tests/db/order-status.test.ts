/**
 * The order_status enum (20261126000100_order_status_enum.sql): its labels are ORDER_STATUS's, in
 * the same order; orders.status and the history columns take only those labels; and the functions
 * that take or answer a status as text still do.
 */
import type { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ORDER_STATUS } from '~/domain/orders.ts';
import { attempt, commit, inRolledBackTx, migratedPglite } from './support.ts';

const SHOPPER = '00000000-0000-4000-a000-00000000000a';
const ADMIN = '00000000-0000-4000-a000-0000000000ad';
const PAID = '00000000-0000-4000-c000-0000000e0001';
const REFUNDED = '00000000-0000-4000-c000-0000000e0002';

let db: PGlite;

beforeAll(async () => {
  db = await migratedPglite();
  const statements = [
    `insert into auth.users (id, email, raw_user_meta_data) values
       ('${SHOPPER}', 'ana@correo.mx', '{"username":"ana","name":"Ana","lastname":"García"}'),
       ('${ADMIN}', 'jefa@correo.mx', '{"username":"jefa","name":"Jefa","lastname":"Tienda"}')`,
    `update public.profiles set is_admin = true where id = '${ADMIN}'`,
    `insert into public.orders (id, user_id, status, subtotal, discount, shipping, total, paid_at, refunded_at) values
       ('${PAID}', '${SHOPPER}', 'Pagado', 100, 0, 99, 199, now(), null),
       ('${REFUNDED}', '${SHOPPER}', 'Reembolsado', 100, 0, 99, 199, now(), now())`,
  ];
  for (const statement of statements) {
    const outcome = await commit(db, 'postgres', undefined, statement);
    if (!outcome.ok) throw new Error(`${statement}: ${outcome.error?.message}`);
  }
});

afterAll(async () => {
  await db?.close();
});

describe('the order_status enum', () => {
  it('has the labels of ORDER_STATUS, in the same order', async () => {
    const { rows } = await db.query<{ labels: string[] }>('select enum_range(null::public.order_status)::text[] as labels');
    expect(rows[0]!.labels).toEqual(Object.values(ORDER_STATUS));
  });

  it('is the type of orders.status (default Pendiente) and of the history columns', async () => {
    const { rows } = await db.query<{ relname: string; attname: string; type: string; default: string | null }>(
      `select c.relname, a.attname, format_type(a.atttypid, a.atttypmod) as type, pg_get_expr(d.adbin, d.adrelid) as default
         from pg_attribute a
         join pg_class c on c.oid = a.attrelid
         left join pg_attrdef d on d.adrelid = a.attrelid and d.adnum = a.attnum
        where c.oid in ('public.orders'::regclass, 'public.order_events'::regclass)
          and a.attname in ('status', 'from_status', 'to_status')
        order by 1, 2`,
    );
    expect(rows).toEqual([
      { relname: 'order_events', attname: 'from_status', type: 'order_status', default: null },
      { relname: 'order_events', attname: 'to_status', type: 'order_status', default: null },
      { relname: 'orders', attname: 'status', type: 'order_status', default: "'Pendiente'::order_status" },
    ]);
  });

  it('refuses a status it does not have', async () => {
    const outcome = await attempt(db, 'postgres', undefined, `update public.orders set status = 'Perdido' where id = '${PAID}'`);
    expect(outcome.error?.code).toBe('22P02');
  });

  it('records a status change in the history', async () => {
    const history = await inRolledBackTx(db, 'postgres', undefined, async (q) => {
      await q.query(`update public.orders set status = 'Procesando' where id = '${PAID}'`);
      return (await q.query(`select from_status, to_status from public.order_events where order_id = '${PAID}' order by id`)).rows;
    });
    expect(history).toEqual([
      { from_status: null, to_status: 'Pagado' },
      { from_status: 'Pagado', to_status: 'Procesando' },
    ]);
  });
});

describe('functions that take or answer a status as text', () => {
  it('admin_orders filters by a status given as text and answers it; an unknown one matches no order', async () => {
    const list = (args: string) => attempt<{ id: string; status: string }>(db, 'authenticated', ADMIN, `select id, status from public.admin_orders(${args})`);
    expect((await list(`p_status => 'Pagado'`)).rows).toEqual([{ id: PAID, status: 'Pagado' }]);
    expect((await list(`p_status => 'Reembolsado'`)).rows).toEqual([{ id: REFUNDED, status: 'Reembolsado' }]);
    expect((await list(`p_status => ''`)).rows).toHaveLength(2);
    const unknown = await list(`p_status => 'Perdido'`);
    expect(unknown.error).toBeUndefined();
    expect(unknown.rows).toEqual([]);
  });

  it("finish_order_refund and complete_refund answer the order's status", async () => {
    const answers = await inRolledBackTx(db, 'postgres', undefined, async (q) => {
      const again = await q.query<{ status: string }>(`select public.finish_order_refund('${REFUNDED}', 're_again', 'Otra vez', false) as status`);
      const claim = await q.query<{ c: { id: string } }>(`select public.claim_refund('${PAID}', 'stripe', 'pi_twice', 199, 'duplicate') as c`);
      const duplicate = await q.query<{ status: string }>('select public.complete_refund($1, $2) as status', [claim.rows[0]!.c.id, 're_twice']);
      return [again.rows[0]!.status, duplicate.rows[0]!.status];
    });
    // Refunding a refunded order changes nothing; refunding a duplicate charge leaves the order paid.
    expect(answers).toEqual(['Reembolsado', 'Pagado']);
  });
});
