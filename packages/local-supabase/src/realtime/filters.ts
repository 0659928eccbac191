/** Realtime `postgres_changes` filters (`col=op.value`) and their evaluation on a row. */

export type FilterOp = 'eq' | 'neq' | 'lt' | 'lte' | 'gt' | 'gte' | 'in';

export interface Filter {
  column: string;
  op: FilterOp;
  /** One value, or several for `in`. */
  values: string[];
}

const OPS: readonly FilterOp[] = ['eq', 'neq', 'lt', 'lte', 'gt', 'gte', 'in'];

/** Splits `a,"b,c",d` into its items, honouring double quotes and backslash escapes. */
function splitList(inner: string): string[] {
  const out: string[] = [];
  let cur = '';
  let quoted = false;
  for (let i = 0; i < inner.length; i++) {
    const ch = inner[i]!;
    if (quoted) {
      if (ch === '\\' && i + 1 < inner.length) cur += inner[++i];
      else if (ch === '"') quoted = false;
      else cur += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      out.push(cur.trim());
      cur = '';
    } else cur += ch;
  }
  if (quoted) throw new Error('unterminated quote');
  out.push(cur.trim());
  return out;
}

/** Parses a filter as realtime-js sends it; throws with a short reason when malformed. */
export function parseFilter(text: string): Filter {
  const eq = text.indexOf('=');
  if (eq <= 0) throw new Error(`invalid filter "${text}"`);
  const column = text.slice(0, eq).trim();
  const rest = text.slice(eq + 1);
  const dot = rest.indexOf('.');
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(column) || dot <= 0) throw new Error(`invalid filter "${text}"`);
  const op = rest.slice(0, dot) as FilterOp;
  if (!OPS.includes(op)) throw new Error(`unsupported operator "${rest.slice(0, dot)}"`);
  const value = rest.slice(dot + 1);
  if (op === 'in') {
    const m = /^\((.*)\)$/s.exec(value);
    if (!m) throw new Error(`invalid list in filter "${text}"`);
    const values = splitList(m[1]!);
    if (values.length > 100) throw new Error('too many values in filter');
    return { column, op, values };
  }
  return { column, op, values: [value] };
}

function asText(v: unknown): string | null {
  if (v === null || v === undefined) return null;
  if (typeof v === 'object') return JSON.stringify(v);
  return String(v);
}

function compare(a: unknown, b: string): number | null {
  const text = asText(a);
  if (text === null) return null;
  const na = Number(text);
  const nb = Number(b);
  if (text.trim() !== '' && b.trim() !== '' && Number.isFinite(na) && Number.isFinite(nb)) return na - nb;
  const ta = Date.parse(text);
  const tb = Date.parse(b);
  if (/^\d{4}-\d{2}-\d{2}/.test(text) && Number.isFinite(ta) && Number.isFinite(tb)) return ta - tb;
  return text < b ? -1 : text > b ? 1 : 0;
}

/** True when the row passes the filter; a column the row lacks never matches (as Realtime does). */
export function matchesFilter(filter: Filter, row: Record<string, unknown>): boolean {
  if (!(filter.column in row)) return false;
  const value = row[filter.column];
  if (filter.op === 'in') {
    return filter.values.some((v) => compare(value, v) === 0);
  }
  const c = compare(value, filter.values[0]!);
  if (c === null) return false;
  switch (filter.op) {
    case 'eq':
      return c === 0;
    case 'neq':
      return c !== 0;
    case 'lt':
      return c < 0;
    case 'lte':
      return c <= 0;
    case 'gt':
      return c > 0;
    case 'gte':
      return c >= 0;
  }
  return false;
}
