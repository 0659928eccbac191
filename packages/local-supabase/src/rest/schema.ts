/**
 * Introspection of the exposed schema (`public`): tables, views, columns, keys,
 * foreign keys and functions. Every identifier a request names is checked here
 * before it reaches SQL.
 */
import type { Db } from '../db.ts';

export interface Column {
  name: string;
  /** format_type(), e.g. `numeric(12,2)`, `uuid`, `text[]`. */
  type: string;
  notNull: boolean;
  hasDefault: boolean;
}

export interface ForeignKey {
  name: string;
  /** Referencing table and columns. */
  table: string;
  columns: string[];
  /** Referenced table and columns. */
  refTable: string;
  refColumns: string[];
}

export interface Table {
  name: string;
  kind: 'table' | 'view';
  columns: Map<string, Column>;
  primaryKey: string[];
}

export interface FunctionArg {
  name: string;
  type: string;
  hasDefault: boolean;
}

export interface FunctionDef {
  name: string;
  args: FunctionArg[];
  /** Returns a set of rows (SETOF / TABLE). */
  returnsSet: boolean;
  /** 'scalar' | 'composite' | 'void'. */
  returnKind: 'scalar' | 'composite' | 'void';
  returnType: string;
  volatile: boolean;
}

export interface Schema {
  tables: Map<string, Table>;
  foreignKeys: ForeignKey[];
  /** Overloads by name. */
  functions: Map<string, FunctionDef[]>;
  loadedAt: number;
}

const TABLES_SQL = `
select c.relname as table, case when c.relkind in ('r','p','f') then 'table' else 'view' end as kind,
       a.attname as column, format_type(a.atttypid, a.atttypmod) as type,
       a.attnotnull as not_null, (a.atthasdef or a.attidentity <> '') as has_default
from pg_class c
join pg_namespace n on n.oid = c.relnamespace and n.nspname = 'public'
join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
where c.relkind in ('r','v','m','p','f')
order by c.relname, a.attnum`;

const CONSTRAINTS_SQL = `
select con.conname as name, con.contype as type, src.relname as table,
       (select array_agg(a.attname order by k.ord) from unnest(con.conkey) with ordinality k(n, ord)
          join pg_attribute a on a.attrelid = con.conrelid and a.attnum = k.n) as columns,
       dst.relname as ref_table,
       (select array_agg(a.attname order by k.ord) from unnest(con.confkey) with ordinality k(n, ord)
          join pg_attribute a on a.attrelid = con.confrelid and a.attnum = k.n) as ref_columns,
       dstn.nspname as ref_schema
from pg_constraint con
join pg_class src on src.oid = con.conrelid
join pg_namespace n on n.oid = src.relnamespace and n.nspname = 'public'
left join pg_class dst on dst.oid = con.confrelid
left join pg_namespace dstn on dstn.oid = dst.relnamespace
where con.contype in ('p','f')
order by con.conname`;

const FUNCTIONS_SQL = `
select p.proname as name, p.proretset as returns_set, p.provolatile as volatility,
       format_type(p.prorettype, null) as return_type, t.typtype as ret_typtype, t.typrelid <> 0 as ret_is_rel,
       p.pronargs as nargs, p.pronargdefaults as ndefaults,
       coalesce(p.proargnames, '{}') as arg_names,
       coalesce(p.proargmodes::text[], '{}') as arg_modes,
       (select array_agg(format_type(x, null) order by o) from unnest(p.proargtypes) with ordinality u(x, o)) as arg_types
from pg_proc p
join pg_namespace n on n.oid = p.pronamespace and n.nspname = 'public'
join pg_type t on t.oid = p.prorettype
where p.prokind = 'f'`;

const cache = new WeakMap<Db, Schema>();
const loading = new WeakMap<Db, Promise<Schema>>();

function asArray(value: unknown): string[] {
  if (Array.isArray(value)) return value.map(String);
  if (typeof value === 'string') {
    // Text form of a Postgres array, e.g. {a,b}: only simple identifiers reach here.
    const inner = value.replace(/^\{|\}$/g, '');
    return inner === '' ? [] : inner.split(',').map((s) => s.replace(/^"|"$/g, ''));
  }
  return [];
}

async function introspect(db: Db): Promise<Schema> {
  return db.admin(async (tx) => {
    const tables = new Map<string, Table>();
    const cols = await tx.query<{ table: string; kind: 'table' | 'view'; column: string; type: string; not_null: boolean; has_default: boolean }>(TABLES_SQL);
    for (const r of cols.rows) {
      let t = tables.get(r.table);
      if (!t) {
        t = { name: r.table, kind: r.kind, columns: new Map(), primaryKey: [] };
        tables.set(r.table, t);
      }
      t.columns.set(r.column, { name: r.column, type: r.type, notNull: r.not_null, hasDefault: r.has_default });
    }
    const foreignKeys: ForeignKey[] = [];
    const cons = await tx.query<{
      name: string;
      type: string;
      table: string;
      columns: unknown;
      ref_table: string | null;
      ref_columns: unknown;
      ref_schema: string | null;
    }>(CONSTRAINTS_SQL);
    for (const r of cons.rows) {
      const t = tables.get(r.table);
      if (!t) continue;
      if (r.type === 'p') t.primaryKey = asArray(r.columns);
      else if (r.type === 'f' && r.ref_table && r.ref_schema === 'public') {
        foreignKeys.push({ name: r.name, table: r.table, columns: asArray(r.columns), refTable: r.ref_table, refColumns: asArray(r.ref_columns) });
      }
    }
    const functions = new Map<string, FunctionDef[]>();
    const fns = await tx.query<{
      name: string;
      returns_set: boolean;
      volatility: string;
      return_type: string;
      ret_typtype: string;
      ret_is_rel: boolean;
      nargs: number;
      ndefaults: number;
      arg_names: unknown;
      arg_modes: unknown;
      arg_types: unknown;
    }>(FUNCTIONS_SQL);
    for (const r of fns.rows) {
      const names = asArray(r.arg_names);
      const modes = asArray(r.arg_modes);
      const types = asArray(r.arg_types);
      // proargnames covers all args (OUT included) when modes exist; keep only inputs.
      const inputNames = modes.length ? names.filter((_, i) => modes[i] === 'i' || modes[i] === 'b' || modes[i] === 'v') : names.slice(0, r.nargs);
      const args: FunctionArg[] = types.map((type, i) => ({
        name: inputNames[i] ?? '',
        type,
        hasDefault: i >= r.nargs - r.ndefaults,
      }));
      const hasOut = modes.some((m) => m === 'o' || m === 't');
      const returnKind: FunctionDef['returnKind'] =
        r.return_type === 'void' ? 'void' : r.ret_is_rel || r.ret_typtype === 'c' || (r.return_type === 'record' && hasOut) ? 'composite' : 'scalar';
      const def: FunctionDef = { name: r.name, args, returnsSet: r.returns_set, returnKind, returnType: r.return_type, volatile: r.volatility === 'v' };
      const list = functions.get(r.name) ?? [];
      list.push(def);
      functions.set(r.name, list);
    }
    return { tables, foreignKeys, functions, loadedAt: Date.now() };
  });
}

/** Loads (or returns the cached) schema of `db`; `force` re-reads the catalogue. */
export async function loadSchema(db: Db, force = false): Promise<Schema> {
  const cached = cache.get(db);
  if (cached && !force) return cached;
  const pending = loading.get(db);
  if (pending) return pending;
  const p = introspect(db)
    .then((s) => {
      cache.set(db, s);
      return s;
    })
    .finally(() => loading.delete(db));
  loading.set(db, p);
  return p;
}

/**
 * Re-reads the schema when a request names something unknown, at most once a second,
 * so tables created after start-up become visible without a restart.
 */
export async function refreshIfStale(db: Db, schema: Schema): Promise<Schema> {
  if (Date.now() - schema.loadedAt < 1000) return schema;
  return loadSchema(db, true);
}
