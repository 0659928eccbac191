/**
 * The SEPOMEX import on a PostgreSQL server, with other connections at work: lookups keep
 * answering from the previous load until the new one commits, and two imports at once take turns
 * (the table ends with one load, never both).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type pg from 'pg';
import { applyMigrations } from 'local-supabase/migrate';
import type { SepomexRow } from '~/domain/sepomex.ts';
import { replaceSettlements, type SqlClient } from '../../scripts/sepomex/load.ts';
import { connectTo, pgServerSupport, startPgServer, type PgServer } from './pg-server.ts';
import { ROOT_DIR } from './support.ts';

const support = pgServerSupport();
if (!support.ok) console.log(`sepomex-import-concurrency.test.ts: se omite, ${support.reason}`);

/** `count` settlements of one made-up municipality, under postal codes from `firstCode` on. */
function load(firstCode: number, count: number, name: string): SepomexRow[] {
  return Array.from({ length: count }, (_, i) => ({
    postalCode: String(firstCode + Math.floor(i / 3)).padStart(5, '0'),
    settlement: `${name} ${i}`,
    settlementType: 'Colonia',
    municipality: name,
    state: 'Ciudad de México',
    city: 'Ciudad de México',
    officeCode: null,
    stateKey: '09',
    settlementTypeKey: '09',
    municipalityKey: '015',
    settlementKey: String(i + 1),
    zone: 'Urbano',
    cityKey: '01',
  }));
}

/** A client whose statements wait for `gate` once the load has begun inserting. */
function pausedAfterDelete(client: pg.Client, gate: Promise<void>, deleted: () => void): SqlClient {
  return {
    async query(sql: string, params?: unknown[]) {
      const result = await client.query(sql, params);
      if (sql.startsWith('delete from public.postal_settlements')) {
        deleted();
        await gate;
      }
      return result;
    },
  };
}

describe.skipIf(!support.ok)('the SEPOMEX import with other connections (PostgreSQL server)', () => {
  let server: PgServer;
  let admin: pg.Client;
  let importer: pg.Client;
  let other: pg.Client;
  let reader: pg.Client;

  const municipalityOf = async (code: string) => {
    const { rows } = await reader.query<{ info: { municipality: string } | null }>(
      "select public.postal_code_lookup($1) as info from (select set_config('statement_timeout', '2000', false)) s",
      [code],
    );
    return rows[0]!.info?.municipality ?? null;
  };

  beforeAll(async () => {
    server = await startPgServer();
    admin = await connectTo(server);
    await applyMigrations(async (sql) => void (await admin.query(sql)), ROOT_DIR, { seed: false });
    importer = await connectTo(server);
    other = await connectTo(server);
    reader = await connectTo(server);
    await reader.query('set role anon');
  }, 120_000);

  afterAll(async () => {
    for (const client of [reader, other, importer, admin]) await client?.end().catch(() => undefined);
    await server?.stop();
  });

  it('lookups answer from the previous load, without waiting, until the new one commits', async () => {
    await replaceSettlements(importer, load(1000, 300, 'Anterior'));
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let deleted!: () => void;
    const deleting = new Promise<void>((resolve) => (deleted = resolve));
    const running = replaceSettlements(pausedAfterDelete(importer, gate, deleted), load(1000, 300, 'Nueva'));
    await deleting;
    // The new load has emptied the table in its transaction: others still see the previous one.
    expect(await municipalityOf('01000')).toBe('Anterior');
    release();
    await running;
    expect(await municipalityOf('01000')).toBe('Nueva');
  }, 60_000);

  it('two imports at once take turns: the table holds one whole load', async () => {
    const a = load(2000, 3000, 'Primera');
    const b = load(2000, 2000, 'Segunda');
    await Promise.all([replaceSettlements(importer, a), replaceSettlements(other, b)]);
    const { rows } = await admin.query<{ municipality: string; n: number }>(
      'select municipality, count(*)::int as n from public.postal_settlements group by municipality',
    );
    expect(rows).toHaveLength(1);
    expect([
      ['Primera', 3000],
      ['Segunda', 2000],
    ]).toContainEqual([rows[0]!.municipality, rows[0]!.n]);
  }, 60_000);
});
