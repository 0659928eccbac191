/**
 * The SEPOMEX import: replacing the catalogue in one transaction (twice the same file leaves the
 * same rows, a second file replaces the first, a failure leaves the previous load whole), the
 * local stack's sample seed written by the same code, and the command line end to end.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PGlite } from '@electric-sql/pglite';
import { applyMigrations, migrationFiles } from 'local-supabase/migrate';
import type { SepomexRow } from '~/domain/sepomex.ts';
import { freePort } from '../../scripts/support/net.mjs';
import { readSepomexFile, SAMPLE_FILE, SAMPLE_SEED_FILE, seedHeading } from '../../scripts/sepomex-import.ts';
import { replaceSettlements, seedSql } from '../../scripts/sepomex/load.ts';
import { migratedPglite, ROOT_DIR } from './support.ts';

const run = promisify(execFile);
const sample = readSepomexFile(path.join(ROOT_DIR, SAMPLE_FILE));

/** The table's rows without their generated ids, in a fixed order. */
async function contents(db: PGlite): Promise<unknown[]> {
  const { rows } = await db.query(
    `select postal_code, settlement, settlement_type, municipality, state, city, state_key, municipality_key, settlement_key,
            settlement_type_key, city_key, zone, office_code
     from public.postal_settlements order by state_key, municipality_key, settlement_key, postal_code, settlement`,
  );
  return rows;
}

async function lookup(db: PGlite, code: string): Promise<Record<string, unknown> | null> {
  const { rows } = await db.query<{ info: Record<string, unknown> | null }>('select public.postal_code_lookup($1) as info', [code]);
  return rows[0]!.info;
}

const SECOND_FILE: SepomexRow[] = [
  {
    postalCode: '06700',
    settlement: 'Roma Norte',
    settlementType: 'Colonia',
    municipality: 'Cuauhtémoc',
    state: 'Ciudad de México',
    city: 'Ciudad de México',
    officeCode: '06001',
    stateKey: '09',
    settlementTypeKey: '09',
    municipalityKey: '015',
    settlementKey: '0501',
    zone: 'Urbano',
    cityKey: '01',
  },
  {
    postalCode: '97000',
    settlement: "Mérida Centro (O'Horan)",
    settlementType: 'Colonia',
    municipality: 'Mérida',
    state: 'Yucatán',
    city: null,
    officeCode: null,
    stateKey: '31',
    settlementTypeKey: null,
    municipalityKey: '050',
    settlementKey: '0001',
    zone: null,
    cityKey: null,
  },
];

let db: PGlite;

beforeAll(async () => {
  db = await migratedPglite();
});

afterAll(async () => {
  await db?.close();
});

describe('the sample file', () => {
  it('is the official format, read without errors: postal codes of the four cities, several with many colonias', () => {
    expect(sample.errors).toEqual([]);
    expect(sample.rows.length).toBeGreaterThanOrEqual(200);
    const codes = new Set(sample.rows.map((r) => r.postalCode));
    for (const code of ['06700', '06600', '03100', '44100', '64000', '72000']) expect(codes).toContain(code);
    expect(new Set(sample.rows.map((r) => r.state))).toEqual(new Set(['Ciudad de México', 'Jalisco', 'Nuevo León', 'Puebla']));
    const perCode = new Map<string, number>();
    for (const row of sample.rows) perCode.set(row.postalCode, (perCode.get(row.postalCode) ?? 0) + 1);
    expect([...perCode.values()].filter((n) => n > 1).length).toBeGreaterThanOrEqual(5);
    const bytes = fs.readFileSync(path.join(ROOT_DIR, SAMPLE_FILE));
    // Latin-1 as the download: 'é' is the single byte 0xE9, never UTF-8's 0xC3 0xA9.
    expect(bytes.includes(Buffer.from([0xc3, 0xa9]))).toBe(false);
    expect(bytes.includes(Buffer.from('Cuauht\xe9moc', 'latin1'))).toBe(true);
  });
});

describe('replaceSettlements', () => {
  it('loads every settlement, and a second import of the same file leaves the same rows', async () => {
    await replaceSettlements(db, sample.rows);
    const first = await contents(db);
    expect(first).toHaveLength(sample.rows.length);
    await replaceSettlements(db, sample.rows);
    expect(await contents(db)).toEqual(first);
    expect(await lookup(db, '06700')).toEqual({
      code: '06700',
      state: 'Ciudad de México',
      municipality: 'Cuauhtémoc',
      city: 'Ciudad de México',
      settlements: [{ name: 'Roma Norte', type: 'Colonia' }],
    });
  });

  it("answers a code's several colonias in order, and a rural code with no city", async () => {
    const names = (answer: Record<string, unknown> | null) => (answer!.settlements as { name: string }[]).map((s) => s.name);
    const providencia = await lookup(db, '44630');
    expect(providencia).toMatchObject({ state: 'Jalisco', municipality: 'Guadalajara', city: 'Guadalajara' });
    expect(names(providencia)).toEqual(['Circunvalación Américas', 'Providencia']);
    const rural = await lookup(db, '72960');
    expect(rural).toMatchObject({ state: 'Puebla', municipality: 'Puebla', city: null });
    // Alphabetical, accents aside: 'Los Ángeles Tetela' sorts as 'Los Angeles'.
    expect(names(rural).slice(0, 4)).toEqual(['Buenavista Tetela', 'El Oasis Valsequillo', 'La Ladera del Tecorral', 'Los Ángeles Tetela']);
    expect(names(rural)).toHaveLength(14);
  });

  it('replaces the previous load with a second file', async () => {
    await replaceSettlements(db, sample.rows);
    await replaceSettlements(db, SECOND_FILE);
    expect(await contents(db)).toHaveLength(2);
    expect(await lookup(db, '64000')).toBeNull();
    expect(await lookup(db, '97000')).toEqual({
      code: '97000',
      state: 'Yucatán',
      municipality: 'Mérida',
      city: null,
      settlements: [{ name: "Mérida Centro (O'Horan)", type: 'Colonia' }],
    });
  });

  it('leaves the previous load whole when the new one fails', async () => {
    await replaceSettlements(db, sample.rows);
    const before = await contents(db);
    const bad = [...sample.rows, { ...SECOND_FILE[0]!, settlementKey: 'no es número' }];
    await expect(replaceSettlements(db, bad)).rejects.toThrow(/settlement_key_check/);
    expect(await contents(db)).toEqual(before);
  });
});

describe("the local stack's sample seed", () => {
  it('is what the importer writes for the sample file (npm run sepomex:import -- … --sql-out)', () => {
    const committed = fs.readFileSync(path.join(ROOT_DIR, SAMPLE_SEED_FILE), 'utf8');
    expect(committed).toBe(seedSql(sample.rows, seedHeading(SAMPLE_FILE, SAMPLE_SEED_FILE)));
  });

  it('is among the local seeds the stack applies, and loads the same rows as the importer', async () => {
    const seeds = migrationFiles(ROOT_DIR).filter((f) => f.kind === 'seed' && f.localOnly);
    expect(seeds.map((f) => path.relative(ROOT_DIR, f.path))).toContain(SAMPLE_SEED_FILE);
    await replaceSettlements(db, sample.rows);
    const imported = await contents(db);
    await replaceSettlements(db, SECOND_FILE);
    await db.exec(fs.readFileSync(path.join(ROOT_DIR, SAMPLE_SEED_FILE), 'utf8'));
    expect(await contents(db)).toEqual(imported);
  });
});

describe('npm run sepomex:import', () => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sepomex-'));
  const dataDir = path.join(tmp, 'data');
  let env: Record<string, string>;
  const cli = (args: string[], extra: Record<string, string> = {}) =>
    run(process.execPath, ['--import', 'tsx', path.join(ROOT_DIR, 'scripts/sepomex-import.ts'), ...args], {
      cwd: ROOT_DIR,
      env: { ...process.env, SEPOMEX_DATABASE_URL: '', DATABASE_URL: '', ...extra },
    }).then(
      ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
      (err: { code: number; stdout: string; stderr: string }) => ({ code: err.code, stdout: err.stdout, stderr: err.stderr }),
    );
  const rowsIn = async (): Promise<number> => {
    const check = await PGlite.create({ dataDir: path.join(dataDir, 'db') });
    try {
      return (await contents(check)).length;
    } finally {
      await check.close();
    }
  };
  /** The sample with a malformed line inserted as line 4. */
  const malformedFile = (): string => {
    const file = path.join(tmp, 'malo.txt');
    const lines = fs.readFileSync(path.join(ROOT_DIR, SAMPLE_FILE), 'latin1').split('\r\n');
    lines.splice(3, 0, '06700|Roma Norte|Colonia');
    fs.writeFileSync(file, lines.join('\r\n'), 'latin1');
    return file;
  };

  beforeAll(async () => {
    // A local stack's data folder, migrated, without its seeds, and no stack answering on its port.
    fs.mkdirSync(dataDir);
    const local = await PGlite.create({ dataDir: path.join(dataDir, 'db') });
    await applyMigrations((sql) => local.exec(sql).then(() => undefined), ROOT_DIR, { seed: false });
    await local.close();
    env = { LOCAL_SUPABASE_DATA_DIR: dataDir, LOCAL_SUPABASE_PORT: String(await freePort()) };
  }, 120_000);

  afterAll(() => {
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it("loads the file into the local stack's PGlite and says how many postal codes and settlements, twice the same", async () => {
    const first = await cli([SAMPLE_FILE], env);
    expect(first.stderr).toBe('');
    expect(first.stdout).toMatch(new RegExp(`^Cargados ${sample.postalCodes} códigos postales y ${sample.rows.length} asentamientos en [0-9.]+ s`));
    expect(first.code).toBe(0);
    expect(await rowsIn()).toBe(sample.rows.length);
    const again = await cli([SAMPLE_FILE], env);
    expect(again.code).toBe(0);
    expect(await rowsIn()).toBe(sample.rows.length);
  }, 60_000);

  it('refuses a file with a malformed line, naming the line, and loads nothing', async () => {
    const result = await cli([malformedFile()], { ...env, LOCAL_SUPABASE_DATA_DIR: path.join(tmp, 'nada') });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("Línea 4: tiene 3 campos separados por '|'; se esperan 15.");
    expect(result.stderr).toContain('Una línea no se pudo leer; no se cargó nada.');
  }, 60_000);

  it('loads the readable lines with --skip-malformed', async () => {
    const result = await cli([malformedFile(), '--skip-malformed'], env);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('Se omitió una línea que no se pudo leer.');
    expect(result.stdout).toContain(`${sample.rows.length} asentamientos`);
    expect(await rowsIn()).toBe(sample.rows.length);
  }, 60_000);

  it("does not open the local stack's PGlite while the stack answers on its port", async () => {
    const server = http.createServer((_req, res) => res.end('ok'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const port = String((server.address() as AddressInfo).port);
      const result = await cli([SAMPLE_FILE], { ...env, LOCAL_SUPABASE_PORT: port });
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(`El stack local responde en http://127.0.0.1:${port}/: detenlo antes de cargar su base PGlite`);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  }, 60_000);

  it('answers a missing file or no file with the usage', async () => {
    expect(await cli([])).toMatchObject({ code: 2, stderr: expect.stringContaining('Uso: npm run sepomex:import -- ARCHIVO') });
    expect(await cli(['no-existe.txt'])).toMatchObject({ code: 2, stderr: expect.stringContaining('No existe el archivo') });
  }, 60_000);
});
