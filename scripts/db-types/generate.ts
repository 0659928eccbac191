/**
 * Generates the `Database` type that supabase-js expects for `createClient<Database>` from a
 * migrated database: the `public` schema's tables, views, functions, enums and composite types,
 * read from `pg_catalog`. Used by `npm run db:types` and by the test that keeps
 * `src/data/database.types.ts` in step with the migrations.
 */

/** Something that runs a query (PGlite or a pg connection). */
export interface Queryable {
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<{ rows: T[] }>;
}

interface ColumnRow {
  relation: string;
  kind: string;
  column: string;
  type_oid: number;
  not_null: boolean;
  has_default: boolean;
  generated: boolean;
  is_updatable: boolean;
}

interface TypeRow {
  oid: number;
  name: string;
  schema: string;
  typtype: string;
  typcategory: string;
  elem: number;
  base: number;
  relid: number;
}

interface RelationshipRow {
  relation: string;
  name: string;
  columns: string[];
  referenced: string;
  referenced_columns: string[];
  one_to_one: boolean;
}

interface FunctionRow {
  name: string;
  arg_names: string[] | null;
  arg_types: number[];
  arg_modes: string[] | null;
  n_defaults: number;
  return_type: number;
  returns_set: boolean;
  table_columns: { name: string; type: number }[] | null;
  /** STRICT: a null argument makes the call return null without running the body. */
  strict: boolean;
  /** The function's body (SQL or PL/pgSQL). */
  source: string;
}

/** Whether each column of every table (any schema, 'schema.table' → column → NOT NULL). */
type ColumnNullability = Map<string, Map<string, boolean>>;

/** The parts of a comma-separated SQL list, split at the top level only (not inside parentheses or quotes). */
function splitTopLevel(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quoted = false;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === "'") quoted = !quoted;
    else if (quoted) continue;
    else if (ch === '(') depth++;
    else if (ch === ')') depth--;
    else if (ch === ',' && depth === 0) {
      parts.push(text.slice(start, i).trim());
      start = i + 1;
    }
  }
  parts.push(text.slice(start).trim());
  return parts;
}

/** The text inside the parentheses that open at `open` (text[open] === '('), or null when they never close. */
function parenthesised(text: string, open: number): string | null {
  let depth = 0;
  let quoted = false;
  for (let i = open; i < text.length; i++) {
    const ch = text[i];
    if (ch === "'") quoted = !quoted;
    else if (quoted) continue;
    else if (ch === '(') depth++;
    else if (ch === ')' && --depth === 0) return text.slice(open + 1, i);
  }
  return null;
}

const unquote = (name: string) => name.trim().replace(/"/g, '').toLowerCase();

/**
 * The columns a function body writes a parameter to as is: `insert into t (a, b) values (p_a, …)`
 * and `update t set a = p_a`. Tables are schema-qualified in the migrations (search_path = '').
 */
function directWrites(source: string, param: string): { table: string; column: string }[] {
  const writes: { table: string; column: string }[] = [];
  const isParam = (expr: string) => unquote(expr) === param.toLowerCase();
  const body = source.replace(/--[^\n]*/g, ' ');
  for (const insert of body.matchAll(/insert\s+into\s+([\w."]+)\s*(?:as\s+\w+\s*)?\(/gi)) {
    const columnsOpen = insert.index + insert[0].length - 1;
    const columns = parenthesised(body, columnsOpen);
    if (columns === null) continue;
    const rest = body.slice(columnsOpen + columns.length + 2);
    const values = /^\s*values\s*\(/i.exec(rest);
    if (!values) continue;
    const list = parenthesised(rest, values[0].length - 1);
    if (list === null) continue;
    const names = splitTopLevel(columns);
    splitTopLevel(list).forEach((expr, i) => {
      if (names[i] !== undefined && isParam(expr)) writes.push({ table: unquote(insert[1]!), column: unquote(names[i]!) });
    });
  }
  for (const update of body.matchAll(/update\s+([\w."]+)(?:\s+(?:as\s+)?\w+)?\s+set\s+([\s\S]*?)(?=\s(?:where|returning|from)\s|;|$)/gi)) {
    for (const assignment of splitTopLevel(update[2]!)) {
      const match = /^([\w."]+)\s*=\s*([\s\S]+)$/.exec(assignment);
      if (match && isParam(match[2]!)) writes.push({ table: unquote(update[1]!), column: unquote(match[1]!.split('.').pop()!) });
    }
  }
  return writes;
}

/**
 * Whether a function takes null for a parameter without a default, as far as its definition
 * tells: it is not STRICT, and its body either tests the parameter for null (`p is null`,
 * `p is not null`, `p is distinct from`, `coalesce(p, …)`) without raising on it, or writes it as
 * is only into columns that allow null. Anything else stays non-null, as the generated types
 * always had it.
 */
function acceptsNull(f: FunctionRow, param: string, nullability: ColumnNullability): boolean {
  if (f.strict || !/^\w+$/.test(param)) return false;
  const source = f.source.replace(/--[^\n]*/g, ' ');
  // A guard that raises on null (`if p is null then raise …`) refuses it, whatever else the body does.
  const refused = new RegExp(`\\bif\\s+${param}\\s+is\\s+null\\b[^;]*?\\bthen\\s+raise\\b`, 'i');
  if (refused.test(source)) return false;
  // A message that shows the value (`raise … coalesce(p, '')`) says nothing about what the function takes.
  const statements = source.replace(/\braise\b[^;]*;/gi, ' ');
  const tested = new RegExp(`\\b${param}\\s+is\\s+(?:not\\s+)?(?:null|distinct\\s+from)\\b|\\bcoalesce\\s*\\(\\s*${param}\\b`, 'i');
  if (tested.test(statements)) return true;
  const writes = directWrites(statements, param);
  return (
    writes.length > 0 &&
    writes.every((w) => {
      const table = nullability.get(w.table.includes('.') ? w.table : `public.${w.table}`);
      return table?.get(w.column) === false;
    })
  );
}

const NUMBER_TYPES = new Set(['int2', 'int4', 'int8', 'float4', 'float8', 'numeric', 'oid']);
const BOOLEAN_TYPES = new Set(['bool']);
const JSON_TYPES = new Set(['json', 'jsonb']);
// Everything PostgREST serialises as a JSON string: text, identifiers, dates and times, network types.
const STRING_TYPES = new Set([
  'text',
  'varchar',
  'bpchar',
  'char',
  'name',
  'citext',
  'uuid',
  'date',
  'time',
  'timetz',
  'timestamp',
  'timestamptz',
  'interval',
  'inet',
  'cidr',
  'macaddr',
  'bytea',
  'tsvector',
  'tsquery',
  'xml',
  'bit',
  'varbit',
  'money',
]);

/** A property key, quoted when it is not a plain identifier. */
function key(name: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(name) ? name : JSON.stringify(name);
}

function byName<T>(items: T[], name: (item: T) => string): T[] {
  return [...items].sort((a, b) => (name(a) < name(b) ? -1 : name(a) > name(b) ? 1 : 0));
}

/** Reads the `public` schema of `db` and returns the TypeScript source of `database.types.ts`. */
export async function generateDatabaseTypes(db: Queryable): Promise<string> {
  const types = new Map<number, TypeRow>();
  for (const t of (
    await db.query<TypeRow>(
      `select t.oid::int as oid, t.typname as name, n.nspname as schema, t.typtype::text as typtype,
              t.typcategory::text as typcategory, t.typelem::int as elem, t.typbasetype::int as base,
              t.typrelid::int as relid
         from pg_type t join pg_namespace n on n.oid = t.typnamespace`,
    )
  ).rows) {
    types.set(t.oid, t);
  }

  const columns = (
    await db.query<ColumnRow>(
      `select c.relname as relation, c.relkind::text as kind, a.attname as column, a.atttypid::int as type_oid,
              a.attnotnull as not_null, (a.atthasdef or a.attidentity <> '') as has_default,
              (a.attgenerated <> '') as generated,
              coalesce(ic.is_updatable = 'YES', false) as is_updatable
         from pg_class c
         join pg_namespace n on n.oid = c.relnamespace
         join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
         left join information_schema.columns ic
           on ic.table_schema = n.nspname and ic.table_name = c.relname and ic.column_name = a.attname
        where n.nspname = 'public' and c.relkind in ('r', 'p', 'v', 'm')
        order by c.relname, a.attnum`,
    )
  ).rows;

  const relationships = (
    await db.query<RelationshipRow>(
      `select c.relname as relation, con.conname as name,
              array(select a.attname::text from unnest(con.conkey) with ordinality k(n, i)
                      join pg_attribute a on a.attrelid = con.conrelid and a.attnum = k.n order by k.i) as columns,
              r.relname as referenced,
              array(select a.attname::text from unnest(con.confkey) with ordinality k(n, i)
                      join pg_attribute a on a.attrelid = con.confrelid and a.attnum = k.n order by k.i) as referenced_columns,
              exists (select 1 from pg_constraint u
                       where u.conrelid = con.conrelid and u.contype in ('p', 'u')
                         and (select array_agg(x order by x) from unnest(u.conkey) x)
                           = (select array_agg(x order by x) from unnest(con.conkey) x)) as one_to_one
         from pg_constraint con
         join pg_class c on c.oid = con.conrelid
         join pg_namespace n on n.oid = c.relnamespace
         join pg_class r on r.oid = con.confrelid
         join pg_namespace rn on rn.oid = r.relnamespace
        where con.contype = 'f' and n.nspname = 'public' and rn.nspname = 'public'
        order by c.relname, con.conname`,
    )
  ).rows;

  const functions = (
    await db.query<FunctionRow>(
      `select p.proname as name, p.proargnames as arg_names,
              coalesce(p.proallargtypes::int[], p.proargtypes::int[]) as arg_types,
              p.proargmodes::text[] as arg_modes, p.pronargdefaults::int as n_defaults,
              p.prorettype::int as return_type, p.proretset as returns_set, null as table_columns,
              p.proisstrict as strict, p.prosrc as source
         from pg_proc p
         join pg_namespace n on n.oid = p.pronamespace
        where n.nspname = 'public' and p.prokind = 'f'
          and p.prorettype not in ('trigger'::regtype, 'event_trigger'::regtype)
          and not exists (select 1 from pg_depend d where d.objid = p.oid and d.deptype = 'e')
        order by p.proname, p.oid`,
    )
  ).rows;

  const nullability: ColumnNullability = new Map();
  for (const c of (
    await db.query<{ relation: string; column: string; not_null: boolean }>(
      `select n.nspname || '.' || c.relname as relation, a.attname as column, a.attnotnull as not_null
         from pg_class c
         join pg_namespace n on n.oid = c.relnamespace
         join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
        where c.relkind in ('r', 'p') and n.nspname not in ('pg_catalog', 'information_schema')`,
    )
  ).rows) {
    const table = nullability.get(c.relation) ?? new Map<string, boolean>();
    table.set(c.column, c.not_null);
    nullability.set(c.relation, table);
  }

  const enums = (
    await db.query<{ name: string; labels: string[] }>(
      `select t.typname as name, array_agg(e.enumlabel::text order by e.enumsortorder) as labels
         from pg_type t join pg_namespace n on n.oid = t.typnamespace join pg_enum e on e.enumtypid = t.oid
        where n.nspname = 'public' group by t.typname order by t.typname`,
    )
  ).rows;

  const composites = (
    await db.query<{ name: string; attrs: { name: string; type: number }[] }>(
      `select t.typname as name,
              json_agg(json_build_object('name', a.attname, 'type', a.atttypid::int) order by a.attnum) as attrs
         from pg_type t
         join pg_namespace n on n.oid = t.typnamespace
         join pg_class c on c.oid = t.typrelid and c.relkind = 'c'
         join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
        where n.nspname = 'public' group by t.typname order by t.typname`,
    )
  ).rows;

  const relationNames = new Set(columns.map((c) => c.relation));

  /** The TypeScript type of a Postgres type as PostgREST returns it in JSON. */
  function tsType(oid: number): string {
    const t = types.get(oid);
    if (!t) return 'unknown';
    if (t.typtype === 'd') return tsType(t.base);
    if (t.typcategory === 'A' && t.elem !== 0) {
      const inner = tsType(t.elem);
      return /^[\w.[\]"]+$/.test(inner) ? `${inner}[]` : `(${inner})[]`;
    }
    if (t.schema === 'public' && t.typtype === 'e') return `Database["public"]["Enums"][${JSON.stringify(t.name)}]`;
    if (t.schema === 'public' && t.typtype === 'c') {
      if (relationNames.has(t.name)) return rowOf(t.name);
      return `Database["public"]["CompositeTypes"][${JSON.stringify(t.name)}]`;
    }
    if (t.name === 'void') return 'undefined';
    if (BOOLEAN_TYPES.has(t.name)) return 'boolean';
    if (NUMBER_TYPES.has(t.name)) return 'number';
    if (JSON_TYPES.has(t.name)) return 'Json';
    if (STRING_TYPES.has(t.name)) return 'string';
    if (t.typtype === 'e') return 'string';
    return 'unknown';
  }

  function rowOf(relation: string): string {
    const kind = columns.find((c) => c.relation === relation)?.kind;
    const group = kind === 'v' || kind === 'm' ? 'Views' : 'Tables';
    return `Database["public"][${JSON.stringify(group)}][${JSON.stringify(relation)}]["Row"]`;
  }

  const out: string[] = [];
  const line = (depth: number, text: string) => out.push(`${'  '.repeat(depth)}${text}`);

  function objectType(depth: number, label: string, fields: { name: string; type: string; optional?: boolean }[]): void {
    if (fields.length === 0) {
      line(depth, `${label}: Record<string, never>;`);
      return;
    }
    line(depth, `${label}: {`);
    for (const f of fields) line(depth + 1, `${key(f.name)}${f.optional ? '?' : ''}: ${f.type};`);
    line(depth, '};');
  }

  function relationshipsOf(depth: number, relation: string): void {
    const rels = relationships.filter((r) => r.relation === relation);
    if (rels.length === 0) {
      line(depth, 'Relationships: [];');
      return;
    }
    line(depth, 'Relationships: [');
    for (const r of rels) {
      line(depth + 1, '{');
      line(depth + 2, `foreignKeyName: ${JSON.stringify(r.name)};`);
      line(depth + 2, `columns: ${JSON.stringify(r.columns)};`);
      line(depth + 2, `isOneToOne: ${r.one_to_one};`);
      line(depth + 2, `referencedRelation: ${JSON.stringify(r.referenced)};`);
      line(depth + 2, `referencedColumns: ${JSON.stringify(r.referenced_columns)};`);
      line(depth + 1, '},');
    }
    line(depth, '];');
  }

  function relationGroup(label: 'Tables' | 'Views', kinds: string[]): void {
    const names = [...new Set(columns.filter((c) => kinds.includes(c.kind)).map((c) => c.relation))].sort();
    if (names.length === 0) {
      line(2, `${label}: { [_ in never]: never };`);
      return;
    }
    line(2, `${label}: {`);
    for (const name of names) {
      const cols = columns.filter((c) => c.relation === name);
      const nullable = (c: ColumnRow) => (c.not_null ? tsType(c.type_oid) : `${tsType(c.type_oid)} | null`);
      line(3, `${key(name)}: {`);
      objectType(
        4,
        'Row',
        cols.map((c) => ({ name: c.column, type: nullable(c) })),
      );
      const writable = label === 'Tables' || cols.some((c) => c.is_updatable);
      if (writable) {
        objectType(
          4,
          'Insert',
          cols.map((c) =>
            c.generated ? { name: c.column, type: 'never', optional: true } : { name: c.column, type: nullable(c), optional: !c.not_null || c.has_default },
          ),
        );
        objectType(
          4,
          'Update',
          cols.map((c) => ({ name: c.column, type: c.generated ? 'never' : nullable(c), optional: true })),
        );
      }
      relationshipsOf(4, name);
      line(3, '};');
    }
    line(2, '};');
  }

  line(0, '// Generated by `npm run db:types` from supabase/migrations: do not edit by hand.');
  line(0, '// tests/unit/db-types/generate.test.ts fails when this file no longer matches the migrations.');
  line(0, '');
  line(0, 'export type Json = string | number | boolean | null | { [key: string]: Json | undefined } | Json[];');
  line(0, '');
  line(0, 'export type Database = {');
  line(1, 'public: {');
  relationGroup('Tables', ['r', 'p']);
  relationGroup('Views', ['v', 'm']);

  if (functions.length === 0) {
    line(2, 'Functions: { [_ in never]: never };');
  } else {
    line(2, 'Functions: {');
    const names = [...new Set(functions.map((f) => f.name))].sort();
    for (const name of names) {
      const overloads = functions.filter((f) => f.name === name);
      const returnsDepth = overloads.length === 1 ? 4 : 5;
      const variants = overloads.map((f) => {
        const modes = f.arg_modes ?? f.arg_types.map(() => 'i');
        const inputs: { name: string; type: string; optional: boolean }[] = [];
        const outputs: { name: string; type: string }[] = [];
        const inputCount = modes.filter((m) => m === 'i' || m === 'b' || m === 'v').length;
        let inputIndex = 0;
        f.arg_types.forEach((oid, i) => {
          const mode = modes[i]!;
          const argName = f.arg_names?.[i] ?? '';
          if (mode === 'i' || mode === 'b' || mode === 'v') {
            if (argName !== '') {
              // An argument with a default may be left out, or passed as null (what the
              // migrations' optional arguments default to); one the function reads as null
              // when it is null (see acceptsNull) may be passed as null.
              const optional = inputIndex >= inputCount - f.n_defaults;
              const nullable = optional || acceptsNull(f, argName, nullability);
              inputs.push({ name: argName, type: nullable ? `${tsType(oid)} | null` : tsType(oid), optional });
            }
            inputIndex++;
          }
          if (mode === 'o' || mode === 'b' || mode === 't') outputs.push({ name: argName, type: tsType(oid) });
        });
        let returns: string;
        if (outputs.length > 0 && (f.returns_set || outputs.length > 1)) {
          // Columns of RETURNS TABLE / OUT parameters carry no NOT NULL: any of them may be null.
          const pad = '  '.repeat(returnsDepth + 1);
          returns = `{\n${outputs.map((o) => `${pad}${key(o.name)}: ${o.type} | null;`).join('\n')}\n${'  '.repeat(returnsDepth)}}`;
        } else if (outputs.length === 1) {
          returns = outputs[0]!.type;
        } else {
          returns = tsType(f.return_type);
        }
        if (f.returns_set) returns = /^[\w.[\]"]+$/.test(returns) || returns.startsWith('{') ? `${returns}[]` : `(${returns})[]`;
        return { inputs, returns };
      });
      if (variants.length === 1) {
        const v = variants[0]!;
        line(3, `${key(name)}: {`);
        objectType(4, 'Args', v.inputs);
        line(4, `Returns: ${v.returns};`);
        line(3, '};');
      } else {
        line(3, `${key(name)}:`);
        for (const v of variants) {
          line(4, '| {');
          objectType(5, 'Args', v.inputs);
          line(5, `Returns: ${v.returns};`);
          line(4, '  }');
        }
        out[out.length - 1] += ';';
      }
    }
    line(2, '};');
  }

  if (enums.length === 0) {
    line(2, 'Enums: { [_ in never]: never };');
  } else {
    line(2, 'Enums: {');
    for (const e of enums) line(3, `${key(e.name)}: ${e.labels.map((l) => JSON.stringify(l)).join(' | ')};`);
    line(2, '};');
  }

  if (composites.length === 0) {
    line(2, 'CompositeTypes: { [_ in never]: never };');
  } else {
    line(2, 'CompositeTypes: {');
    for (const c of byName(composites, (x) => x.name)) {
      objectType(
        3,
        key(c.name),
        c.attrs.map((a) => ({ name: a.name, type: `${tsType(a.type)} | null` })),
      );
    }
    line(2, '};');
  }
  line(1, '};');
  line(0, '};');
  line(0, '');
  line(0, 'type PublicSchema = Database["public"];');
  line(0, '');
  line(0, '/** The row type of a table, e.g. `Tables<"products">`. */');
  line(0, 'export type Tables<T extends keyof PublicSchema["Tables"]> = PublicSchema["Tables"][T]["Row"];');
  line(0, '/** What an insert into a table takes. */');
  line(0, 'export type TablesInsert<T extends keyof PublicSchema["Tables"]> = PublicSchema["Tables"][T]["Insert"];');
  line(0, '/** What an update of a table takes. */');
  line(0, 'export type TablesUpdate<T extends keyof PublicSchema["Tables"]> = PublicSchema["Tables"][T]["Update"];');
  return `${out.join('\n')}\n`;
}
