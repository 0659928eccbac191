/**
 * Parser for PostgREST's query-string grammar: `select`, filters, `or`/`and` trees,
 * `order`, `limit`/`offset`, `columns`, `on_conflict` and the `Prefer` header.
 * It produces plain data; nothing here touches SQL.
 */
import { RestError, syntaxError } from './errors.ts';

/** Deepest nesting accepted for embeds and logic trees. */
export const MAX_DEPTH = 12;
/**
 * Deepest embedding accepted (`a(b(c(d(*))))` is 4): every level multiplies the rows one
 * request can build, so deeper requests are refused before they reach the database.
 */
export const MAX_EMBED_DEPTH = 4;
/** Most items accepted in an `in.(…)` list or a logic tree. */
export const MAX_LIST = 2000;

export interface ColumnRef {
  name: string;
  /** JSON path after the column: `->'a'` / `->>'b'`. */
  jsonPath: Array<{ arrow: '->' | '->>'; key: string }>;
}

export interface SelectColumn {
  kind: 'column';
  alias?: string;
  column: ColumnRef;
  cast?: string;
}

export interface SelectStar {
  kind: 'star';
}

export interface SelectEmbed {
  kind: 'embed';
  alias?: string;
  relation: string;
  hint?: string;
  inner: boolean;
  spread: boolean;
  items: SelectItem[];
}

export type SelectItem = SelectColumn | SelectStar | SelectEmbed;

export const OPERATORS = new Set([
  'eq',
  'neq',
  'gt',
  'gte',
  'lt',
  'lte',
  'like',
  'ilike',
  'match',
  'imatch',
  'in',
  'is',
  'isdistinct',
  'fts',
  'plfts',
  'phfts',
  'wfts',
  'cs',
  'cd',
  'ov',
  'sl',
  'sr',
  'nxr',
  'nxl',
  'adj',
]);

export interface FilterNode {
  kind: 'filter';
  column: ColumnRef;
  op: string;
  negate: boolean;
  /** `like(any)` / `eq(all)` modifiers, with a `{a,b}` value list. */
  quantifier?: 'any' | 'all';
  /** Text-search configuration, `fts(english)`. */
  config?: string;
  value: string;
}

export interface LogicNode {
  kind: 'logic';
  op: 'and' | 'or';
  negate: boolean;
  children: Condition[];
}

export type Condition = FilterNode | LogicNode;

export interface OrderTerm {
  column: ColumnRef;
  desc: boolean;
  nulls?: 'first' | 'last';
}

const IDENT_CHARS = /^[^\s,().:"'`;\\*!]+$/;

/** A bare identifier as PostgREST accepts it; quoting happens later. */
function checkIdent(name: string, what: string): string {
  if (name.length === 0 || name.length > 63 || !IDENT_CHARS.test(name) || name.includes('->')) {
    throw syntaxError(`"failed to parse ${what}"`, `Unexpected identifier: ${name.slice(0, 80)}`);
  }
  return name;
}

/** Splits on commas that are not inside parentheses or double quotes. */
export function splitTopLevel(text: string, sep = ','): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quoted = false;
  let current = '';
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      current += ch;
      if (ch === '\\' && i + 1 < text.length) {
        current += text[++i];
      } else if (ch === '"') quoted = false;
      continue;
    }
    if (ch === '"') quoted = true;
    else if (ch === '(') depth++;
    else if (ch === ')') {
      depth--;
      if (depth < 0) throw syntaxError('"failed to parse" unbalanced parentheses', text.slice(0, 120));
    } else if (ch === sep && depth === 0) {
      parts.push(current);
      current = '';
      continue;
    }
    current += ch;
  }
  if (quoted || depth !== 0) throw syntaxError('"failed to parse" unbalanced quotes or parentheses', text.slice(0, 120));
  parts.push(current);
  if (parts.length > MAX_LIST) throw syntaxError('Too many items', `More than ${MAX_LIST} items`);
  return parts;
}

/** Removes surrounding double quotes and backslash escapes from one list value. */
export function unquote(value: string): string {
  const v = value.trim();
  if (v.length >= 2 && v.startsWith('"') && v.endsWith('"')) {
    return v.slice(1, -1).replace(/\\(.)/g, '$1');
  }
  return v;
}

/** Parses `col`, `col->a->>b` into a column reference. */
export function parseColumnRef(text: string): ColumnRef {
  const parts = text.split(/(->>|->)/);
  const name = checkIdent(parts[0]!.trim(), 'column');
  const jsonPath: ColumnRef['jsonPath'] = [];
  for (let i = 1; i < parts.length; i += 2) {
    const arrow = parts[i] as '->' | '->>';
    const key = parts[i + 1] ?? '';
    if (key === '' || /[(),"]/.test(key)) throw syntaxError('"failed to parse json path"', text.slice(0, 120));
    jsonPath.push({ arrow, key });
  }
  if (jsonPath.length > MAX_DEPTH) throw syntaxError('JSON path too deep');
  return { name, jsonPath };
}

const CASTS = new Set([
  'text',
  'varchar',
  'int',
  'int2',
  'int4',
  'int8',
  'integer',
  'smallint',
  'bigint',
  'numeric',
  'float4',
  'float8',
  'real',
  'double precision',
  'boolean',
  'bool',
  'date',
  'time',
  'timestamp',
  'timestamptz',
  'json',
  'jsonb',
  'uuid',
]);

/** Parses a `select` value into items. */
export function parseSelect(text: string | null, depth = 0): SelectItem[] {
  if (depth > MAX_DEPTH) throw syntaxError('"failed to parse select parameter"', 'Embedding is nested too deeply');
  if (text === null || text.trim() === '') return [{ kind: 'star' }];
  const items: SelectItem[] = [];
  for (const rawItem of splitTopLevel(text)) {
    const raw = rawItem.trim();
    if (raw === '') throw syntaxError('"failed to parse select parameter"', `Empty item in (${text.slice(0, 120)})`);
    if (raw === '*') {
      items.push({ kind: 'star' });
      continue;
    }
    const open = raw.indexOf('(');
    if (open >= 0) {
      if (!raw.endsWith(')')) throw syntaxError('"failed to parse select parameter"', raw.slice(0, 120));
      let head = raw.slice(0, open).trim();
      const inside = raw.slice(open + 1, -1);
      let spread = false;
      if (head.startsWith('...')) {
        spread = true;
        head = head.slice(3);
      }
      let alias: string | undefined;
      const colon = head.indexOf(':');
      if (colon >= 0) {
        alias = checkIdent(head.slice(0, colon).trim(), 'select alias');
        head = head.slice(colon + 1).trim();
      }
      const [relation, ...hints] = head.split('!');
      let inner = false;
      let hint: string | undefined;
      for (const h of hints) {
        if (h === 'inner') inner = true;
        else if (h === 'left') inner = false;
        else hint = checkIdent(h, 'embed hint');
      }
      if (depth + 1 > MAX_EMBED_DEPTH) {
        throw new RestError(
          400,
          'PGRST100',
          '"failed to parse select parameter"',
          `Embedding is nested too deeply: at most ${MAX_EMBED_DEPTH} levels of embedded resources are allowed`,
          'Split the request into several requests with fewer nested embeds.',
        );
      }
      // Aggregates like count() are not supported: say so clearly.
      if (inside.trim() === '' && /^(count|sum|avg|min|max)$/.test(relation ?? '')) {
        throw syntaxError('"failed to parse select parameter"', 'Aggregate functions are not supported');
      }
      items.push({
        kind: 'embed',
        alias,
        relation: checkIdent(relation ?? '', 'embedded resource'),
        hint,
        inner,
        spread,
        items: parseSelect(inside, depth + 1),
      });
      continue;
    }
    let head = raw;
    let alias: string | undefined;
    const colon = head.search(/:(?!:)/);
    if (colon > 0 && head[colon - 1] !== ':') {
      alias = checkIdent(head.slice(0, colon).trim(), 'select alias');
      head = head.slice(colon + 1).trim();
    }
    let cast: string | undefined;
    const castAt = head.indexOf('::');
    if (castAt >= 0) {
      cast = head
        .slice(castAt + 2)
        .trim()
        .toLowerCase();
      head = head.slice(0, castAt).trim();
      if (!CASTS.has(cast)) throw syntaxError('"failed to parse select parameter"', `Unsupported cast: ${cast.slice(0, 40)}`);
    }
    items.push({ kind: 'column', alias, column: parseColumnRef(head), cast });
  }
  return items;
}

/** Parses `op.value` (with optional `not.`) as the right-hand side of `col=…`. */
export function parseFilterValue(column: ColumnRef, text: string): FilterNode {
  let rest = text;
  let negate = false;
  if (rest.startsWith('not.')) {
    negate = true;
    rest = rest.slice(4);
  }
  const dot = rest.indexOf('.');
  if (dot < 0) throw syntaxError(`"failed to parse filter (${text.slice(0, 80)})"`, 'Expected operator.value');
  const opText = rest.slice(0, dot);
  const value = rest.slice(dot + 1);
  const m = /^([a-z]+)(?:\(([a-z_]+)\))?$/.exec(opText);
  if (!m || !OPERATORS.has(m[1]!)) throw syntaxError(`"failed to parse filter (${text.slice(0, 80)})"`, `Unknown operator: ${opText.slice(0, 40)}`);
  const op = m[1]!;
  const node: FilterNode = { kind: 'filter', column, op, negate, value };
  if (m[2]) {
    if (m[2] === 'any' || m[2] === 'all') {
      if (!['eq', 'neq', 'gt', 'gte', 'lt', 'lte', 'like', 'ilike', 'match', 'imatch'].includes(op)) {
        throw syntaxError(`"failed to parse filter (${text.slice(0, 80)})"`, 'Quantifier not allowed here');
      }
      node.quantifier = m[2];
    } else if (op === 'fts' || op === 'plfts' || op === 'phfts' || op === 'wfts') {
      node.config = m[2];
    } else {
      throw syntaxError(`"failed to parse filter (${text.slice(0, 80)})"`, `Unknown modifier: ${m[2]}`);
    }
  }
  if (op === 'is' && !['null', 'not_null', 'true', 'false', 'unknown'].includes(value.toLowerCase())) {
    throw syntaxError(`"failed to parse filter (${text.slice(0, 80)})"`, 'is accepts null, not_null, true, false or unknown');
  }
  if (op === 'in') parseList(value);
  return node;
}

/** Parses `(a,"b,c",d)` into values. */
export function parseList(text: string): string[] {
  const t = text.trim();
  if (!t.startsWith('(') || !t.endsWith(')')) throw syntaxError('"failed to parse filter"', 'in. expects a list in parentheses');
  const inner = t.slice(1, -1);
  if (inner.trim() === '') return [];
  return splitTopLevel(inner).map(unquote);
}

/** Parses `{a,b}` (the quantifier list form). */
export function parseBraceList(text: string): string[] {
  const t = text.trim();
  if (!t.startsWith('{') || !t.endsWith('}')) throw syntaxError('"failed to parse filter"', 'Expected a {…} list');
  const inner = t.slice(1, -1);
  if (inner.trim() === '') return [];
  return splitTopLevel(inner).map(unquote);
}

/** Parses the inside of `or=(…)` / `and=(…)`. */
export function parseLogic(op: 'and' | 'or', negate: boolean, text: string, depth = 0): LogicNode {
  if (depth > MAX_DEPTH) throw syntaxError('"failed to parse logic tree"', 'Logic tree is nested too deeply');
  const t = text.trim();
  if (!t.startsWith('(') || !t.endsWith(')')) throw syntaxError(`"failed to parse logic tree (${t.slice(0, 80)})"`, 'Expected (…)');
  const inner = t.slice(1, -1);
  const children: Condition[] = [];
  for (const partRaw of splitTopLevel(inner)) {
    const part = partRaw.trim();
    const logic = /^(not\.)?(and|or)\(/.exec(part);
    if (logic) {
      children.push(parseLogic(logic[2] as 'and' | 'or', Boolean(logic[1]), part.slice(logic[0].length - 1), depth + 1));
      continue;
    }
    // col.op.value, where col may hold a JSON path with arrows but no dots.
    const dot = part.indexOf('.');
    if (dot <= 0) throw syntaxError(`"failed to parse logic tree (${t.slice(0, 80)})"`, `Bad condition: ${part.slice(0, 80)}`);
    const column = parseColumnRef(part.slice(0, dot));
    const filter = parseFilterValue(column, part.slice(dot + 1));
    // Values inside a logic tree may be double-quoted to protect commas and parentheses.
    if (filter.op !== 'in' && filter.value.startsWith('"')) filter.value = unquote(filter.value);
    children.push(filter);
  }
  if (children.length === 0) throw syntaxError('"failed to parse logic tree"', 'Empty logic tree');
  return { kind: 'logic', op, negate, children };
}

/** Parses `order=a.desc.nullslast,b`. */
export function parseOrder(text: string): OrderTerm[] {
  return splitTopLevel(text).map((raw) => {
    const parts = raw.trim().split('.');
    const term: OrderTerm = { column: parseColumnRef(parts[0] ?? ''), desc: false };
    for (const p of parts.slice(1)) {
      if (p === 'asc') term.desc = false;
      else if (p === 'desc') term.desc = true;
      else if (p === 'nullsfirst') term.nulls = 'first';
      else if (p === 'nullslast') term.nulls = 'last';
      else throw syntaxError(`"failed to parse order (${text.slice(0, 80)})"`, `Unexpected: ${p.slice(0, 40)}`);
    }
    return term;
  });
}

/** Parses a non-negative integer parameter (`limit`, `offset`). */
export function parseNonNegativeInt(value: string, name: string): number {
  if (!/^\d{1,15}$/.test(value.trim())) throw syntaxError(`"failed to parse ${name}"`, `${name} must be a non-negative integer`);
  return Number(value.trim());
}

/** Parses `columns="a","b"` (or a,b). */
export function parseColumnsParam(text: string): string[] {
  return splitTopLevel(text).map((c) => checkIdent(unquote(c), 'columns'));
}
