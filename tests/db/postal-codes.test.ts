/**
 * postal_code_lookup: the address form's one question about the SEPOMEX catalogue, asked by
 * anyone (anon too), while the table itself stays closed to the API roles.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PGlite } from '@electric-sql/pglite';
import { attempt, commit, migratedPglite, type ApiRole } from './support.ts';

let db: PGlite;

/** [postal code, settlement, type, municipality, state, city, state key, municipality key, settlement key] */
const ROWS: [string, string, string, string, string, string | null, string, string, string][] = [
  ['03100', 'Del Valle Centro', 'Colonia', 'Benito Juárez', 'Ciudad de México', 'Ciudad de México', '09', '014', '0301'],
  ['03100', 'Ñaño', 'Colonia', 'Benito Juárez', 'Ciudad de México', 'Ciudad de México', '09', '014', '0302'],
  ['03100', 'Álamos', 'Colonia', 'Benito Juárez', 'Ciudad de México', 'Ciudad de México', '09', '014', '0303'],
  ['03100', 'Narvarte', 'Barrio', 'Benito Juárez', 'Ciudad de México', 'Ciudad de México', '09', '014', '0304'],
  ['03100', 'Obrera', 'Colonia', 'Benito Juárez', 'Ciudad de México', 'Ciudad de México', '09', '014', '0305'],
  ['03100', 'Zacahuitzco', 'Colonia', 'Benito Juárez', 'Ciudad de México', 'Ciudad de México', '09', '014', '0306'],
  // The same name and type twice under one code is listed once.
  ['03100', 'Obrera', 'Colonia', 'Benito Juárez', 'Ciudad de México', 'Ciudad de México', '09', '014', '0307'],
  ['06700', 'Roma Norte', 'Colonia', 'Cuauhtémoc', 'Ciudad de México', 'Ciudad de México', '09', '015', '0701'],
  ['72990', 'San Diego', 'Pueblo', 'Tlaltenango', 'Puebla', null, '21', '182', '0001'],
];

async function lookup(role: ApiRole | 'postgres', code: unknown) {
  const outcome = await attempt<{ info: unknown }>(db, role, undefined, 'select public.postal_code_lookup($1) as info', [code]);
  if (!outcome.ok) throw new Error(outcome.error?.message);
  return outcome.rows[0]!.info;
}

beforeAll(async () => {
  db = await migratedPglite();
  for (const row of ROWS) {
    const outcome = await commit(
      db,
      'postgres',
      undefined,
      `insert into public.postal_settlements (postal_code, settlement, settlement_type, municipality, state, city, state_key, municipality_key, settlement_key)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
      row,
    );
    if (!outcome.ok) throw new Error(outcome.error?.message);
  }
});

afterAll(async () => {
  await db?.close();
});

describe('postal_code_lookup', () => {
  it("answers a code's state, municipality, city and settlements, by name in Spanish order", async () => {
    expect(await lookup('anon', '03100')).toEqual({
      code: '03100',
      state: 'Ciudad de México',
      municipality: 'Benito Juárez',
      city: 'Ciudad de México',
      settlements: [
        { name: 'Álamos', type: 'Colonia' },
        { name: 'Del Valle Centro', type: 'Colonia' },
        { name: 'Narvarte', type: 'Barrio' },
        { name: 'Ñaño', type: 'Colonia' },
        { name: 'Obrera', type: 'Colonia' },
        { name: 'Zacahuitzco', type: 'Colonia' },
      ],
    });
  });

  it('answers a one-settlement code, and a rural one with no city', async () => {
    expect(await lookup('anon', '06700')).toMatchObject({ municipality: 'Cuauhtémoc', settlements: [{ name: 'Roma Norte', type: 'Colonia' }] });
    expect(await lookup('anon', '72990')).toEqual({
      code: '72990',
      state: 'Puebla',
      municipality: 'Tlaltenango',
      city: null,
      settlements: [{ name: 'San Diego', type: 'Pueblo' }],
    });
  });

  it('is null for a code the catalogue does not know', async () => {
    expect(await lookup('anon', '99999')).toBeNull();
    expect(await lookup('anon', '06701')).toBeNull();
  });

  it('is null for a malformed code', async () => {
    for (const code of ['0310', '031000', ' 03100', '03100 ', '0310a', '', "03100' or '1'='1", '.*', null]) {
      expect(await lookup('anon', code)).toBeNull();
    }
  });

  it('answers signed-in shoppers and the service role the same', async () => {
    const asAnon = await lookup('anon', '03100');
    expect(await lookup('authenticated', '03100')).toEqual(asAnon);
    expect(await lookup('service_role', '03100')).toEqual(asAnon);
  });

  it('leaves the table itself closed to anon and signed-in shoppers', async () => {
    for (const role of ['anon', 'authenticated'] as const) {
      const read = await attempt(db, role, undefined, 'select postal_code, settlement from public.postal_settlements limit 1');
      expect(read.ok).toBe(false);
      expect(read.error?.code).toBe('42501');
      const write = await attempt(db, role, undefined, `delete from public.postal_settlements where postal_code = '06700'`);
      expect(write.error?.code).toBe('42501');
    }
  });

  it('is a stable SECURITY DEFINER function with an empty search_path', async () => {
    const { rows } = await db.query<{ prosecdef: boolean; provolatile: string; proconfig: string[] }>(
      `select prosecdef, provolatile, proconfig from pg_proc where oid = 'public.postal_code_lookup(text)'::regprocedure`,
    );
    expect(rows[0]).toMatchObject({ prosecdef: true, provolatile: 's' });
    expect(rows[0]!.proconfig).toContain('search_path=""');
  });
});
