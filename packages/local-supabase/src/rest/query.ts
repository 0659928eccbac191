/**
 * A REST request's query string as one parsed value: the select list, the filters, order, limit and
 * offset per embed path, `columns`, `on_conflict` and, for GET rpc, the function's arguments.
 */
import type { IncomingMessage } from 'node:http';
import { RestError } from './errors.ts';
import { parseColumnRef, parseColumnsParam, parseFilterValue, parseLogic, parseNonNegativeInt, parseOrder, parseSelect, type SelectItem } from './parse.ts';
import { modsFor, type Builder, type ModsByPath } from './sql.ts';

const MODIFIER_KEYS = new Set(['order', 'limit', 'offset', 'or', 'and', 'not.or', 'not.and']);
const RESERVED = new Set(['select', 'columns', 'on_conflict']);

/** Splits `order_items.quantity` into the embed path and the column, ignoring dots inside JSON paths. */
function splitKey(key: string): { path: string; last: string } {
  const arrow = key.indexOf('->');
  const head = arrow >= 0 ? key.slice(0, arrow) : key;
  for (const m of ['not.or', 'not.and']) {
    if (head === m) return { path: '', last: m };
    if (head.endsWith('.' + m)) return { path: head.slice(0, -(m.length + 1)), last: m };
  }
  const dot = head.lastIndexOf('.');
  if (dot < 0) return { path: '', last: key };
  return { path: key.slice(0, dot), last: key.slice(dot + 1) };
}

export interface ParsedQuery {
  select: SelectItem[];
  mods: ModsByPath;
  columns?: string[];
  onConflict?: string[];
  /** Query parameters left over for RPC arguments (GET/HEAD rpc). */
  rpcArgs: Map<string, string>;
  /** Most rows a read returns, top level and per to-many embed (db-max-rows). */
  maxRows: number;
}

export function parseQuery(url: URL, rpcArgNames: Set<string> | null, maxRows: number): ParsedQuery {
  const mods: ModsByPath = new Map();
  modsFor(mods, '');
  const out: ParsedQuery = { select: [{ kind: 'star' }], mods, rpcArgs: new Map(), maxRows };
  for (const [key, value] of url.searchParams) {
    if (key === 'select') {
      out.select = parseSelect(value);
      continue;
    }
    if (key === 'columns') {
      out.columns = parseColumnsParam(value);
      continue;
    }
    if (key === 'on_conflict') {
      out.onConflict = parseColumnsParam(value);
      continue;
    }
    if (rpcArgNames?.has(key)) {
      out.rpcArgs.set(key, value);
      continue;
    }
    const { path, last } = splitKey(key);
    if (MODIFIER_KEYS.has(last)) {
      const m = modsFor(mods, path);
      if (last === 'order') m.order = parseOrder(value);
      else if (last === 'limit') m.limit = parseNonNegativeInt(value, 'limit');
      else if (last === 'offset') m.offset = parseNonNegativeInt(value, 'offset');
      else {
        const negate = last.startsWith('not.');
        const op = (negate ? last.slice(4) : last) as 'and' | 'or';
        m.conditions.push(parseLogic(op, negate, value));
      }
      continue;
    }
    if (RESERVED.has(key)) continue;
    const column = parseColumnRef(last);
    modsFor(mods, path).conditions.push(parseFilterValue(column, value));
  }
  return out;
}

/** Applies a `Range: 0-9` header on top of limit/offset. */
export function applyRangeHeader(req: IncomingMessage, mods: ModsByPath): void {
  const range = req.headers.range;
  if (typeof range !== 'string') return;
  const unit = req.headers['range-unit'];
  if (unit !== undefined && unit !== 'items') return;
  const m = /^(?:items=)?(\d{1,15})-(\d{0,15})$/.exec(range.trim());
  if (!m) return;
  const from = Number(m[1]);
  const to = m[2] === '' ? undefined : Number(m[2]);
  if (to !== undefined && to < from) {
    throw new RestError(416, 'PGRST103', 'Requested range not satisfiable', 'The lower boundary must be lower than or equal to the upper boundary');
  }
  const top = modsFor(mods, '');
  const offset = (top.offset ?? 0) + from;
  top.offset = offset;
  if (to !== undefined) {
    const size = to - from + 1;
    top.limit = top.limit === undefined ? size : Math.min(top.limit, size);
  }
}

/** Refuses filters and modifiers on an embed path the select list does not embed (PGRST108). */
export function checkUsedPaths(mods: ModsByPath, builder: Builder): void {
  for (const [path, m] of mods) {
    const used = m.conditions.length > 0 || m.order || m.limit !== undefined || m.offset !== undefined;
    if (used && !builder.usedPaths.has(path)) {
      throw new RestError(
        400,
        'PGRST108',
        `'${path}' is not an embedded resource in this request`,
        null,
        `Verify that '${path}' is included in the 'select' query parameter.`,
      );
    }
  }
}
