/**
 * The shopper's tax data (tax_profiles) and the catalogue's SAT keys (products.sat_product_key,
 * sat_unit_key): a shopper reads and writes only their own row, the database refuses what a factura
 * could not be issued to (RFC format, date, check digit, the generic RFCs, régimen by persona física
 * or moral, uso del CFDI by régimen, postal code, e-mail), and a product's keys default by product
 * type and are overridden only through admin_save_product by an admin, in SAT's format.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PGlite } from '@electric-sql/pglite';
import { attempt, commit, migratedPglite } from './support.ts';

const ANA = '20000000-0000-4000-a000-0000000000a1';
const BETO = '20000000-0000-4000-a000-0000000000b2';
const ADMIN = '20000000-0000-4000-a000-0000000000ad';

/** RFCs whose check digit follows SAT's rule (computed, not made up): física, moral. */
const FISICA = 'GODE561231GR8';
const MORAL = 'EKU9003173C9';

let db: PGlite;

async function sql(statement: string, params: unknown[] = []): Promise<Record<string, unknown>[]> {
  const outcome = await commit(db, 'postgres', undefined, statement, params);
  if (!outcome.ok) throw new Error(`${statement}: ${outcome.error?.message}`);
  return outcome.rows;
}

const INSERT = `insert into public.tax_profiles (rfc, legal_name, tax_regime, tax_zip, cfdi_use, invoice_email)
  values ($1, $2, $3, $4, $5, $6) returning user_id, rfc, legal_name, cfdi_use`;

function insertAs(user: string, values: [string, string, string, string, string, string]) {
  return attempt<{ user_id: string; rfc: string; legal_name: string; cfdi_use: string }>(db, 'authenticated', user, INSERT, values);
}

beforeAll(async () => {
  db = await migratedPglite();
  await sql(`insert into auth.users (id, email, raw_user_meta_data) values
    ('${ANA}', 'ana@correo.mx', '{"username":"ana"}'), ('${BETO}', 'beto@correo.mx', '{"username":"beto"}'),
    ('${ADMIN}', 'jefa@correo.mx', '{"username":"jefa"}')`);
  await sql(`update public.profiles set is_admin = true where id = '${ADMIN}'`);
  await sql(`insert into public.tax_profiles (user_id, rfc, legal_name, tax_regime, tax_zip, cfdi_use, invoice_email)
    values ('${ANA}', '${MORAL}', 'ESCUELA KEMPER URGATE', '601', '42501', 'G01', 'ana@correo.mx')`);
  await sql(`insert into public.franchises (id, name) values ('pokemon', 'Pokémon')`);
  await sql(`insert into public.product_types (id, name, franchise_id, sat_product_key) values
    ('single-card', 'Carta individual', 'pokemon', '60141101'), ('playmat', 'Tapete de juego', 'pokemon', '49121500')`);
});

afterAll(async () => {
  await db?.close();
});

describe('a shopper’s tax data', () => {
  it('is saved for oneself, with the RFC in capitals and the razón social only trimmed', async () => {
    const saved = await insertAs(BETO, [' gode561231gr8 ', '  Emilio Gómez Díaz ', '612', '06700', 'G03', 'beto@correo.mx']);
    expect(saved.ok, saved.error?.message).toBe(true);
    expect(saved.rows).toEqual([{ user_id: BETO, rfc: FISICA, legal_name: 'Emilio Gómez Díaz', cfdi_use: 'G03' }]);
  });

  it('takes G03 Gastos en general when no uso del CFDI is given', async () => {
    const saved = await attempt(
      db,
      'authenticated',
      BETO,
      `insert into public.tax_profiles (rfc, legal_name, tax_regime, tax_zip, invoice_email)
      values ($1, 'Emilio Gómez Díaz', '626', '06700', 'beto@correo.mx') returning cfdi_use`,
      [FISICA],
    );
    expect(saved.rows).toEqual([{ cfdi_use: 'G03' }]);
  });

  it('cannot be read, changed or deleted by another shopper, nor created for them', async () => {
    expect((await attempt(db, 'authenticated', BETO, `select rfc from public.tax_profiles where user_id = '${ANA}'`)).rows).toEqual([]);
    const changed = await attempt(db, 'authenticated', BETO, `update public.tax_profiles set legal_name = 'Otra' where user_id = '${ANA}' returning user_id`);
    expect(changed).toMatchObject({ ok: true, affected: 0 });
    const deleted = await attempt(db, 'authenticated', BETO, `delete from public.tax_profiles where user_id = '${ANA}' returning user_id`);
    expect(deleted).toMatchObject({ ok: true, affected: 0 });
    const forAna = await attempt(
      db,
      'authenticated',
      BETO,
      `insert into public.tax_profiles (user_id, rfc, legal_name, tax_regime, tax_zip, invoice_email)
      values ('${ANA}', '${FISICA}', 'X', '612', '06700', 'x@correo.mx')`,
    );
    expect(forAna.error?.code).toBe('42501');
    expect((await attempt(db, 'anon', undefined, `select rfc from public.tax_profiles`)).error?.code).toBe('42501');
    expect((await attempt(db, 'authenticated', ANA, `select rfc, legal_name from public.tax_profiles`)).rows).toEqual([
      { rfc: MORAL, legal_name: 'ESCUELA KEMPER URGATE' },
    ]);
  });

  it.each([
    ['a bad check digit', 'GODE561231GR9', '612', 'G03', 'tax_profiles_rfc_check'],
    ['a date that does not exist', 'GODE561331GR2', '612', 'G03', 'tax_profiles_rfc_check'],
    ['the 30th of February', 'GODE560230GR8', '612', 'G03', 'tax_profiles_rfc_check'],
    ['the generic RFC of the factura global', 'XAXX010101000', '616', 'S01', 'tax_profiles_rfc_check'],
    ['the generic RFC of a foreigner', 'XEXX010101000', '610', 'S01', 'tax_profiles_rfc_check'],
    ['a moral régimen for a persona física', FISICA, '601', 'G03', 'tax_profiles_tax_regime_check'],
    ['a física régimen for a persona moral', MORAL, '612', 'G03', 'tax_profiles_tax_regime_check'],
    ['G03 for sueldos y salarios', FISICA, '605', 'G03', 'tax_profiles_cfdi_use_check'],
    ['a uso that is not SAT’s', FISICA, '612', 'G99', 'tax_profiles_cfdi_use_check'],
  ])('refuses %s', async (_what, rfc, regime, use, constraint) => {
    const refused = await insertAs(BETO, [rfc, 'Nombre', regime, '06700', use, 'beto@correo.mx']);
    expect(refused.ok).toBe(false);
    expect(refused.error?.message).toContain(constraint);
  });

  it('refuses a blank razón social, a 4-digit postal code and an e-mail without a domain', async () => {
    expect((await insertAs(BETO, [FISICA, '   ', '612', '06700', 'G03', 'beto@correo.mx'])).error?.message).toContain('tax_profiles_legal_name_check');
    expect((await insertAs(BETO, [FISICA, 'Emilio', '612', '6700', 'G03', 'beto@correo.mx'])).error?.message).toContain('tax_profiles_tax_zip_check');
    expect((await insertAs(BETO, [FISICA, 'Emilio', '612', '06700', 'G03', 'beto@correo'])).error?.message).toContain('tax_profiles_invoice_email_check');
  });

  it('accepts RFCs with Ñ and &, whose check digit counts them as SAT does', async () => {
    expect((await insertAs(BETO, ['MUÑO800101AB3', 'Ana Muñoz', '612', '06700', 'G03', 'beto@correo.mx'])).ok).toBe(true);
    expect((await insertAs(BETO, ['A&B850101AB6', 'A&B', '601', '06700', 'G03', 'beto@correo.mx'])).ok).toBe(true);
    expect((await insertAs(BETO, ['A&B850101AB0', 'A&B', '601', '06700', 'G03', 'beto@correo.mx'])).error?.message).toContain('tax_profiles_rfc_check');
  });

  it('accepts D01 for a persona física with actividad empresarial and S01 for sin obligaciones fiscales', async () => {
    expect((await insertAs(BETO, [FISICA, 'Emilio', '612', '06700', 'D01', 'beto@correo.mx'])).ok).toBe(true);
    expect((await insertAs(BETO, [FISICA, 'Emilio', '616', '06700', 'S01', 'beto@correo.mx'])).ok).toBe(true);
    expect((await insertAs(BETO, [MORAL, 'Emilio', '626', '06700', 'G01', 'beto@correo.mx'])).ok).toBe(true);
  });
});

const SAVE = `select public.admin_save_product(
  p_product_id => $1, p_stock_read => 3, p_stock => 3, p_price => 100, p_original_price => null,
  p_limit_per_customer => 2, p_available => true, p_preorder => false, p_release_date => null,
  p_on_sale_at => null, p_description => '', p_images => array[]::text[],
  p_sat_product_key => $2, p_sat_unit_key => $3) as answer`;

function saveKeys(actor: string, id: string, productKey: string | null, unitKey: string | null) {
  return commit<{ answer: { saved: boolean; product?: { sat_product_key: string; sat_unit_key: string } } }>(db, 'authenticated', actor, SAVE, [
    id,
    productKey,
    unitKey,
  ]);
}

async function keysOf(id: string) {
  return (await sql(`select sat_product_key, sat_unit_key from public.products where id = $1`, [id]))[0];
}

describe('a product’s SAT keys', () => {
  beforeAll(async () => {
    await sql(`insert into public.products (id, name, price, stock, franchise_id, product_type_id) values
      ('pk-carta', 'Carta', 100, 3, 'pokemon', 'single-card'), ('pk-tapete', 'Tapete', 100, 3, 'pokemon', 'playmat'),
      ('pk-sin-tipo', 'Sin tipo', 100, 3, 'pokemon', null)`);
  });

  it('default to the product type’s product key (60141101 without a type) and H87', async () => {
    expect(await keysOf('pk-carta')).toEqual({ sat_product_key: '60141101', sat_unit_key: 'H87' });
    expect(await keysOf('pk-tapete')).toEqual({ sat_product_key: '49121500', sat_unit_key: 'H87' });
    expect(await keysOf('pk-sin-tipo')).toEqual({ sat_product_key: '60141101', sat_unit_key: 'H87' });
  });

  it('follow a change of type while the product had its type’s key', async () => {
    await sql(`update public.products set product_type_id = 'playmat' where id = 'pk-sin-tipo'`);
    expect(await keysOf('pk-sin-tipo')).toEqual({ sat_product_key: '49121500', sat_unit_key: 'H87' });
  });

  it('are overridden by an admin through admin_save_product, kept when not sent, reset when emptied', async () => {
    const saved = await saveKeys(ADMIN, 'pk-carta', '60141103', 'xbx');
    expect(saved.ok, saved.error?.message).toBe(true);
    expect(saved.rows[0]!.answer).toMatchObject({ saved: true, product: { sat_product_key: '60141103', sat_unit_key: 'XBX' } });
    expect(await keysOf('pk-carta')).toEqual({ sat_product_key: '60141103', sat_unit_key: 'XBX' });

    expect((await saveKeys(ADMIN, 'pk-carta', null, null)).ok).toBe(true);
    expect(await keysOf('pk-carta')).toEqual({ sat_product_key: '60141103', sat_unit_key: 'XBX' });

    expect((await saveKeys(ADMIN, 'pk-carta', '', ' ')).ok).toBe(true);
    expect(await keysOf('pk-carta')).toEqual({ sat_product_key: '60141101', sat_unit_key: 'H87' });
  });

  it.each([
    ['a 7-digit product key', '6014110', 'H87', 'sat_product_key_invalid'],
    ['a product key with letters', '6014110A', 'H87', 'sat_product_key_invalid'],
    ['a unit key of 4 characters', '60141101', 'PIEZ', 'sat_unit_key_invalid'],
  ])('refuses %s with its Spanish message', async (_what, productKey, unitKey, detail) => {
    const refused = await saveKeys(ADMIN, 'pk-carta', productKey, unitKey);
    expect(refused.ok).toBe(false);
    expect(refused.error?.detail).toBe(detail);
    expect(refused.error?.message).toMatch(/SAT/);
  });

  it('are refused to a non-admin, and checked by the table for a direct write', async () => {
    const shopper = await saveKeys(ANA, 'pk-carta', '60141103', 'H87');
    expect(shopper.error).toMatchObject({ code: '42501', detail: 'not_admin' });
    expect(await keysOf('pk-carta')).toEqual({ sat_product_key: '60141101', sat_unit_key: 'H87' });
    const direct = await commit(db, 'postgres', undefined, `update public.products set sat_product_key = '123' where id = 'pk-carta'`);
    expect(direct.error?.message).toContain('products_sat_product_key_check');
  });
});
