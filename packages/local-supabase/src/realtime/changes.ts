/**
 * `postgres_changes` at the database: a NOTIFY trigger on every table of the supabase_realtime
 * publication sends each change's primary key, and each INSERT/UPDATE is re-read as the
 * subscriber's role and claims, so row-level security decides who receives it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import type { Role } from '../db.ts';
import { BOOTSTRAP_DIR } from '../migrate.ts';
import { quoteIdent } from '../sql.ts';
import type { StackContext } from '../types.ts';

/** The NOTIFY channel the trigger sends to. */
export const CHANGES_CHANNEL = 'realtime';

export interface Change {
  schema: string;
  table: string;
  type: 'INSERT' | 'UPDATE' | 'DELETE';
  pk: Record<string, unknown> | null;
  old_pk: Record<string, unknown> | null;
  commit_timestamp: string;
}

const changeSchema = z.object({
  schema: z.string(),
  table: z.string(),
  type: z.enum(['INSERT', 'UPDATE', 'DELETE']),
  pk: z.record(z.string(), z.unknown()).nullable(),
  old_pk: z.record(z.string(), z.unknown()).nullable(),
  commit_timestamp: z.string(),
});

/** A NOTIFY payload as a change; null when it is not one. */
export function parseChange(payload: string): Change | null {
  try {
    return changeSchema.parse(JSON.parse(payload));
  } catch {
    return null;
  }
}

/** A published table: its primary key and its columns (sent with every change). */
export interface TableInfo {
  pk: string[];
  columns: Array<{ name: string; type: string }>;
}

/** The `data` of a postgres_changes message, as Realtime sends it. */
export function changeData(
  change: Change,
  info: TableInfo,
  record: Record<string, unknown> | null,
  oldRecord: Record<string, unknown>,
): Record<string, unknown> {
  const data: Record<string, unknown> = {
    type: change.type,
    schema: change.schema,
    table: change.table,
    commit_timestamp: change.commit_timestamp,
    columns: info.columns,
  };
  if (record) data.record = record;
  if (change.type !== 'INSERT') data.old_record = oldRecord;
  data.errors = null;
  return data;
}

/** The changed row as `role` with `claims` may select it; null when RLS hides it. */
export async function readRow(
  ctx: StackContext,
  as: { role: Role; claims: Record<string, unknown> },
  change: Change,
  info: TableInfo,
): Promise<Record<string, unknown> | null> {
  if (!change.pk || info.pk.length === 0) return null;
  const where = info.pk
    .map((c) => `t.${quoteIdent(c)} = (jsonb_populate_record(null::${quoteIdent(change.schema)}.${quoteIdent(change.table)}, $1::jsonb)).${quoteIdent(c)}`)
    .join(' and ');
  const sql = `select to_jsonb(t) as r from ${quoteIdent(change.schema)}.${quoteIdent(change.table)} t where ${where}`;
  const r = await ctx.db.asRole(as.role, as.claims, (tx) => tx.query<{ r: Record<string, unknown> }>(sql, [JSON.stringify(change.pk)]));
  return r.rows[0]?.r ?? null;
}

/**
 * Makes sure the notify function exists and that every table of the supabase_realtime
 * publication has the trigger, with its primary-key columns as arguments.
 */
export async function installTriggers(ctx: StackContext, tables: Map<string, TableInfo>): Promise<void> {
  const sqlFile = path.join(BOOTSTRAP_DIR, '60_realtime.sql');
  const hasFn = await ctx.db.admin((tx) => tx.query<{ ok: boolean }>(`select to_regprocedure('realtime_local.notify_change()') is not null as ok`));
  if (!hasFn.rows[0]?.ok) {
    if (!fs.existsSync(sqlFile)) return;
    await ctx.db.exec(fs.readFileSync(sqlFile, 'utf8'));
  }
  await ctx.db.admin(async (tx) => {
    const pub = await tx.query<{ schemaname: string; tablename: string }>(
      `select schemaname, tablename from pg_publication_tables where pubname = 'supabase_realtime'`,
    );
    for (const { schemaname, tablename } of pub.rows) {
      const rel = `${quoteIdent(schemaname)}.${quoteIdent(tablename)}`;
      const pk = await tx.query<{ attname: string }>(
        `select a.attname from pg_index i
           join pg_attribute a on a.attrelid = i.indrelid and a.attnum = any(i.indkey)
          where i.indrelid = $1::regclass and i.indisprimary
          order by array_position(i.indkey::int2[], a.attnum)`,
        [rel],
      );
      const cols = await tx.query<{ name: string; type: string }>(
        `select a.attname as name, t.typname as type from pg_attribute a join pg_type t on t.oid = a.atttypid
          where a.attrelid = $1::regclass and a.attnum > 0 and not a.attisdropped order by a.attnum`,
        [rel],
      );
      const pkCols = pk.rows.map((r) => r.attname);
      tables.set(`${schemaname}.${tablename}`, { pk: pkCols, columns: cols.rows });
      if (pkCols.length === 0) continue;
      const args = pkCols.map((c) => `'${c.replace(/'/g, "''")}'`).join(', ');
      await tx.query(`drop trigger if exists realtime_local_notify on ${rel}`);
      await tx.query(
        `create trigger realtime_local_notify after insert or update or delete on ${rel}
           for each row execute function realtime_local.notify_change(${args})`,
      );
    }
  });
}
