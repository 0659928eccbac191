/**
 * A Mexican order's address copy must be complete before it is paid for
 * (20261129012100_order_address_complete.sql): shipping_address_gap names the first missing part
 * in the form's order, the pending order's copy (written when a payment starts) is refused with
 * the form's text, detail 'address_incomplete' and the part in the hint, other countries keep the
 * specification's fields, and the payment's own copy (mark_order_paid) is never refused.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PGlite } from '@electric-sql/pglite';
import { attempt, commit, migratedPglite } from './support.ts';

const ANA = '10000000-0000-4000-a000-0000000000e1';
const OLD = '20000000-0000-4000-a000-0000000000e1';
const FULL = '20000000-0000-4000-a000-0000000000e2';
const ABROAD = '20000000-0000-4000-a000-0000000000e3';

let db: PGlite;

async function sql<T = Record<string, unknown>>(statement: string, params: unknown[] = []): Promise<T[]> {
  const outcome = await commit<T>(db, 'postgres', undefined, statement, params);
  if (!outcome.ok) throw new Error(`${statement}: ${outcome.error?.message}`);
  return outcome.rows;
}

async function pendingOrder(addressId: string): Promise<string> {
  const order = await commit<{ id: string }>(db, 'authenticated', ANA, `select public.create_order($1::jsonb) as id`, [
    JSON.stringify([{ product_id: 'pk-sobre', quantity: 1 }]),
  ]);
  if (!order.ok) throw new Error(order.error?.message);
  const id = order.rows[0]!.id;
  const chosen = await commit(db, 'authenticated', ANA, `update public.orders set shipping_address_id = $1 where id = $2 returning id`, [addressId, id]);
  expect(chosen.affected, chosen.error?.message).toBe(1);
  return id;
}

/** What the payment step does: copy the chosen address onto the pending order (as the service role). */
const copyAddress = (orderId: string, addressId: string) =>
  commit(db, 'service_role', undefined, `update public.orders set shipping_address = public.address_snapshot($2) where id = $1 returning id`, [
    orderId,
    addressId,
  ]);

beforeAll(async () => {
  db = await migratedPglite();
  await sql(`insert into auth.users (id, email, raw_user_meta_data) values ($1, 'ana@correo.mx', '{"username": "ana"}'::jsonb)`, [ANA]);
  await sql(`insert into public.franchises (id, name) values ('pokemon', 'Pokémon')`);
  await sql(
    `insert into public.products (id, name, price, stock, limit_per_customer, franchise_id) values ('pk-sobre', 'Sobre suelto', 100, 50, 20, 'pokemon')`,
  );
  // Saved before the Mexican parts were asked: the number and colonia are in street, no phone.
  await db.exec(`alter table public.addresses disable trigger addresses_zip_mx`);
  await sql(
    `insert into public.addresses (id, user_id, street, city, state, zip, country) values ($1, $2, 'Av. Vallarta 441, Col. Centro', 'Guadalajara', 'Jalisco', '44100', 'México')`,
    [OLD, ANA],
  );
  await db.exec(`alter table public.addresses enable trigger addresses_zip_mx`);
  await sql(
    `insert into public.addresses (id, user_id, street, exterior_number, neighborhood, municipality, city, state, zip, country, phone)
     values ($1, $2, 'Av. Chapultepec', '480', 'Roma Norte', 'Cuauhtémoc', '', 'Ciudad de México', '06700', 'México', '5512345678')`,
    [FULL, ANA],
  );
  await sql(
    `insert into public.addresses (id, user_id, street, city, state, zip, country) values ($1, $2, '5th Avenue 10', 'New York', 'NY', '10001', 'Estados Unidos')`,
    [ABROAD, ANA],
  );
});

afterAll(async () => {
  await db?.close();
});

describe('shipping_address_gap', () => {
  it('names the first part a Mexican copy lacks, in the form order, and any spelling of México is México', async () => {
    const full = {
      street: 'Av. Reforma',
      exterior_number: '222',
      zip: '06600',
      neighborhood: 'Juárez',
      municipality: 'Cuauhtémoc',
      state: 'CDMX',
      phone: '5512345678',
      country: 'México',
    };
    const cases: Array<[Record<string, unknown>, string | null]> = [
      [full, null],
      [{ ...full, street: ' ' }, 'street'],
      [{ ...full, exterior_number: null, neighborhood: null }, 'exterior_number'],
      [{ ...full, zip: '441' }, 'zip'],
      [{ ...full, neighborhood: '' }, 'neighborhood'],
      [{ ...full, municipality: null }, 'municipality'],
      [{ ...full, state: '' }, 'state'],
      [{ ...full, phone: '55 1234 5678' }, 'phone'],
      [{ ...full, country: 'MEXICO', phone: null }, 'phone'],
      [{ street: '5th Avenue 10', city: 'New York', country: 'Estados Unidos' }, null],
      [{ street: '5th Avenue 10', city: '', country: 'Estados Unidos' }, 'city'],
    ];
    for (const [copy, gap] of cases) {
      const [row] = await sql<{ gap: string | null }>(`select public.shipping_address_gap($1::jsonb) as gap`, [JSON.stringify(copy)]);
      expect(row!.gap, JSON.stringify(copy)).toBe(gap);
    }
  });

  it('is not callable by shoppers or visitors', async () => {
    for (const role of ['anon', 'authenticated'] as const) {
      const call = await attempt(db, role, role === 'authenticated' ? ANA : undefined, `select public.shipping_address_gap('{}'::jsonb)`);
      expect(call.ok).toBe(false);
      expect(call.error?.code).toBe('42501');
    }
  });
});

describe("the pending order's address copy", () => {
  it('refuses the copy of an address saved before the Mexican parts, with the form text, detail and hint', async () => {
    const order = await pendingOrder(OLD);
    const refused = await copyAddress(order, OLD);
    expect(refused.ok).toBe(false);
    expect(refused.error).toMatchObject({
      code: '23514',
      message: 'Completa tu dirección de envío: Número exterior requerido.',
      detail: 'address_incomplete',
      hint: 'exterior_number',
    });
    const [row] = await sql<{ shipping_address: unknown }>(`select shipping_address from public.orders where id = $1`, [order]);
    expect(row!.shipping_address).toBeNull();
    // Completed the way the checkout does it (the shopper's own update), the copy goes through.
    const completed = await commit(
      db,
      'authenticated',
      ANA,
      `update public.addresses set street = 'Av. Vallarta', exterior_number = '441', neighborhood = 'Centro', municipality = 'Guadalajara', phone = '3312345678' where id = $1 returning id`,
      [OLD],
    );
    expect(completed.affected, completed.error?.message).toBe(1);
    const copied = await copyAddress(order, OLD);
    expect(copied.ok, copied.error?.message).toBe(true);
    const [after] = await sql<{ shipping_address: Record<string, unknown> }>(`select shipping_address from public.orders where id = $1`, [order]);
    expect(after!.shipping_address).toMatchObject({ street: 'Av. Vallarta', exterior_number: '441', neighborhood: 'Centro', phone: '3312345678' });
  });

  it('names each missing part with the form text', async () => {
    const order = await pendingOrder(FULL);
    const base = (await sql<{ copy: Record<string, unknown> }>(`select public.address_snapshot($1) as copy`, [FULL]))[0]!.copy;
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ neighborhood: null }, 'Colonia requerida'],
      [{ municipality: '' }, 'Municipio o alcaldía requerido'],
      [{ state: '' }, 'Estado requerido'],
      [{ zip: '0670' }, 'Código Postal de 5 dígitos'],
      [{ phone: null }, 'Teléfono de 10 dígitos'],
    ];
    for (const [change, text] of cases) {
      const refused = await commit(db, 'service_role', undefined, `update public.orders set shipping_address = $2::jsonb where id = $1`, [
        order,
        JSON.stringify({ ...base, ...change }),
      ]);
      expect(refused.error?.message).toBe(`Completa tu dirección de envío: ${text}.`);
      expect(refused.error?.detail).toBe('address_incomplete');
    }
    expect((await copyAddress(order, FULL)).ok).toBe(true);
  });

  it("keeps the specification's fields for another country", async () => {
    const order = await pendingOrder(ABROAD);
    const copied = await copyAddress(order, ABROAD);
    expect(copied.ok, copied.error?.message).toBe(true);
  });

  it('never refuses the copy taken when a payment is confirmed: money already taken settles', async () => {
    const order = await pendingOrder(FULL);
    // The order was pointed at an address that later lost its parts (written around the rules).
    await sql(`update public.addresses set exterior_number = null, phone = null where id = $1`, [FULL]);
    const [{ total }] = await sql<{ total: string }>(`select total from public.orders where id = $1`, [order]);
    const paid = await commit<{ ok: boolean }>(
      db,
      'service_role',
      undefined,
      `select public.mark_order_paid($1, 'simulated', 'pi_prueba_1', $2, 'mxn') as ok`,
      [order, Math.round(Number(total) * 100)],
    );
    expect(paid.ok, paid.error?.message).toBe(true);
    const [row] = await sql<{ status: string; shipping_address: Record<string, unknown> }>(`select status, shipping_address from public.orders where id = $1`, [
      order,
    ]);
    expect(row!.status).toBe('Pagado');
    expect(row!.shipping_address).toMatchObject({ street: 'Av. Chapultepec', exterior_number: null });
  });
});
