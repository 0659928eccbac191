/**
 * The Mexican address (20261129006000_mexican_address.sql): the new parts of an address are
 * optional columns with their own limits, a Mexican postal code must be 5 digits on every new write
 * while an old row with a short one still reads and can be chosen, the shopper may write the new
 * columns of their own addresses only, the paid order's copy carries them, and a drop's address key
 * counts the exterior number with the street.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PGlite } from '@electric-sql/pglite';
import { attempt, commit, migratedPglite } from './support.ts';

const ANA = '10000000-0000-4000-a000-0000000000f1';
const BETO = '10000000-0000-4000-a000-0000000000f2';
const OLD = '20000000-0000-4000-a000-0000000000f1';

let db: PGlite;

async function sql(statement: string, params: unknown[] = []): Promise<Record<string, unknown>[]> {
  const outcome = await commit(db, 'postgres', undefined, statement, params);
  if (!outcome.ok) throw new Error(`${statement}: ${outcome.error?.message}`);
  return outcome.rows;
}

const FULL = `(user_id, street, exterior_number, interior_number, neighborhood, municipality, city, state, zip, country, delivery_references, phone)
  values (auth.uid(), 'Av. Chapultepec', '480', '12B', 'Roma Norte', 'Cuauhtémoc', '', 'Ciudad de México', $1, 'México', 'Portón negro', '5512345678')`;

beforeAll(async () => {
  db = await migratedPglite();
  for (const [id, name] of [
    [ANA, 'ana'],
    [BETO, 'beto'],
  ]) {
    await sql(`insert into auth.users (id, email, raw_user_meta_data) values ($1, $2, $3::jsonb)`, [
      id,
      `${name}@correo.mx`,
      JSON.stringify({ username: name }),
    ]);
  }
  await sql(`insert into public.franchises (id, name) values ('pokemon', 'Pokémon')`);
  await sql(`insert into public.products (id, name, price, stock, franchise_id) values ('pk-sobre', 'Sobre suelto', 100, 10, 'pokemon')`);
  // An address saved before the Mexican parts existed, with the 3-digit postal code the old rule allowed.
  await db.exec(`alter table public.addresses disable trigger addresses_zip_mx`);
  await sql(
    `insert into public.addresses (id, user_id, street, city, state, zip, country) values ($1, $2, 'Av. Vallarta 441, Col. Centro', 'Guadalajara', 'Jalisco', '441', 'México')`,
    [OLD, ANA],
  );
  await db.exec(`alter table public.addresses enable trigger addresses_zip_mx`);
});

afterAll(async () => {
  await db?.close();
});

describe('the Mexican address', () => {
  it('keeps an old address without its Mexican parts readable, choosable for an order and relabelled', async () => {
    const read = await attempt(db, 'authenticated', ANA, `select street, zip, exterior_number, neighborhood, phone from public.addresses where id = $1`, [OLD]);
    expect(read.rows).toEqual([{ street: 'Av. Vallarta 441, Col. Centro', zip: '441', exterior_number: null, neighborhood: null, phone: null }]);
    const order = await commit<{ id: string }>(db, 'authenticated', ANA, `select public.create_order($1::jsonb) as id`, [
      JSON.stringify([{ product_id: 'pk-sobre', quantity: 1 }]),
    ]);
    expect(order.ok, order.error?.message).toBe(true);
    const chosen = await attempt(db, 'authenticated', ANA, `update public.orders set shipping_address_id = $1 where id = $2 returning id`, [
      OLD,
      order.rows[0]!.id,
    ]);
    expect(chosen.affected, chosen.error?.message).toBe(1);
    // Writes that do not touch the postal code or the country go through.
    const label = await attempt(db, 'authenticated', ANA, `update public.addresses set label = 'Casa', is_default = true where id = $1 returning id`, [OLD]);
    expect(label.ok, label.error?.message).toBe(true);
  });

  it('refuses a Mexican postal code that is not 5 digits on inserts and on updates that write it', async () => {
    const short = await attempt(db, 'authenticated', ANA, `insert into public.addresses ${FULL} returning id`, ['441']);
    expect(short.ok).toBe(false);
    expect(short.error).toMatchObject({ detail: 'zip_mx', message: 'Código Postal inválido: en México son 5 dígitos.' });
    const retyped = await attempt(db, 'authenticated', ANA, `update public.addresses set zip = zip where id = $1 returning id`, [OLD]);
    expect(retyped.error?.detail).toBe('zip_mx');
    const fixed = await attempt(db, 'authenticated', ANA, `update public.addresses set zip = '44100', exterior_number = '441' where id = $1 returning zip`, [
      OLD,
    ]);
    expect(fixed.rows).toEqual([{ zip: '44100' }]);
    // México however it is written.
    for (const country of ['mexico', ' MÉXICO ', 'Mexico']) {
      const spelt = await attempt(
        db,
        'authenticated',
        ANA,
        `insert into public.addresses (user_id, street, city, state, zip, country) values (auth.uid(), 'Juárez 10', 'Guadalajara', 'Jalisco', '4410', $1) returning id`,
        [country],
      );
      expect(spelt.error?.detail, country).toBe('zip_mx');
    }
    // Other countries keep the table's rule (up to 5 digits).
    const abroad = await attempt(
      db,
      'authenticated',
      ANA,
      `insert into public.addresses (user_id, street, city, state, zip, country) values (auth.uid(), '5th Ave 10', 'New York', 'NY', '100', 'Estados Unidos') returning id`,
    );
    expect(abroad.ok, abroad.error?.message).toBe(true);
  });

  it('checks the new parts: phone of 10 digits, references up to 200 characters, no blank parts', async () => {
    const ok = await commit(
      db,
      'authenticated',
      ANA,
      `insert into public.addresses ${FULL} returning exterior_number, neighborhood, municipality, delivery_references, phone`,
      ['06700'],
    );
    expect(ok.rows).toEqual([
      { exterior_number: '480', neighborhood: 'Roma Norte', municipality: 'Cuauhtémoc', delivery_references: 'Portón negro', phone: '5512345678' },
    ]);
    for (const [column, value] of [
      ['phone', '55 1234 5678'],
      ['phone', '551234567'],
      ['delivery_references', 'a'.repeat(201)],
      ['exterior_number', '  '],
      ['neighborhood', ''],
      ['municipality', ' '],
      ['city', ' '],
      ['interior_number', 'x'.repeat(21)],
    ] as const) {
      const bad = await attempt(db, 'authenticated', ANA, `update public.addresses set ${column} = $1 where id = $2 returning id`, [value, OLD]);
      expect(bad.ok, `${column} = ${value}`).toBe(false);
      expect(bad.error?.code, column).toBe('23514');
    }
  });

  it('lets a shopper write the new columns of their own addresses only (column grants and row security)', async () => {
    const own = await attempt(
      db,
      'authenticated',
      ANA,
      `update public.addresses set neighborhood = 'Centro', municipality = 'Guadalajara', phone = '3312345678', interior_number = null, delivery_references = 'Junto a la farmacia' where id = $1 returning id`,
      [OLD],
    );
    expect(own.affected).toBe(1);
    const other = await attempt(db, 'authenticated', BETO, `update public.addresses set neighborhood = 'Centro' where id = $1 returning id`, [OLD]);
    expect(other.affected).toBe(0);
    const anon = await attempt(db, 'anon', undefined, `update public.addresses set phone = '5512345678' where id = $1 returning id`, [OLD]);
    expect(anon.ok).toBe(false);
    const grants = await sql(
      `select privilege_type, count(*)::int as columns from information_schema.column_privileges
        where table_schema = 'public' and table_name = 'addresses' and grantee = 'authenticated'
          and column_name in ('exterior_number', 'interior_number', 'neighborhood', 'municipality', 'delivery_references', 'phone')
        group by privilege_type order by privilege_type`,
    );
    expect(grants).toEqual([
      { privilege_type: 'INSERT', columns: 6 },
      { privilege_type: 'SELECT', columns: 6 },
      { privilege_type: 'UPDATE', columns: 6 },
    ]);
  });

  it("copies the new parts into the paid order's address copy", async () => {
    const [row] = await sql(`select public.address_snapshot(a.id) as copy from public.addresses a where a.user_id = $1 and a.zip = '06700'`, [ANA]);
    expect(row!.copy).toEqual({
      label: null,
      street: 'Av. Chapultepec',
      exterior_number: '480',
      interior_number: '12B',
      neighborhood: 'Roma Norte',
      municipality: 'Cuauhtémoc',
      city: '',
      state: 'Ciudad de México',
      zip: '06700',
      country: 'México',
      references: 'Portón negro',
      phone: '5512345678',
    });
  });

  it("counts the exterior number with the street in a drop's address key, and not the interior number", async () => {
    const [row] = await sql(
      `select public.order_drop_address_key('Pagado', null, '{"street": "Av. Reforma", "exterior_number": "222", "interior_number": "4", "zip": "06600", "country": "México"}'::jsonb)
                = public.order_drop_address_key('Pagado', null, '{"street": "Av. Reforma 222", "zip": "06600", "country": "México"}'::jsonb) as same,
              public.order_drop_address_key('Pagado', null, '{"street": "Av. Reforma", "exterior_number": "222", "zip": "06600", "country": "México"}'::jsonb)
                = public.order_drop_address_key('Pagado', null, '{"street": "Av. Reforma", "exterior_number": "224", "zip": "06600", "country": "México"}'::jsonb) as neighbours`,
    );
    expect(row).toEqual({ same: true, neighbours: false });
    const [trigger] = await sql(`select pg_get_triggerdef(t.oid) as def from pg_trigger t where t.tgname = 'addresses_drop_address_limit'`);
    expect(trigger!.def).toContain('UPDATE OF street, exterior_number, zip, country');
  });
});
