/**
 * The REST API's SQL: the builder of select lists, filters, ordering and paging, and the
 * statements rest.ts runs (reads, counts, insert/upsert, update, delete, function calls). All the
 * SQL text of the REST API is written here. Identifiers are checked against the schema and quoted;
 * every value is a bound parameter ($1, $2…), never part of the SQL text.
 */
import { quoteIdent } from '../sql.ts';
import { resolveRelationship } from './embed.ts';
import { RestError, syntaxError } from './errors.ts';
import { parseBraceList, parseList, type ColumnRef, type Condition, type FilterNode, type OrderTerm, type SelectItem } from './parse.ts';
import type { FunctionDef, Schema, Table } from './schema.ts';

/** Collects bound values and hands out their placeholders. */
export class Params {
  readonly values: unknown[] = [];
  /** Adds a value; returns its `$n`. */
  add(value: unknown): string {
    if (typeof value === 'string' && value.includes('\u0000')) {
      throw new RestError(400, '22021', 'invalid byte sequence for encoding "UTF8": 0x00');
    }
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

/** Modifiers and filters that apply to one embedded resource (or the top level, path ''). */
export interface Mods {
  conditions: Condition[];
  order?: OrderTerm[];
  limit?: number;
  offset?: number;
}

export type ModsByPath = Map<string, Mods>;

/** Mods for `path`, created empty on first use. */
export function modsFor(map: ModsByPath, path: string): Mods {
  let m = map.get(path);
  if (!m) {
    m = { conditions: [] };
    map.set(path, m);
  }
  return m;
}

export class Builder {
  private aliasCount = 0;
  /** Embedding paths the select actually used, so stray `x.col=` filters are reported. */
  readonly usedPaths = new Set<string>(['']);

  /** Most rows any to-many embed returns per parent (PostgREST's db-max-rows). */
  readonly maxRows: number;

  constructor(
    readonly schema: Schema,
    readonly params: Params,
    readonly mods: ModsByPath,
    maxRows = Number.POSITIVE_INFINITY,
  ) {
    this.maxRows = maxRows;
  }

  nextAlias(prefix = 't'): string {
    return `${prefix}${++this.aliasCount}`;
  }

  private checkColumn(table: Table | null, name: string): void {
    if (table && !table.columns.has(name)) {
      throw new RestError(400, '42703', `column ${table.name}.${name} does not exist`, null, null);
    }
  }

  /** `alias."col"->'a'->>'b'`, with the keys bound as parameters. */
  columnExpr(table: Table | null, alias: string, ref: ColumnRef): string {
    this.checkColumn(table, ref.name);
    let expr = `${alias}.${quoteIdent(ref.name)}`;
    for (const step of ref.jsonPath) {
      const key = /^-?\d{1,9}$/.test(step.key) ? `${this.params.add(Number(step.key))}::int` : `${this.params.add(step.key)}::text`;
      expr = `(${expr}${step.arrow}${key})`;
    }
    return expr;
  }

  /** One filter as SQL. */
  filterSql(table: Table | null, alias: string, f: FilterNode): string {
    const col = this.columnExpr(table, alias, f.column);
    const sql = this.filterBody(col, f);
    return f.negate ? `not (${sql})` : sql;
  }

  private filterBody(col: string, f: FilterNode): string {
    const p = (v: unknown) => this.params.add(v);
    const cmp: Record<string, string> = { eq: '=', neq: '<>', gt: '>', gte: '>=', lt: '<', lte: '<=' };
    const pattern = (v: string) => v.replace(/\*/g, '%');
    if (f.quantifier) {
      const values = parseBraceList(f.value);
      const op = cmp[f.op] ?? ({ like: 'like', ilike: 'ilike', match: '~', imatch: '~*' } as Record<string, string>)[f.op]!;
      const text = !cmp[f.op];
      if (values.length === 0) return f.quantifier === 'any' ? 'false' : 'true';
      if (!text) {
        // Compared one by one, each value takes the column's type (an enum, a number, a date):
        // array[$1, $2] of untyped parameters would be text[], which only a text column compares to.
        // x = any(array[a, b]) is x = a or x = b; x = all(…) is x = a and x = b.
        return `(${values.map((v) => `${col} ${op} ${p(v)}`).join(f.quantifier === 'any' ? ' or ' : ' and ')})`;
      }
      const list = values.map((v) => p(f.op === 'like' || f.op === 'ilike' ? pattern(v) : v)).join(', ');
      return `(${col})::text ${op} ${f.quantifier}(array[${list}])`;
    }
    switch (f.op) {
      case 'eq':
      case 'neq':
      case 'gt':
      case 'gte':
      case 'lt':
      case 'lte':
        return `${col} ${cmp[f.op]} ${p(f.value)}`;
      case 'like':
        return `(${col})::text like ${p(pattern(f.value))}`;
      case 'ilike':
        return `(${col})::text ilike ${p(pattern(f.value))}`;
      case 'match':
        return `(${col})::text ~ ${p(f.value)}`;
      case 'imatch':
        return `(${col})::text ~* ${p(f.value)}`;
      case 'in': {
        const values = parseList(f.value);
        if (values.length === 0) return 'false';
        return `${col} in (${values.map((v) => p(v)).join(', ')})`;
      }
      case 'is': {
        const v = f.value.toLowerCase();
        if (v === 'null') return `${col} is null`;
        if (v === 'not_null') return `${col} is not null`;
        return `${col} is ${v === 'true' ? 'true' : v === 'false' ? 'false' : 'unknown'}`;
      }
      case 'isdistinct':
        return `${col} is distinct from ${p(f.value)}`;
      case 'fts':
      case 'plfts':
      case 'phfts':
      case 'wfts': {
        const fn = { fts: 'to_tsquery', plfts: 'plainto_tsquery', phfts: 'phraseto_tsquery', wfts: 'websearch_to_tsquery' }[f.op];
        if (f.config) {
          const cfg = p(f.config);
          return `to_tsvector(${cfg}::regconfig, (${col})::text) @@ ${fn}(${cfg}::regconfig, ${p(f.value)})`;
        }
        return `to_tsvector((${col})::text) @@ ${fn}(${p(f.value)})`;
      }
      case 'cs':
      case 'cd':
      case 'ov': {
        const op = { cs: '@>', cd: '<@', ov: '&&' }[f.op];
        // PostgREST accepts (a,b) for arrays as well as the {a,b} literal.
        const v = f.value.startsWith('(') && f.op === 'ov' ? `{${f.value.slice(1, -1)}}` : f.value;
        return `${col} ${op} ${p(v)}`;
      }
      case 'sl':
      case 'sr':
      case 'nxr':
      case 'nxl':
      case 'adj': {
        const op = { sl: '<<', sr: '>>', nxr: '&<', nxl: '&>', adj: '-|-' }[f.op];
        return `${col} ${op} ${p(f.value)}`;
      }
      default:
        throw syntaxError(`Unknown operator ${f.op}`);
    }
  }

  /** A condition tree as SQL. */
  conditionSql(table: Table | null, alias: string, c: Condition): string {
    if (c.kind === 'filter') return this.filterSql(table, alias, c);
    const parts = c.children.map((child) => this.conditionSql(table, alias, child));
    const sql = `(${parts.join(c.op === 'or' ? ' or ' : ' and ')})`;
    return c.negate ? `not ${sql}` : sql;
  }

  /** ORDER BY clause (empty string when none). */
  orderSql(table: Table | null, alias: string, order: OrderTerm[] | undefined): string {
    if (!order || order.length === 0) return '';
    const terms = order.map((t) => {
      let s = `${this.columnExpr(table, alias, t.column)} ${t.desc ? 'desc' : 'asc'}`;
      if (t.nulls) s += ` nulls ${t.nulls}`;
      return s;
    });
    return ` order by ${terms.join(', ')}`;
  }

  /** LIMIT/OFFSET clause, bound as parameters. */
  pageSql(limit: number | undefined, offset: number | undefined): string {
    let s = '';
    if (limit !== undefined) s += ` limit ${this.params.add(limit)}::int8`;
    if (offset !== undefined && offset > 0) s += ` offset ${this.params.add(offset)}::int8`;
    return s;
  }

  /** WHERE conditions of one path (top level ''), plus `!inner` embeds as EXISTS. */
  whereParts(table: Table | null, alias: string, path: string, items: SelectItem[]): string[] {
    const mods = this.mods.get(path);
    const parts = (mods?.conditions ?? []).map((c) => this.conditionSql(table, alias, c));
    if (table) {
      for (const item of items) {
        if (item.kind !== 'embed' || !item.inner) continue;
        const rel = resolveRelationship(this.schema, table, item.relation, item.hint);
        const childPath = joinPath(path, item.alias ?? item.relation);
        const child = this.nextAlias();
        const inner = [rel.join(alias, child, quoteIdent), ...this.whereParts(rel.target, child, childPath, item.items)];
        parts.push(`exists (select 1 from public.${quoteIdent(rel.target.name)} ${child} where ${inner.join(' and ')})`);
      }
    }
    return parts;
  }

  /** The select list of one level: columns, casts, JSON paths and embedded sub-selects. */
  selectList(table: Table | null, alias: string, path: string, items: SelectItem[]): string {
    const out: string[] = [];
    for (const item of items) {
      if (item.kind === 'star') {
        out.push(`${alias}.*`);
      } else if (item.kind === 'column') {
        let expr = this.columnExpr(table, alias, item.column);
        if (item.cast) expr = `(${expr})::${item.cast}`;
        const last = item.column.jsonPath.at(-1);
        const name = item.alias ?? (last ? last.key : item.column.name);
        out.push(`${expr} as ${quoteIdent(name)}`);
      } else {
        if (!table) throw new RestError(400, 'PGRST200', `Could not find a relationship for '${item.relation}' in the schema cache`);
        out.push(...this.embedSql(table, alias, path, item));
      }
    }
    if (out.length === 0) throw syntaxError('"failed to parse select parameter"', 'Empty select');
    return out.join(', ');
  }

  private embedSql(table: Table, alias: string, path: string, item: Extract<SelectItem, { kind: 'embed' }>): string[] {
    const rel = resolveRelationship(this.schema, table, item.relation, item.hint);
    const name = item.alias ?? item.relation;
    const childPath = joinPath(path, name);
    this.usedPaths.add(childPath);
    const child = this.nextAlias();
    const rowAlias = this.nextAlias('_j');
    const mods = this.mods.get(childPath);
    const where = [rel.join(alias, child, quoteIdent), ...this.whereParts(rel.target, child, childPath, item.items)];
    const from = `from public.${quoteIdent(rel.target.name)} ${child} where ${where.join(' and ')}`;
    if (item.spread) {
      if (rel.toMany) throw new RestError(400, 'PGRST119', `A spread operation on '${item.relation}' is only possible on to-one relationships`);
      // Each spread column becomes a column of the parent.
      return item.items.map((sub) => {
        if (sub.kind !== 'column') throw syntaxError('"failed to parse select parameter"', 'Spread embeds accept plain columns only');
        const expr = this.columnExpr(rel.target, child, sub.column);
        const colName = sub.alias ?? sub.column.jsonPath.at(-1)?.key ?? sub.column.name;
        return `(select ${sub.cast ? `(${expr})::${sub.cast}` : expr} ${from} limit 1) as ${quoteIdent(colName)}`;
      });
    }
    const list = this.selectList(rel.target, child, childPath, item.items);
    if (rel.toMany) {
      const order = this.orderSql(rel.target, child, mods?.order);
      const page = this.pageSql(capRows(mods?.limit, this.maxRows), mods?.offset);
      return [`(select coalesce(json_agg(${rowAlias}), '[]'::json) from (select ${list} ${from}${order}${page}) ${rowAlias}) as ${quoteIdent(name)}`];
    }
    return [`(select row_to_json(${rowAlias}) from (select ${list} ${from} limit 1) ${rowAlias}) as ${quoteIdent(name)}`];
  }
}

/** `limit` cut to `max` rows; no limit at all becomes `max` (undefined when unbounded). */
export function capRows(limit: number | undefined, max: number): number | undefined {
  if (!Number.isFinite(max)) return limit;
  return limit === undefined ? max : Math.min(limit, max);
}

/** `a` + `b` → `a.b` (the top level is ''). */
export function joinPath(parent: string, name: string): string {
  return parent === '' ? name : `${parent}.${name}`;
}

/** `public."name"`: a table or function of the exposed schema. */
export function relation(name: string): string {
  return `public.${quoteIdent(name)}`;
}

/** A table of the exposed schema as a FROM item with its alias. */
export function tableFrom(name: string, alias: string): string {
  return `${relation(name)} ${alias}`;
}

function whereClause(parts: string[]): string {
  return parts.length ? ` where ${parts.join(' and ')}` : '';
}

/** A read: the selected rows as one JSON array (`body`) and how many there are (`n`). */
export function readSql(list: string, from: string, where: string[], order: string, page: string): string {
  return (
    `select coalesce(json_agg(_r), '[]'::json)::text as body, count(_r)::int as n from (` +
    `select ${list} from ${from}${whereClause(where)}${order}${page}) _r`
  );
}

/** The exact count of a read (`Prefer: count=exact`), without its paging. */
export function countSql(from: string, where: string[]): string {
  return `select count(*)::int as n from ${from}${whereClause(where)}`;
}

/** A write whose changed rows come back as a read would select them (`return=representation`). */
export function representationSql(statement: string, list: string, order: string): string {
  return (
    `with pgrst_mut as (${statement}) select coalesce(json_agg(_r), '[]'::json)::text as body, (select count(*) from pgrst_mut)::int as n ` +
    `from (select ${list} from pgrst_mut t0${order}) _r`
  );
}

/** How an insert treats rows that clash with `onConflict` (`Prefer: resolution=`). */
export type Resolution = 'ignore-duplicates' | 'merge-duplicates' | undefined;

/**
 * INSERT of `rows` (bound as one JSON parameter) into `table`, with the given columns (none: the
 * defaults), as an upsert when `resolution` is set. `returning` is appended ('' or ' returning *').
 */
export function insertSql(
  params: Params,
  table: string,
  columns: string[],
  rows: Record<string, unknown>[],
  onConflict: string[],
  resolution: Resolution,
  returning: string,
): string {
  const rel = relation(table);
  const cols = columns.map(quoteIdent).join(', ');
  const source = `json_populate_recordset(null::${rel}, ${params.add(JSON.stringify(rows))}::json) _b`;
  let sql =
    columns.length > 0
      ? `insert into ${rel} (${cols}) select ${columns.map((c) => `_b.${quoteIdent(c)}`).join(', ')} from ${source}`
      : `insert into ${rel} select from ${source}`;
  if (resolution === 'ignore-duplicates') {
    sql += ` on conflict (${onConflict.map(quoteIdent).join(', ')}) do nothing`;
  } else if (resolution === 'merge-duplicates') {
    const updates = columns.filter((c) => !onConflict.includes(c));
    sql +=
      updates.length > 0
        ? ` on conflict (${onConflict.map(quoteIdent).join(', ')}) do update set ${updates.map((c) => `${quoteIdent(c)} = excluded.${quoteIdent(c)}`).join(', ')}`
        : ` on conflict (${onConflict.map(quoteIdent).join(', ')}) do nothing`;
  }
  return sql + returning;
}

/** UPDATE of the rows of `table` (alias t0) matching `where` with the columns of `patch`. */
export function updateSql(params: Params, table: string, patch: Record<string, unknown>, where: string[], returning: boolean): string {
  const rel = relation(table);
  const source = `json_populate_record(null::${rel}, ${params.add(JSON.stringify(patch))}::json) _b`;
  const sets = Object.keys(patch)
    .map((c) => `${quoteIdent(c)} = _b.${quoteIdent(c)}`)
    .join(', ');
  return `update ${rel} t0 set ${sets} from ${source}${whereClause(where)}${returning ? ' returning t0.*' : ''}`;
}

/** DELETE of the rows of `table` (alias t0) matching `where`. */
export function deleteSql(table: string, where: string[], returning: boolean): string {
  return `delete from ${relation(table)} t0${whereClause(where)}${returning ? ' returning t0.*' : ''}`;
}

/**
 * The FROM item calling `fn` with `args` bound through json_to_record (or as the single json
 * argument). With `scalarColumn` the result column is named after the function.
 */
export function rpcFrom(fn: FunctionDef, args: Record<string, unknown>, params: Params, alias: string, scalarColumn: boolean): string {
  const call = relation(fn.name);
  const target = scalarColumn ? `${alias}(${quoteIdent(fn.name)})` : alias;
  if (fn.args.length === 1 && fn.args[0]!.name === '') {
    return `${call}(${params.add(JSON.stringify(args))}::${fn.args[0]!.type}) ${target}`;
  }
  const used = fn.args.filter((a) => a.name in args);
  if (used.length === 0) return `${call}() ${target}`;
  const record = used.map((a) => `${quoteIdent(a.name)} ${a.type}`).join(', ');
  const named = used.map((a) => `${quoteIdent(a.name)} := _a.${quoteIdent(a.name)}`).join(', ');
  const obj: Record<string, unknown> = {};
  for (const a of used) obj[a.name] = args[a.name];
  return `json_to_record(${params.add(JSON.stringify(obj))}::json) as _a(${record}) cross join lateral ${call}(${named}) ${target}`;
}

/** A call of a function that returns nothing. */
export function rpcVoidSql(from: string): string {
  return `select 1 from ${from}`;
}

/** A call of a function that returns one scalar, as its JSON text (`body`). */
export function rpcScalarSql(fn: FunctionDef, alias: string, from: string): string {
  return `select to_json(${alias}.${quoteIdent(fn.name)})::text as body from ${from}`;
}
