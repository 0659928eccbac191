/**
 * A drop product's limit per delivery address: the units of a product with on_sale_at in live
 * orders delivered to the same address (street, postal code and country, compared without case,
 * spaces, punctuation or accents), across accounts, may not exceed its limit_per_customer. Judged
 * when a shopper attaches the address to a pending order and again when the order is paid.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PGlite } from '@electric-sql/pglite';
import { commit, migratedPglite, OWED } from './support.ts';

const ANA = '10000000-0000-4000-a000-0000000000e1';
const BETO = '10000000-0000-4000-a000-0000000000e2';
const CARLA = '10000000-0000-4000-a000-0000000000e3';

let db: PGlite;

async function sql(statement: string, params: unknown[] = []): Promise<Record<string, unknown>[]> {
  const outcome = await commit(db, 'postgres', undefined, statement, params);
  if (!outcome.ok) throw new Error(`${statement}: ${outcome.error?.message}`);
  return outcome.rows;
}

async function orderOf(user: string, items: { product_id: string; quantity: number }[]): Promise<string> {
  const outcome = await commit<{ id: string }>(db, 'authenticated', user, 'select public.create_order($1::jsonb) as id', [JSON.stringify(items)]);
  if (!outcome.ok) throw new Error(`create_order: ${outcome.error?.message}`);
  return outcome.rows[0]!.id;
}

async function address(user: string, street: string, zip: string, country: string): Promise<string> {
  const [row] = await sql(
    `insert into public.addresses (user_id, street, city, state, zip, country) values ($1, $2, 'Ciudad de México', 'CDMX', $3, $4) returning id`,
    [user, street, zip, country],
  );
  return row!.id as string;
}

/** An address saved before the 5-digit rule for México (a '6600' still in the table). */
async function oldAddress(user: string, street: string, zip: string, country: string): Promise<string> {
  await sql('alter table public.addresses disable trigger addresses_zip_mx');
  try {
    return await address(user, street, zip, country);
  } finally {
    await sql('alter table public.addresses enable trigger addresses_zip_mx');
  }
}

/** The shopper's own REST update that attaches the address to the order. */
function attach(user: string, orderId: string, addressId: string) {
  return commit(db, 'authenticated', user, 'update public.orders set shipping_address_id = $1 where id = $2 returning id', [addressId, orderId]);
}

function pay(orderId: string, ref: string) {
  return commit(db, 'service_role', undefined, `select public.mark_order_paid($1, 'stripe', '${ref}', ${OWED}) as changed`, [orderId]);
}

beforeAll(async () => {
  db = await migratedPglite();
  for (const [id, name] of [
    [ANA, 'ana'],
    [BETO, 'beto'],
    [CARLA, 'carla'],
  ]) {
    await sql(`insert into auth.users (id, email, raw_user_meta_data) values ($1, $2, $3::jsonb)`, [
      id,
      `${name}@correo.mx`,
      JSON.stringify({ username: name }),
    ]);
  }
  await sql(`insert into public.franchises (id, name) values ('pokemon', 'Pokémon')`);
  await sql(`insert into public.products (id, name, price, stock, limit_per_customer, franchise_id, on_sale_at) values
    ('pk-drop', 'Caja Prismatic', 1500, 100, 2, 'pokemon', now() - interval '1 minute'),
    ('pk-drop-2', 'Caja Surging Sparks', 1500, 100, 2, 'pokemon', now() - interval '1 minute'),
    ('pk-drop-3', 'Caja Stellar Crown', 1500, 100, 2, 'pokemon', now() - interval '1 minute'),
    ('pk-drop-4', 'Caja Journey Together', 1500, 100, 2, 'pokemon', now() - interval '1 minute'),
    ('pk-plain', 'Sobre suelto', 100, 100, 2, 'pokemon', null)`);
});

afterAll(async () => {
  await db?.close();
});

describe('a drop product delivered to one address by several accounts', () => {
  it("refuses a second account's order to the same address written differently, and accepts another address", async () => {
    const anaHome = await address(ANA, 'Av. Reforma 222, Int. 4', '06600', 'México');
    const betoSame = await oldAddress(BETO, '  av reforma 222  int 4 ', '6600', 'MEXICO');
    const betoOther = await address(BETO, 'Calle Durango 15', '06700', 'México');

    const anas = await orderOf(ANA, [{ product_id: 'pk-drop', quantity: 2 }]);
    expect((await attach(ANA, anas, anaHome)).ok).toBe(true);

    const betos = await orderOf(BETO, [{ product_id: 'pk-drop', quantity: 1 }]);
    const refused = await attach(BETO, betos, betoSame);
    expect(refused.ok).toBe(false);
    expect(refused.error?.code).toBe('P0001');
    expect(refused.error?.detail).toBe('drop_address_limit:pk-drop');
    expect(refused.error?.message).toContain('Ya se alcanzó el límite de este lanzamiento para esta dirección de envío');
    expect(await sql('select shipping_address_id from public.orders where id = $1', [betos])).toEqual([{ shipping_address_id: null }]);

    const elsewhere = await attach(BETO, betos, betoOther);
    expect(elsewhere.ok).toBe(true);
    expect(await sql('select shipping_address_id from public.orders where id = $1', [betos])).toEqual([{ shipping_address_id: betoOther }]);
  });

  it('counts units: a second account fits while the address is under the limit', async () => {
    const carlaHome = await address(CARLA, 'Insurgentes Sur 1000', '03100', 'México');
    const anaSame = await address(ANA, 'INSURGENTES SÚR 1000', '03100', 'mexico');
    const first = await orderOf(CARLA, [{ product_id: 'pk-drop-2', quantity: 1 }]);
    expect((await attach(CARLA, first, carlaHome)).ok).toBe(true);
    const second = await orderOf(ANA, [{ product_id: 'pk-drop-2', quantity: 1 }]);
    // At this address 1 + 1 units: the limit, not beyond it.
    expect((await attach(ANA, second, anaSame)).ok).toBe(true);
    const third = await orderOf(BETO, [{ product_id: 'pk-drop-2', quantity: 1 }]);
    const betoThere = await address(BETO, 'Insurgentes  Sur  1000', '03100', 'México');
    const refused = await attach(BETO, third, betoThere);
    expect(refused.error?.detail).toBe('drop_address_limit:pk-drop-2');

    // Once an order there is cancelled, its units no longer count.
    await sql(`update public.orders set status = 'Cancelado' where id = $1`, [first]);
    expect((await attach(BETO, third, betoThere)).ok).toBe(true);
  });

  it('leaves products without on_sale_at alone', async () => {
    const anaPlain = await address(ANA, 'Río Lerma 40', '06500', 'México');
    const betoPlain = await address(BETO, 'rio lerma 40', '06500', 'México');
    const anas = await orderOf(ANA, [{ product_id: 'pk-plain', quantity: 2 }]);
    const betos = await orderOf(BETO, [{ product_id: 'pk-plain', quantity: 2 }]);
    expect((await attach(ANA, anas, anaPlain)).ok).toBe(true);
    expect((await attach(BETO, betos, betoPlain)).ok).toBe(true);
    expect((await pay(anas, 'pi_plain_a')).ok).toBe(true);
    expect((await pay(betos, 'pi_plain_b')).ok).toBe(true);
  });

  it('judges the order again when it is paid, under its lock, whatever attached the address', async () => {
    const anaFlat = await address(ANA, 'Amsterdam 10', '06100', 'México');
    const betoFlat = await address(BETO, 'Ámsterdam #10', '06100', 'México');
    const anas = await orderOf(ANA, [{ product_id: 'pk-drop-3', quantity: 2 }]);
    expect((await attach(ANA, anas, anaFlat)).ok).toBe(true);
    expect((await pay(anas, 'pi_drop_a')).ok).toBe(true);
    const betos = await orderOf(BETO, [{ product_id: 'pk-drop-3', quantity: 1 }]);
    // Attached around the shopper's update (by the database owner, triggers off): payment still refuses it.
    await db.exec(
      `begin; set local session_replication_role = replica; update public.orders set shipping_address_id = '${betoFlat}' where id = '${betos}'; commit;`,
    );
    const paid = await pay(betos, 'pi_drop_b');
    expect(paid.ok).toBe(false);
    expect(paid.error?.detail).toBe('drop_address_limit:pk-drop-3');
    expect(paid.error?.message).toContain('Ya se alcanzó el límite de este lanzamiento para esta dirección de envío');
    expect(await sql('select status::text as status, paid_at from public.orders where id = $1', [betos])).toEqual([{ status: 'Pendiente', paid_at: null }]);
  });
});

describe('an address edited after it was attached', () => {
  it("is refused when it becomes another account's address for a drop already at the limit there", async () => {
    const anaHouse = await address(ANA, 'Durango 200', '06700', 'México');
    const betoHouse = await address(BETO, 'Colima 5', '06700', 'México');
    const anas = await orderOf(ANA, [{ product_id: 'pk-drop-4', quantity: 2 }]);
    expect((await attach(ANA, anas, anaHouse)).ok).toBe(true);
    const betos = await orderOf(BETO, [{ product_id: 'pk-drop-4', quantity: 1 }]);
    expect((await attach(BETO, betos, betoHouse)).ok).toBe(true);

    const edited = await commit(db, 'authenticated', BETO, `update public.addresses set street = 'DURANGO  200' where id = $1 returning id`, [betoHouse]);
    expect(edited.ok).toBe(false);
    expect(edited.error?.detail).toBe('drop_address_limit:pk-drop-4');
    expect(await sql('select street from public.addresses where id = $1', [betoHouse])).toEqual([{ street: 'Colima 5' }]);
    // Any other change of the address is fine.
    expect((await commit(db, 'authenticated', BETO, `update public.addresses set street = 'Colima 7' where id = $1 returning id`, [betoHouse])).ok).toBe(true);
  });
});

describe('drop_address_key', () => {
  it('folds case, accents, spaces and punctuation, and pads the postal code', async () => {
    const [row] = await sql(
      `select public.drop_address_key('Av. Reforma 222', '06600', 'México') = public.drop_address_key(' AV REFÓRMA  #222 ', '6600', 'mexico') as same,
              public.drop_address_key('Av. Reforma 222', '06600', 'México') = public.drop_address_key('Av. Reforma 223', '06600', 'México') as other_number,
              public.drop_address_key('Av. Reforma 222', '06600', 'México') = public.drop_address_key('Av. Reforma 222', '06601', 'México') as other_zip`,
    );
    expect(row).toEqual({ same: true, other_number: false, other_zip: false });
  });
});

describe('the stored keys (addresses.drop_key, orders.shipping_drop_key)', () => {
  it('give every order the key order_drop_address_key gives it: paid by its copy, pending by its address, or its copy without one', async () => {
    // Kinds the earlier cases did not leave behind: a pending order with a copy and no address, a
    // paid order whose address was edited after its copy was taken, an order whose address was deleted.
    await sql(
      `insert into public.products (id, name, price, stock, limit_per_customer, franchise_id) values ('pk-keys', 'Sobre de prueba', 100, 100, 10, 'pokemon')`,
    );
    const [row] = await sql(
      `insert into public.addresses (user_id, street, exterior_number, neighborhood, municipality, city, state, zip, country, phone)
       values ($1, 'Tonalá', '10', 'Roma Norte', 'Cuauhtémoc', 'Ciudad de México', 'CDMX', '06700', 'México', '5512345678') returning id`,
      [CARLA],
    );
    const home = row!.id as string;
    const paid = await orderOf(CARLA, [{ product_id: 'pk-keys', quantity: 1 }]);
    expect((await attach(CARLA, paid, home)).ok).toBe(true);
    await sql(`update public.orders set shipping_address = public.address_snapshot(shipping_address_id) where id = $1`, [paid]);
    expect((await pay(paid, 'pi_stored_key')).ok).toBe(true);
    expect((await commit(db, 'authenticated', CARLA, `update public.addresses set exterior_number = '12' where id = $1 returning id`, [home])).ok).toBe(true);
    const copyOnly = await orderOf(CARLA, [{ product_id: 'pk-keys', quantity: 1 }]);
    await sql(
      `update public.orders set shipping_address = '{"street": "Orizaba", "exterior_number": "3", "neighborhood": "Roma", "municipality": "Cuauhtémoc", "state": "CDMX", "zip": "06700", "country": "MÉXICO", "phone": "5512345678"}'::jsonb where id = $1`,
      [copyOnly],
    );
    const gone = await address(CARLA, 'Jalapa 1', '06700', 'México');
    const orphan = await orderOf(CARLA, [{ product_id: 'pk-keys', quantity: 1 }]);
    expect((await attach(CARLA, orphan, gone)).ok).toBe(true);
    await sql('delete from public.addresses where id = $1', [gone]);

    const rows = await sql(
      `select o.id, o.status::text as status, o.shipping_address_id is not null as has_address, o.shipping_drop_key is not null as has_copy,
              case when o.status <> 'Pendiente' and o.shipping_drop_key is not null then o.shipping_drop_key
                   else coalesce(a.drop_key, o.shipping_drop_key) end as stored,
              public.order_drop_address_key(o.status, o.shipping_address_id, o.shipping_address) as computed
         from public.orders o left join public.addresses a on a.id = o.shipping_address_id`,
    );
    const kinds = new Set(
      rows.map((r) => `${r.status === 'Pendiente' ? 'pending' : 'later'}/${r.has_address ? 'address' : 'none'}/${r.has_copy ? 'copy' : 'none'}`),
    );
    for (const kind of ['pending/address/none', 'pending/none/copy', 'pending/none/none', 'later/address/copy']) expect(kinds).toContain(kind);
    expect(rows.filter((r) => r.stored !== r.computed)).toEqual([]);
    expect(rows.find((r) => r.id === paid)?.computed).toBe('tonala10|06700|mexico');
    expect(rows.find((r) => r.id === copyOnly)?.computed).toBe('orizaba3|06700|mexico');
  });

  it('cannot be written by a shopper, and the guard still lets a shopper attach an address', async () => {
    const mine = await address(ANA, 'Mérida 5', '06700', 'México');
    const written = await commit(db, 'authenticated', ANA, `update public.addresses set drop_key = 'x' where id = $1 returning id`, [mine]);
    expect(written.ok).toBe(false);
    const order = await orderOf(ANA, [{ product_id: 'pk-keys', quantity: 1 }]);
    const forged = await commit(db, 'authenticated', ANA, `update public.orders set shipping_drop_key = 'x' where id = $1 returning id`, [order]);
    expect(forged.ok).toBe(false);
    expect((await attach(ANA, order, mine)).ok).toBe(true);
    expect(await sql('select drop_key from public.addresses where id = $1', [mine])).toEqual([{ drop_key: 'merida5|06700|mexico' }]);
  });
});
