/**
 * Generates supabase/schema.sql from a migrated database: the shop's schema as it is after every
 * migration, read from `pg_catalog` in a fixed order, so that each table, view, policy and
 * function (with its current body) can be read in one place instead of by replaying the
 * migrations. Used by `npm run db:types` and by the test that keeps the file in step with the
 * migrations.
 *
 * What it covers: the `public` schema and every schema the migrations create, whole (tables with
 * their columns, constraints, indexes, row-level security, triggers, policies and grants; views;
 * functions and procedures; enums, domains, composite types and sequences; default privileges),
 * plus what the migrations add to the schemas the platform brings (a trigger on `auth.users`,
 * policies on `storage.objects`), and the tables of each publication. What the platform brings
 * (the stack's bootstrap, or a hosted project's own schemas) is told apart by a `CatalogueBaseline`
 * taken before the first migration. Rows the migrations insert (e.g. storage buckets) are data
 * and are not listed.
 */
import type { Queryable } from './generate.ts';

/** The catalogue before the migrations: every schema's name and every object as `catalog:oid`. */
export interface CatalogBaseline {
  schemas: Set<string>;
  objects: Set<string>;
}

const CATALOGUES = ['pg_class', 'pg_proc', 'pg_type', 'pg_trigger', 'pg_policy', 'pg_constraint', 'pg_publication', 'pg_extension'];

/** Records what `db` holds now, so that `generateSchemaSql` can tell the migrations' objects apart. */
export async function catalogBaseline(db: Queryable): Promise<CatalogBaseline> {
  const schemas = (await db.query<{ name: string }>('select nspname::text as name from pg_namespace')).rows;
  const objects = (
    await db.query<{ key: string }>(CATALOGUES.map((catalog) => `select '${catalog}:' || oid::text as key from pg_catalog.${catalog}`).join(' union all '))
  ).rows;
  return { schemas: new Set(schemas.map((s) => s.name)), objects: new Set(objects.map((o) => o.key)) };
}

interface Acl {
  grantee: string;
  privilege: string;
  grantable: boolean;
}

interface SchemaRow {
  oid: number;
  name: string;
  ident: string;
  acl: Acl[];
}

interface RelationRow {
  oid: number;
  schema: string;
  name: string;
  kind: string;
  persistence: string;
  options: string[] | null;
  partition_key: string | null;
  rls: boolean;
  force_rls: boolean;
  replica_identity: string;
  view: string | null;
  comment: string | null;
  acl: Acl[];
}

interface ColumnRow {
  relation: number;
  name: string;
  type: string;
  collation: string | null;
  not_null: boolean;
  default_value: string | null;
  identity: string;
  generated: string;
  comment: string | null;
  acl: Acl[];
}

interface ConstraintRow {
  oid: number;
  relation: number;
  relation_schema: string;
  name: string;
  kind: string;
  definition: string;
}

interface DefinitionRow {
  oid: number;
  relation: number;
  relation_schema: string;
  name: string;
  definition: string;
}

interface PolicyRow {
  oid: number;
  relation: number;
  relation_schema: string;
  name: string;
  permissive: boolean;
  command: string;
  roles: string[];
  using_expr: string | null;
  check_expr: string | null;
}

interface FunctionRow {
  oid: number;
  schema: string;
  signature: string;
  kind: string;
  definition: string;
  comment: string | null;
  acl: Acl[];
}

interface TypeRow {
  oid: number;
  schema: string;
  name: string;
  kind: string;
  labels: string[] | null;
  base: string | null;
  not_null: boolean;
  default_value: string | null;
  checks: string[] | null;
  attributes: string[] | null;
}

interface SequenceRow {
  oid: number;
  schema: string;
  name: string;
  type: string;
  start: string;
  increment: string;
  min: string;
  max: string;
  cache: string;
  cycle: boolean;
  owned_by: string | null;
  acl: Acl[];
}

interface PublicationRow {
  oid: number;
  ident: string;
  all_tables: boolean;
  actions: string[];
}

interface PublicationTableRow {
  publication: number;
  relation: number;
  relation_schema: string;
  columns: string[] | null;
  row_filter: string | null;
}

interface DefaultAclRow {
  role: string;
  schema: string;
  schema_ident: string;
  kind: string;
  acl: Acl[];
}

interface ExtensionRow {
  oid: number;
  ident: string;
  schema_ident: string;
}

/** The effective privileges of an object (its ACL, or the default one when it has none), as JSON. */
function aclOf(acl: string, kind: string, owner: string): string {
  return `(select coalesce(json_agg(json_build_object(
              'grantee', case when a.grantee = 0 then 'PUBLIC' else quote_ident(r.rolname) end,
              'privilege', a.privilege_type, 'grantable', a.is_grantable)), '[]')
             from aclexplode(coalesce(${acl}, acldefault('${kind}', ${owner}))) a
             left join pg_roles r on r.oid = a.grantee
            where a.grantee <> ${owner})`;
}

/** Members of an extension belong to it, not to the migrations. */
const NOT_IN_EXTENSION = (classid: string, oid: string) =>
  `not exists (select 1 from pg_depend d where d.classid = '${classid}'::regclass and d.objid = ${oid} and d.deptype = 'e')`;

const PRIVILEGE_ORDER = ['SELECT', 'INSERT', 'UPDATE', 'DELETE', 'TRUNCATE', 'REFERENCES', 'TRIGGER', 'MAINTAIN', 'USAGE', 'CREATE', 'EXECUTE'];

function privilegeRank(privilege: string): number {
  const rank = PRIVILEGE_ORDER.indexOf(privilege);
  return rank === -1 ? PRIVILEGE_ORDER.length : rank;
}

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * GRANT statements for `target` (e.g. `TABLE public.orders`), one per set of privileges, each
 * listing the roles that hold exactly that set; `ALL` when a role holds every privilege the object
 * type has.
 */
function grants(target: string, acl: Acl[], all: string[]): string[] {
  const byGrantee = new Map<string, { privileges: string[]; grantable: string[] }>();
  for (const a of acl) {
    const entry = byGrantee.get(a.grantee) ?? { privileges: [], grantable: [] };
    entry.privileges.push(a.privilege);
    if (a.grantable) entry.grantable.push(a.privilege);
    byGrantee.set(a.grantee, entry);
  }
  const statements = new Map<string, string[]>();
  const phrase = (privileges: string[]) => {
    const sorted = [...new Set(privileges)].sort((a, b) => privilegeRank(a) - privilegeRank(b) || compare(a, b));
    return all.length > 1 && all.every((p) => sorted.includes(p)) && sorted.length === all.length ? 'ALL' : sorted.join(', ');
  };
  for (const [grantee, entry] of byGrantee) {
    const plain = entry.privileges.filter((p) => !entry.grantable.includes(p));
    if (plain.length > 0) {
      const key = `GRANT ${phrase(plain)} ON ${target} TO %;`;
      statements.set(key, [...(statements.get(key) ?? []), grantee]);
    }
    if (entry.grantable.length > 0) {
      const key = `GRANT ${phrase(entry.grantable)} ON ${target} TO % WITH GRANT OPTION;`;
      statements.set(key, [...(statements.get(key) ?? []), grantee]);
    }
  }
  const granteeOrder = (a: string, b: string) => (a === 'PUBLIC' ? -1 : b === 'PUBLIC' ? 1 : compare(a, b));
  return [...statements].map(([statement, grantees]) => statement.replace('%', grantees.sort(granteeOrder).join(', '))).sort(compare);
}

/** `'text'` as an SQL string literal. */
function literal(text: string): string {
  return `'${text.replace(/'/g, "''")}'`;
}

/**
 * Reads `db` (migrated; `baseline` taken before its first migration) and returns the text of
 * supabase/schema.sql. Names are schema-qualified throughout (deparsed with an empty search_path).
 */
export async function generateSchemaSql(db: Queryable, baseline: CatalogBaseline): Promise<string> {
  const { rows: saved } = await db.query<{ path: string }>(`select current_setting('search_path') as path`);
  await db.query(`select set_config('search_path', '', false)`);
  try {
    return await read(db, baseline);
  } finally {
    await db.query(`select set_config('search_path', $1, false)`, [saved[0]!.path]);
  }
}

async function read(db: Queryable, baseline: CatalogBaseline): Promise<string> {
  const q = async <T>(sql: string) => (await db.query<T>(sql)).rows;

  const allSchemas = await q<SchemaRow>(
    `select n.oid::int as oid, n.nspname::text as name, quote_ident(n.nspname) as ident,
            ${aclOf('n.nspacl', 'n', 'n.nspowner')} as acl
       from pg_namespace n
      where n.nspname not in ('information_schema') and n.nspname not like 'pg\\_%'
      order by n.nspname collate "C"`,
  );
  const whole = new Set(allSchemas.filter((s) => s.name === 'public' || !baseline.schemas.has(s.name)).map((s) => s.name));
  const userSchemas = new Set(allSchemas.map((s) => s.name));
  const isNew = (catalog: string, oid: number) => !baseline.objects.has(`${catalog}:${oid}`);
  /** In a schema listed whole, or created by the migrations in one the platform brings. */
  const inScope = (catalog: string, oid: number, schema: string) => whole.has(schema) || (userSchemas.has(schema) && isNew(catalog, oid));

  const allOf = async (kind: string) =>
    (await q<{ privilege: string }>(`select privilege_type as privilege from aclexplode(acldefault('${kind}', 10::oid))`)).map((r) => r.privilege);
  const ALL = { table: await allOf('r'), sequence: await allOf('s'), function: await allOf('f'), schema: await allOf('n') };

  const extensions = (
    await q<ExtensionRow>(
      `select e.oid::int as oid, quote_ident(e.extname) as ident, quote_ident(n.nspname) as schema_ident
         from pg_extension e join pg_namespace n on n.oid = e.extnamespace
        order by e.extname collate "C"`,
    )
  ).filter((e) => isNew('pg_extension', e.oid));

  const defaultAcls = (
    await q<DefaultAclRow>(
      `select quote_ident(r.rolname) as role, n.nspname::text as schema, quote_ident(n.nspname) as schema_ident,
              d.defaclobjtype::text as kind,
              (select coalesce(json_agg(json_build_object(
                        'grantee', case when a.grantee = 0 then 'PUBLIC' else quote_ident(g.rolname) end,
                        'privilege', a.privilege_type, 'grantable', a.is_grantable)), '[]')
                 from aclexplode(d.defaclacl) a left join pg_roles g on g.oid = a.grantee) as acl
         from pg_default_acl d
         join pg_roles r on r.oid = d.defaclrole
         join pg_namespace n on n.oid = d.defaclnamespace
        order by r.rolname collate "C", n.nspname collate "C", d.defaclobjtype`,
    )
  ).filter((d) => whole.has(d.schema));

  const types = (
    await q<TypeRow>(
      `select t.oid::int as oid, n.nspname::text as schema, format('%I.%I', n.nspname, t.typname) as name,
              case when t.typtype = 'c' then 'composite' when t.typtype = 'e' then 'enum' else 'domain' end as kind,
              (select array_agg(quote_literal(e.enumlabel) order by e.enumsortorder) from pg_enum e where e.enumtypid = t.oid) as labels,
              case when t.typtype = 'd' then format_type(t.typbasetype, t.typtypmod) end as base,
              t.typnotnull as not_null, t.typdefault as default_value,
              (select array_agg(format('CONSTRAINT %I %s', c.conname, pg_get_constraintdef(c.oid, true)) order by c.conname collate "C")
                 from pg_constraint c where c.contypid = t.oid and c.contype = 'c') as checks,
              (select array_agg(format('%I %s', a.attname, format_type(a.atttypid, a.atttypmod)) order by a.attnum)
                 from pg_attribute a where a.attrelid = t.typrelid and a.attnum > 0 and not a.attisdropped) as attributes
         from pg_type t
         join pg_namespace n on n.oid = t.typnamespace
         left join pg_class c on c.oid = t.typrelid
        where (t.typtype in ('e', 'd') or (t.typtype = 'c' and c.relkind = 'c'))
          and ${NOT_IN_EXTENSION('pg_type', 't.oid')}
        order by n.nspname collate "C", t.typname collate "C"`,
    )
  ).filter((t) => inScope('pg_type', t.oid, t.schema));

  const sequences = (
    await q<SequenceRow>(
      `select c.oid::int as oid, n.nspname::text as schema, format('%I.%I', n.nspname, c.relname) as name,
              format_type(s.seqtypid, null) as type, s.seqstart::text as start, s.seqincrement::text as increment,
              s.seqmin::text as min, s.seqmax::text as max, s.seqcache::text as cache, s.seqcycle as cycle,
              (select format('%I.%I.%I', rn.nspname, r.relname, a.attname)
                 from pg_depend d
                 join pg_class r on r.oid = d.refobjid
                 join pg_namespace rn on rn.oid = r.relnamespace
                 join pg_attribute a on a.attrelid = d.refobjid and a.attnum = d.refobjsubid
                where d.classid = 'pg_class'::regclass and d.objid = c.oid and d.deptype = 'a') as owned_by,
              ${aclOf('c.relacl', 's', 'c.relowner')} as acl
         from pg_class c
         join pg_namespace n on n.oid = c.relnamespace
         join pg_sequence s on s.seqrelid = c.oid
        where c.relkind = 'S'
          and not exists (select 1 from pg_depend d where d.classid = 'pg_class'::regclass and d.objid = c.oid and d.deptype = 'i')
          and ${NOT_IN_EXTENSION('pg_class', 'c.oid')}
        order by n.nspname collate "C", c.relname collate "C"`,
    )
  ).filter((s) => inScope('pg_class', s.oid, s.schema));

  const relations = await q<RelationRow>(
    `select c.oid::int as oid, n.nspname::text as schema, format('%I.%I', n.nspname, c.relname) as name,
            c.relkind::text as kind, c.relpersistence::text as persistence, c.reloptions::text[] as options,
            case when c.relkind = 'p' then pg_get_partkeydef(c.oid) end as partition_key,
            c.relrowsecurity as rls, c.relforcerowsecurity as force_rls, c.relreplident::text as replica_identity,
            case when c.relkind in ('v', 'm') then pg_get_viewdef(c.oid, true) end as view,
            obj_description(c.oid, 'pg_class') as comment,
            ${aclOf('c.relacl', 'r', 'c.relowner')} as acl
       from pg_class c
       join pg_namespace n on n.oid = c.relnamespace
      where c.relkind in ('r', 'p', 'v', 'm') and not c.relispartition
        and n.nspname not in ('information_schema') and n.nspname not like 'pg\\_%'
        and ${NOT_IN_EXTENSION('pg_class', 'c.oid')}
      order by n.nspname collate "C", c.relname collate "C"`,
  );
  const listed = relations.filter((r) => inScope('pg_class', r.oid, r.schema));
  const listedIds = new Set(listed.map((r) => r.oid));
  /** Objects on a relation: all of those on a listed relation, the new ones on any other. */
  const onRelation = <T extends { oid: number; relation: number; relation_schema: string }>(catalog: string, rows: T[]) =>
    rows.filter((r) => listedIds.has(r.relation) || (userSchemas.has(r.relation_schema) && isNew(catalog, r.oid)));

  const columns = await q<ColumnRow>(
    `select a.attrelid::int as relation, quote_ident(a.attname) as name, format_type(a.atttypid, a.atttypmod) as type,
            case when a.attcollation <> t.typcollation then format('%I.%I', cn.nspname, co.collname) end as collation,
            a.attnotnull as not_null, a.attidentity::text as identity, a.attgenerated::text as generated,
            pg_get_expr(d.adbin, d.adrelid) as default_value,
            col_description(a.attrelid, a.attnum) as comment,
            (select coalesce(json_agg(json_build_object(
                      'grantee', case when x.grantee = 0 then 'PUBLIC' else quote_ident(r.rolname) end,
                      'privilege', x.privilege_type, 'grantable', x.is_grantable)), '[]')
               from aclexplode(a.attacl) x left join pg_roles r on r.oid = x.grantee) as acl
       from pg_attribute a
       join pg_class c on c.oid = a.attrelid
       join pg_type t on t.oid = a.atttypid
       left join pg_attrdef d on d.adrelid = a.attrelid and d.adnum = a.attnum
       left join pg_collation co on co.oid = a.attcollation
       left join pg_namespace cn on cn.oid = co.collnamespace
      where c.relkind in ('r', 'p', 'v', 'm') and a.attnum > 0 and not a.attisdropped
      order by a.attrelid, a.attnum`,
  );

  // NOT NULL constraints (contype 'n') are shown on their columns.
  const constraints = onRelation(
    'pg_constraint',
    await q<ConstraintRow>(
      `select c.oid::int as oid, c.conrelid::int as relation, n.nspname::text as relation_schema,
              quote_ident(c.conname) as name, c.contype::text as kind, pg_get_constraintdef(c.oid, true) as definition
         from pg_constraint c
         join pg_class r on r.oid = c.conrelid
         join pg_namespace n on n.oid = r.relnamespace
        where c.conrelid <> 0 and c.contype <> 'n' and c.conislocal
        order by array_position(array['p', 'u', 'x', 'c', 'f', 't']::"char"[], c.contype), c.conname collate "C"`,
    ),
  );

  const indexes = onRelation(
    'pg_class',
    await q<DefinitionRow>(
      `select i.indexrelid::int as oid, i.indrelid::int as relation, n.nspname::text as relation_schema,
              ic.relname::text as name, pg_get_indexdef(i.indexrelid) as definition
         from pg_index i
         join pg_class ic on ic.oid = i.indexrelid
         join pg_class r on r.oid = i.indrelid
         join pg_namespace n on n.oid = r.relnamespace
        where not exists (select 1 from pg_constraint c where c.conindid = i.indexrelid and c.conrelid = i.indrelid
                            and c.contype in ('p', 'u', 'x'))
        order by ic.relname collate "C"`,
    ),
  );

  const triggers = onRelation(
    'pg_trigger',
    await q<DefinitionRow>(
      `select t.oid::int as oid, t.tgrelid::int as relation, n.nspname::text as relation_schema,
              t.tgname::text as name, pg_get_triggerdef(t.oid, true) as definition
         from pg_trigger t
         join pg_class r on r.oid = t.tgrelid
         join pg_namespace n on n.oid = r.relnamespace
        where not t.tgisinternal
        order by t.tgname collate "C"`,
    ),
  );

  const policies = onRelation(
    'pg_policy',
    await q<PolicyRow>(
      `select p.oid::int as oid, p.polrelid::int as relation, n.nspname::text as relation_schema,
              quote_ident(p.polname) as name, p.polpermissive as permissive,
              case p.polcmd when 'r' then 'SELECT' when 'a' then 'INSERT' when 'w' then 'UPDATE' when 'd' then 'DELETE' else 'ALL' end as command,
              array(select case when x.role = 0 then 'PUBLIC' else quote_ident(g.rolname) end
                      from unnest(p.polroles) x(role) left join pg_roles g on g.oid = x.role
                     order by x.role <> 0, g.rolname collate "C") as roles,
              pg_get_expr(p.polqual, p.polrelid) as using_expr, pg_get_expr(p.polwithcheck, p.polrelid) as check_expr
         from pg_policy p
         join pg_class r on r.oid = p.polrelid
         join pg_namespace n on n.oid = r.relnamespace
        order by p.polname collate "C"`,
    ),
  );

  const functions = (
    await q<FunctionRow>(
      `select p.oid::int as oid, n.nspname::text as schema,
              format('%I.%I(%s)', n.nspname, p.proname, pg_get_function_identity_arguments(p.oid)) as signature,
              p.prokind::text as kind, pg_get_functiondef(p.oid) as definition,
              obj_description(p.oid, 'pg_proc') as comment,
              ${aclOf('p.proacl', 'f', 'p.proowner')} as acl
         from pg_proc p
         join pg_namespace n on n.oid = p.pronamespace
        where p.prokind in ('f', 'p') and n.nspname not in ('information_schema') and n.nspname not like 'pg\\_%'
          and ${NOT_IN_EXTENSION('pg_proc', 'p.oid')}
        order by n.nspname collate "C", p.proname collate "C", pg_get_function_identity_arguments(p.oid) collate "C"`,
    )
  ).filter((f) => inScope('pg_proc', f.oid, f.schema));

  const publications = await q<PublicationRow>(
    `select p.oid::int as oid, quote_ident(p.pubname) as ident, p.puballtables as all_tables,
            array_remove(array[case when p.pubinsert then 'insert' end, case when p.pubupdate then 'update' end,
                               case when p.pubdelete then 'delete' end, case when p.pubtruncate then 'truncate' end], null) as actions
       from pg_publication p
      order by p.pubname collate "C"`,
  );
  const publicationTables = await q<PublicationTableRow>(
    `select pr.prpubid::int as publication, pr.prrelid::int as relation, n.nspname::text as relation_schema,
            (select array_agg(quote_ident(a.attname) order by a.attnum)
               from pg_attribute a where a.attrelid = pr.prrelid and a.attnum = any (pr.prattrs)) as columns,
            pg_get_expr(pr.prqual, pr.prrelid) as row_filter
       from pg_publication_rel pr
       join pg_class r on r.oid = pr.prrelid
       join pg_namespace n on n.oid = r.relnamespace
      order by n.nspname collate "C", r.relname collate "C"`,
  );

  const relationName = new Map(relations.map((r) => [r.oid, r.name]));
  // Tables the platform brings (auth.users, storage.objects) that the migrations add to.
  const others = [...new Set([...constraints, ...indexes, ...triggers, ...policies].filter((x) => !listedIds.has(x.relation)).map((x) => x.relation))].sort(
    (a, b) => compare(relationName.get(a) ?? '', relationName.get(b) ?? ''),
  );

  const out: string[] = [
    '-- Generated by `npm run db:types` from supabase/migrations: do not edit by hand.',
    '-- tests/unit/db-types/schema-sql.test.ts fails when this file no longer matches the migrations.',
    '--',
    '-- The database after every migration, read from its catalogue, so that what the migrations built',
    '-- reads in one place: every table of the schemas below with its columns, constraints, indexes,',
    '-- row-level security, triggers, policies and grants; every view; every function with its current',
    '-- body; what the migrations add to tables the platform brings; the published tables. Change the',
    '-- database with a new migration, never here. Data rows (e.g. storage buckets) are not listed.',
    '--',
    `-- Schemas: ${[...whole].join(', ')}.`,
  ];
  if (others.length > 0) out.push(`-- Platform tables the migrations add to: ${others.map((oid) => relationName.get(oid)).join(', ')}.`);
  const push = (...lines: string[]) => out.push(...lines);
  /** A section's title, after exactly one blank line. */
  const section = (title: string) => {
    while (out[out.length - 1] === '') out.pop();
    const rule = `-- ${'-'.repeat(96)}`;
    push('', rule, `-- ${title}`, rule, '');
  };

  if (extensions.length > 0) {
    section('Extensions');
    for (const e of extensions) push(`CREATE EXTENSION IF NOT EXISTS ${e.ident} WITH SCHEMA ${e.schema_ident};`);
  }

  section('Schemas');
  for (const s of allSchemas.filter((x) => whole.has(x.name))) {
    if (s.name !== 'public') push(`CREATE SCHEMA ${s.ident};`);
    push(...grants(`SCHEMA ${s.ident}`, s.acl, ALL.schema), '');
  }

  if (defaultAcls.length > 0) {
    section('Default privileges (for the objects created in these schemas from now on)');
    const objectTypes: Record<string, { label: string; all: string[] }> = {
      r: { label: 'TABLES', all: ALL.table },
      S: { label: 'SEQUENCES', all: ALL.sequence },
      f: { label: 'FUNCTIONS', all: ALL.function },
      T: { label: 'TYPES', all: ['USAGE'] },
      n: { label: 'SCHEMAS', all: ALL.schema },
    };
    for (const d of defaultAcls) {
      const type = objectTypes[d.kind] ?? { label: d.kind, all: [] };
      for (const grant of grants(type.label, d.acl, type.all)) {
        push(`ALTER DEFAULT PRIVILEGES FOR ROLE ${d.role} IN SCHEMA ${d.schema_ident} ${grant}`);
      }
    }
  }

  if (types.length > 0) {
    section('Types');
    for (const t of types) {
      if (t.kind === 'enum') push(`CREATE TYPE ${t.name} AS ENUM (${(t.labels ?? []).join(', ')});`);
      else if (t.kind === 'composite') push(`CREATE TYPE ${t.name} AS (`, `${(t.attributes ?? []).map((a) => `  ${a}`).join(',\n')}`, ');');
      else {
        const parts = [`CREATE DOMAIN ${t.name} AS ${t.base}`];
        if (t.default_value !== null) parts.push(`DEFAULT ${t.default_value}`);
        if (t.not_null) parts.push('NOT NULL');
        parts.push(...(t.checks ?? []));
        push(`${parts.join(' ')};`);
      }
      push('');
    }
  }

  if (sequences.length > 0) {
    section('Sequences');
    for (const s of sequences) {
      push(
        `CREATE SEQUENCE ${s.name} AS ${s.type} START WITH ${s.start} INCREMENT BY ${s.increment} MINVALUE ${s.min} MAXVALUE ${s.max} CACHE ${s.cache}${s.cycle ? ' CYCLE' : ''};`,
      );
      if (s.owned_by) push(`ALTER SEQUENCE ${s.name} OWNED BY ${s.owned_by};`);
      push(...grants(`SEQUENCE ${s.name}`, s.acl, ALL.sequence), '');
    }
  }

  /** Indexes, row-level security, triggers, policies, grants and comments of a table or view. */
  function attachments(relation: RelationRow | undefined, oid: number, name: string): void {
    const lines: string[] = [];
    for (const c of constraints.filter((x) => x.relation === oid && !listedIds.has(oid))) {
      lines.push(`ALTER TABLE ${name} ADD CONSTRAINT ${c.name} ${c.definition};`);
    }
    for (const i of indexes.filter((x) => x.relation === oid)) lines.push(`${i.definition};`);
    if (relation?.rls) lines.push(`ALTER TABLE ${name} ENABLE ROW LEVEL SECURITY;`);
    if (relation?.force_rls) lines.push(`ALTER TABLE ${name} FORCE ROW LEVEL SECURITY;`);
    if (relation && relation.kind !== 'v' && relation.kind !== 'm' && relation.replica_identity !== 'd') {
      const identity = { f: 'FULL', n: 'NOTHING', i: 'USING INDEX' }[relation.replica_identity] ?? relation.replica_identity;
      lines.push(`ALTER TABLE ${name} REPLICA IDENTITY ${identity};`);
    }
    for (const t of triggers.filter((x) => x.relation === oid)) lines.push(`${t.definition};`);
    for (const p of policies.filter((x) => x.relation === oid)) {
      lines.push(`CREATE POLICY ${p.name} ON ${name}`);
      if (!p.permissive) lines.push('  AS RESTRICTIVE');
      lines.push(`  FOR ${p.command}`, `  TO ${p.roles.join(', ')}`);
      if (p.using_expr !== null) lines.push(`  USING (${p.using_expr})`);
      if (p.check_expr !== null) lines.push(`  WITH CHECK (${p.check_expr})`);
      lines[lines.length - 1] += ';';
    }
    if (relation) {
      lines.push(...grants(`TABLE ${name}`, relation.acl, ALL.table));
      const byColumns = new Map<string, { grantee: string; privilege: string; grantable: boolean; columns: string[] }>();
      for (const c of columns.filter((x) => x.relation === oid)) {
        for (const a of c.acl) {
          const key = `${a.grantee}\n${a.privilege}\n${a.grantable}`;
          const entry = byColumns.get(key) ?? { ...a, columns: [] };
          entry.columns.push(c.name);
          byColumns.set(key, entry);
        }
      }
      const columnGrants = new Map<string, string[]>();
      for (const g of byColumns.values()) {
        const key = `GRANT ${g.privilege} (${g.columns.join(', ')}) ON TABLE ${name} TO %${g.grantable ? ' WITH GRANT OPTION' : ''};`;
        columnGrants.set(key, [...(columnGrants.get(key) ?? []), g.grantee]);
      }
      lines.push(...[...columnGrants].map(([key, grantees]) => key.replace('%', grantees.sort(compare).join(', '))).sort(compare));
      if (relation.comment !== null)
        lines.push(
          `COMMENT ON ${relation.kind === 'v' ? 'VIEW' : relation.kind === 'm' ? 'MATERIALIZED VIEW' : 'TABLE'} ${name} IS ${literal(relation.comment)};`,
        );
      for (const c of columns.filter((x) => x.relation === oid && x.comment !== null)) {
        lines.push(`COMMENT ON COLUMN ${name}.${c.name} IS ${literal(c.comment!)};`);
      }
    }
    if (lines.length > 0) push(...lines);
  }

  const tables = listed.filter((r) => r.kind === 'r' || r.kind === 'p');
  if (tables.length > 0) {
    section('Tables');
    for (const t of tables) {
      const body = columns
        .filter((c) => c.relation === t.oid)
        .map((c) => {
          let text = `  ${c.name} ${c.type}`;
          if (c.collation) text += ` COLLATE ${c.collation}`;
          if (c.identity) text += ` GENERATED ${c.identity === 'a' ? 'ALWAYS' : 'BY DEFAULT'} AS IDENTITY`;
          if (c.generated) text += ` GENERATED ALWAYS AS (${c.default_value})${c.generated === 's' ? ' STORED' : ' VIRTUAL'}`;
          else if (c.default_value !== null) text += ` DEFAULT ${c.default_value}`;
          if (c.not_null) text += ' NOT NULL';
          return text;
        });
      for (const c of constraints.filter((x) => x.relation === t.oid)) body.push(`  CONSTRAINT ${c.name} ${c.definition}`);
      const unlogged = t.persistence === 'u' ? 'UNLOGGED ' : '';
      let tail = ')';
      if (t.partition_key) tail += ` PARTITION BY ${t.partition_key}`;
      if (t.options) tail += ` WITH (${t.options.join(', ')})`;
      push(`CREATE ${unlogged}TABLE ${t.name} (`, body.join(',\n'), `${tail};`);
      attachments(t, t.oid, t.name);
      push('');
    }
  }

  if (others.length > 0) {
    section("Added by the migrations to the platform's own tables");
    for (const oid of others) {
      attachments(undefined, oid, relationName.get(oid) ?? String(oid));
      push('');
    }
  }

  const views = listed.filter((r) => r.kind === 'v' || r.kind === 'm');
  if (views.length > 0) {
    section('Views');
    for (const v of views) {
      const kind = v.kind === 'm' ? 'MATERIALIZED VIEW' : 'VIEW';
      const options = v.options ? ` WITH (${v.options.join(', ')})` : '';
      push(`CREATE ${kind} ${v.name}${options} AS`, `${(v.view ?? '').trimEnd().replace(/;$/, '')};`);
      attachments(v, v.oid, v.name);
      push('');
    }
  }

  if (functions.length > 0) {
    section('Functions');
    for (const f of functions) {
      const target = `${f.kind === 'p' ? 'PROCEDURE' : 'FUNCTION'} ${f.signature}`;
      push(`${f.definition.trimEnd()};`);
      // A function is executable by PUBLIC unless that was revoked; say so when it was.
      if (!f.acl.some((a) => a.grantee === 'PUBLIC')) push(`REVOKE ALL ON ${target} FROM PUBLIC;`);
      push(...grants(target, f.acl, ALL.function));
      if (f.comment !== null) push(`COMMENT ON ${target} IS ${literal(f.comment)};`);
      push('');
    }
  }

  const published = publications
    .map((p) => ({
      publication: p,
      tables: publicationTables.filter((t) => t.publication === p.oid && listedIds.has(t.relation)),
    }))
    .filter((p) => p.tables.length > 0 || isNew('pg_publication', p.publication.oid));
  if (published.length > 0) {
    section('Publications');
    for (const { publication: p, tables: rels } of published) {
      if (isNew('pg_publication', p.oid)) {
        const actions = p.actions.length === 4 ? '' : ` WITH (publish = ${literal(p.actions.join(', '))})`;
        push(`CREATE PUBLICATION ${p.ident}${p.all_tables ? ' FOR ALL TABLES' : ''}${actions};`);
      }
      for (const t of rels) {
        const cols = t.columns ? ` (${t.columns.join(', ')})` : '';
        const filter = t.row_filter !== null ? ` WHERE (${t.row_filter})` : '';
        push(`ALTER PUBLICATION ${p.ident} ADD TABLE ${relationName.get(t.relation)}${cols}${filter};`);
      }
      push('');
    }
  }

  while (out[out.length - 1] === '') out.pop();
  return `${out.join('\n')}\n`;
}
