/**
 * Loading the SEPOMEX catalogue into public.postal_settlements: the whole table is replaced in one
 * transaction (the previous load stays visible to lookups until the new one commits), by batches
 * of column arrays (`insert … select * from unnest($1::text[], …)`), one round trip per
 * BATCH_ROWS settlements. The same statements, with their values written out, are the local
 * stack's sample seed (`seedSql`), so the sample goes through the importer's code too.
 */
import type { SepomexRow } from '~/domain/sepomex.ts';

/** Something that runs one SQL statement with parameters: a pg client or PGlite. */
export interface SqlClient {
  query(sql: string, params?: unknown[]): Promise<unknown>;
}

/** The table's columns and the row's field for each, in the insert's order. */
const COLUMNS: [column: string, field: keyof SepomexRow][] = [
  ['postal_code', 'postalCode'],
  ['settlement', 'settlement'],
  ['settlement_type', 'settlementType'],
  ['municipality', 'municipality'],
  ['state', 'state'],
  ['city', 'city'],
  ['state_key', 'stateKey'],
  ['municipality_key', 'municipalityKey'],
  ['settlement_key', 'settlementKey'],
  ['settlement_type_key', 'settlementTypeKey'],
  ['city_key', 'cityKey'],
  ['zone', 'zone'],
  ['office_code', 'officeCode'],
];

/** Settlements per insert: 13 arrays of this many values stay far below any message limit. */
const BATCH_ROWS = 10_000;

const INSERT = `insert into public.postal_settlements (${COLUMNS.map(([c]) => c).join(', ')})
select * from unnest(${COLUMNS.map((_, i) => `$${i + 1}::text[]`).join(', ')})`;

/** One statement of a load and its parameters. */
interface Statement {
  sql: string;
  params: unknown[];
}

/**
 * The statements that replace the table's contents with `rows`, in order: empty it, then insert
 * batch by batch. Run them inside one transaction.
 */
function replaceStatements(rows: readonly SepomexRow[]): Statement[] {
  const statements: Statement[] = [{ sql: 'delete from public.postal_settlements', params: [] }];
  for (let start = 0; start < rows.length; start += BATCH_ROWS) {
    const batch = rows.slice(start, start + BATCH_ROWS);
    statements.push({ sql: INSERT, params: COLUMNS.map(([, field]) => batch.map((row) => row[field])) });
  }
  return statements;
}

/**
 * Replaces the catalogue with `rows` in one transaction on `db` (a connection of its own: the
 * transaction is begun and ended here). A failure rolls everything back and is thrown: the
 * previous catalogue stays whole. A second import of the same rows leaves the same rows.
 */
export async function replaceSettlements(db: SqlClient, rows: readonly SepomexRow[]): Promise<void> {
  await db.query('begin');
  try {
    // Lookups keep reading the previous catalogue meanwhile; a second import waits for this one.
    await db.query('lock table public.postal_settlements in exclusive mode');
    for (const statement of replaceStatements(rows)) await db.query(statement.sql, statement.params);
    await db.query('commit');
  } catch (err) {
    await db.query('rollback').catch(() => undefined);
    throw err;
  }
  // Fresh statistics for the planner after replacing the whole table.
  await db.query('analyze public.postal_settlements');
}

/** A SQL string literal (standard_conforming_strings, the default since PostgreSQL 9.1). */
function literal(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  return `'${String(value).replace(/'/g, "''")}'`;
}

/**
 * The load as one SQL script with its values written in: the same statements as
 * replaceSettlements, for a seed file that the migration runner applies (in its own transaction).
 */
export function seedSql(rows: readonly SepomexRow[], heading: string): string {
  const body = replaceStatements(rows).map(({ sql, params }) =>
    sql.replace(/\$(\d+)::text\[\]/g, (_, n: string) => `array[${(params[Number(n) - 1] as unknown[]).map(literal).join(', ')}]::text[]`),
  );
  const comment = heading
    .split('\n')
    .map((line) => `-- ${line}`.trimEnd())
    .join('\n');
  return `${comment}\n${body.map((sql) => `${sql};`).join('\n')}\n`;
}
