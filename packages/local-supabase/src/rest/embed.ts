/** Resolves PostgREST resource embedding (`orders?select=*,order_items(*)`) through foreign keys. */
import { RestError } from './errors.ts';
import type { ForeignKey, Schema, Table } from './schema.ts';

export interface Relationship {
  target: Table;
  /** To-many embeds give arrays, to-one embeds an object or null. */
  toMany: boolean;
  fk: ForeignKey;
  /** The SQL condition joining the parent alias to the child alias (identifiers pre-quoted). */
  join(parent: string, child: string, quote: (name: string) => string): string;
}

function sameColumns(a: string[], b: string[]): boolean {
  return a.length === b.length && a.every((c) => b.includes(c));
}

function manyToOne(schema: Schema, fk: ForeignKey): Relationship | null {
  const target = schema.tables.get(fk.refTable);
  if (!target) return null;
  return {
    target,
    toMany: false,
    fk,
    join: (parent, child, q) => fk.columns.map((c, i) => `${child}.${q(fk.refColumns[i]!)} = ${parent}.${q(c)}`).join(' and '),
  };
}

function oneToMany(schema: Schema, fk: ForeignKey): Relationship | null {
  const target = schema.tables.get(fk.table);
  if (!target) return null;
  return {
    target,
    // A foreign key that is also the child's primary key makes the relation one-to-one.
    toMany: !sameColumns(fk.columns, target.primaryKey),
    fk,
    join: (parent, child, q) => fk.columns.map((c, i) => `${child}.${q(c)} = ${parent}.${q(fk.refColumns[i]!)}`).join(' and '),
  };
}

/** Finds the relationship `from` → `relation` (table, FK column or constraint name), narrowed by `hint`. */
export function resolveRelationship(schema: Schema, from: Table, relation: string, hint?: string): Relationship {
  const found: Relationship[] = [];
  const matchesHint = (fk: ForeignKey) => !hint || fk.name === hint || fk.columns.includes(hint) || fk.refColumns.includes(hint);
  for (const fk of schema.foreignKeys) {
    if (!matchesHint(fk)) continue;
    // Parent holds the FK: many-to-one, named by target table, FK column or constraint.
    if (fk.table === from.name && (fk.refTable === relation || fk.name === relation || (fk.columns.length === 1 && fk.columns[0] === relation))) {
      const r = manyToOne(schema, fk);
      if (r) found.push(r);
      continue;
    }
    // Child holds the FK: one-to-many, named by child table or constraint.
    if (fk.refTable === from.name && (fk.table === relation || fk.name === relation)) {
      const r = oneToMany(schema, fk);
      if (r) found.push(r);
    }
  }
  if (found.length === 0) {
    throw new RestError(
      400,
      'PGRST200',
      `Could not find a relationship between '${from.name}' and '${relation}' in the schema cache`,
      `Searched for a foreign key relationship between '${from.name}' and '${relation}' in the schema 'public', but no matches were found.`,
      null,
    );
  }
  if (found.length > 1) {
    throw new RestError(
      300,
      'PGRST201',
      `Could not embed because more than one relationship was found for '${from.name}' and '${relation}'`,
      found.map((r) => r.fk.name).join(', '),
      `Try changing '${relation}' to one of the following: ${found.map((r) => `'${relation}!${r.fk.name}'`).join(', ')}.`,
    );
  }
  return found[0]!;
}
