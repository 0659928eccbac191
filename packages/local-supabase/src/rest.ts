/**
 * PostgREST-compatible `/rest/v1`: reads, writes and RPC for supabase-js. Each request is
 * one transaction as the JWT's role with its claims set, so the migrations' grants and
 * row-level security decide what the caller may see and change.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { decodeJwt, jwtVerify } from 'jose';
import type { Role, Tx } from './db.ts';
import { callerFromRequest, corsHeaders, HttpError, readBody, type Caller } from './http.ts';
import { fromPgError, isPgError, RestError, syntaxError } from './rest/errors.ts';
import {
  parseColumnRef,
  parseColumnsParam,
  parseFilterValue,
  parseLogic,
  parseNonNegativeInt,
  parseOrder,
  parsePrefer,
  parseSelect,
  type Prefer,
  type SelectItem,
} from './rest/parse.ts';
import { loadSchema, refreshIfStale, type FunctionDef, type Schema, type Table } from './rest/schema.ts';
import {
  Builder,
  capRows,
  countSql,
  deleteSql,
  insertSql,
  modsFor,
  Params,
  READ_ONLY_SQL,
  readSql,
  representationSql,
  rpcFrom,
  rpcScalarSql,
  rpcVoidSql,
  tableFrom,
  updateSql,
  type ModsByPath,
} from './rest/sql.ts';
import { InvalidIdentifierError } from './sql.ts';
import type { Handler, StackContext } from './types.ts';

const OBJECT_MEDIA = 'application/vnd.pgrst.object+json';
const MODIFIER_KEYS = new Set(['order', 'limit', 'offset', 'or', 'and', 'not.or', 'not.and']);
const RESERVED = new Set(['select', 'columns', 'on_conflict']);
/** Longest query string accepted; PostgREST sits behind proxies with similar limits. */
const MAX_QUERY_LENGTH = 64 * 1024;

interface Reply {
  status: number;
  /** JSON text, or undefined for an empty body. */
  body?: string;
  headers?: Record<string, string>;
}

/** Carries the response out of a transaction that must roll back (Prefer: tx=rollback). */
class RollbackWith extends Error {
  constructor(readonly reply: Reply) {
    super('rollback');
  }
}

function send(req: IncomingMessage, res: ServerResponse, reply: Reply, objectMode = false): void {
  if (res.headersSent) return;
  const headers: Record<string, string> = { ...corsHeaders(), ...(reply.headers ?? {}) };
  if (reply.body !== undefined) {
    headers['content-type'] = `${objectMode ? OBJECT_MEDIA : 'application/json'}; charset=utf-8`;
  }
  res.writeHead(reply.status, headers);
  res.end(req.method === 'HEAD' ? undefined : reply.body);
}

function sendError(req: IncomingMessage, res: ServerResponse, err: RestError): void {
  send(req, res, { status: err.status, body: JSON.stringify(err.toBody()), headers: err.headers });
}

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

interface ParsedQuery {
  select: SelectItem[];
  mods: ModsByPath;
  columns?: string[];
  onConflict?: string[];
  /** Query parameters left over for RPC arguments (GET/HEAD rpc). */
  rpcArgs: Map<string, string>;
  /** Most rows a read returns, top level and per to-many embed (db-max-rows). */
  maxRows: number;
}

function parseQuery(url: URL, rpcArgNames: Set<string> | null, maxRows: number): ParsedQuery {
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
function applyRangeHeader(req: IncomingMessage, mods: ModsByPath): void {
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

function checkUsedPaths(mods: ModsByPath, builder: Builder): void {
  for (const [path, m] of mods) {
    const used = m.conditions.length > 0 || m.order || m.limit !== undefined || m.offset !== undefined;
    if (used && !builder.usedPaths.has(path)) {
      throw new RestError(400, 'PGRST108', `'${path}' is not an embedded resource in this request`, null, `Verify that '${path}' is included in the 'select' query parameter.`);
    }
  }
}

function contentRange(offset: number, n: number, total: number | undefined): string {
  const t = total === undefined ? '*' : String(total);
  return n > 0 ? `${offset}-${offset + n - 1}/${t}` : `*/${t}`;
}

function notSingular(n: number): RestError {
  return new RestError(406, 'PGRST116', 'Cannot coerce the result to a single JSON object', `The result contains ${n} rows`, null);
}

/** Unwraps a JSON array text to its only element (object Accept). */
function singleBody(body: string, n: number): string {
  if (n !== 1) throw notSingular(n);
  const arr = JSON.parse(body) as unknown[];
  return JSON.stringify(arr[0]);
}

async function findTable(ctx: StackContext, schema: Schema, name: string): Promise<{ schema: Schema; table: Table }> {
  let table = schema.tables.get(name);
  if (!table) {
    schema = await refreshIfStale(ctx.db, schema);
    table = schema.tables.get(name);
  }
  if (!table) {
    throw new RestError(404, 'PGRST205', `Could not find the table 'public.${name}' in the schema cache`, null, null);
  }
  return { schema, table };
}

interface ReadSpec {
  /** FROM clause builder (fresh params each time: the count query is separate). */
  from: (b: Builder) => string;
  table: Table | null;
  alias: string;
}

/** SELECT of the JSON array body (and optionally the exact count). */
async function runRead(tx: Tx, schema: Schema, q: ParsedQuery, spec: ReadSpec, wantCount: boolean): Promise<{ body: string; n: number; total?: number }> {
  const top = q.mods.get('')!;
  const b = new Builder(schema, new Params(), q.mods, q.maxRows);
  const list = b.selectList(spec.table, spec.alias, '', q.select);
  const from = spec.from(b);
  const where = b.whereParts(spec.table, spec.alias, '', q.select);
  const order = b.orderSql(spec.table, spec.alias, top.order);
  // Like PostgREST's db-max-rows: a read never builds more than maxRows rows, whatever it asks for;
  // with count=exact the Content-Range still reports the full count, so clients can page.
  const page = b.pageSql(capRows(top.limit, q.maxRows), top.offset);
  checkUsedPaths(q.mods, b);
  const r = await tx.query<{ body: string; n: number }>(readSql(list, from, where, order, page), b.params.values);
  const row = r.rows[0]!;
  let total: number | undefined;
  if (wantCount) {
    const cb = new Builder(schema, new Params(), q.mods, q.maxRows);
    const cfrom = spec.from(cb);
    const cwhere = cb.whereParts(spec.table, spec.alias, '', q.select);
    const c = await tx.query<{ n: number }>(countSql(cfrom, cwhere), cb.params.values);
    total = c.rows[0]!.n;
  }
  return { body: row.body, n: Number(row.n), total };
}

function readReply(req: IncomingMessage, result: { body: string; n: number; total?: number }, offset: number, objectMode: boolean): Reply {
  const { n, total } = result;
  if (objectMode) {
    return { status: 200, body: singleBody(result.body, n), headers: { 'content-range': contentRange(offset, n, total) } };
  }
  if (total !== undefined && offset > 0 && offset >= total && n === 0 && total > 0) {
    throw new RestError(416, 'PGRST103', 'Requested range not satisfiable', `An offset of ${offset} was requested, but there are only ${total} rows.`, null, {
      'content-range': `*/${total}`,
    });
  }
  const partial = total !== undefined && (offset > 0 || n < total);
  return { status: partial ? 206 : 200, body: result.body, headers: { 'content-range': contentRange(offset, n, total) } };
}

/** Validates a body for insert: one object or an array of objects. */
function rowsFromBody(raw: Buffer): Record<string, unknown>[] {
  let data: unknown;
  try {
    data = raw.length === 0 ? undefined : JSON.parse(raw.toString('utf8'));
  } catch {
    throw new RestError(400, 'PGRST102', 'Empty or invalid json', null, null);
  }
  const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
  if (isObject(data)) return [data];
  if (Array.isArray(data) && data.every(isObject)) return data;
  throw new RestError(400, 'PGRST102', 'Empty or invalid json', 'The body must be a JSON object or an array of objects', null);
}

function checkColumns(table: Table, names: string[]): void {
  for (const c of names) {
    if (!table.columns.has(c)) {
      throw new RestError(400, 'PGRST204', `Could not find the '${c}' column of '${table.name}' in the schema cache`, null, null);
    }
  }
}

function representation(prefer: Prefer): boolean {
  return prefer.returnMode === 'representation';
}

async function mutate(
  tx: Tx,
  schema: Schema,
  table: Table,
  q: ParsedQuery,
  prefer: Prefer,
  statement: (b: Builder, returning: string) => string,
  objectMode: boolean,
): Promise<{ body?: string; n: number }> {
  const top = q.mods.get('')!;
  if (representation(prefer) || objectMode) {
    const b = new Builder(schema, new Params(), q.mods, q.maxRows);
    const stmt = statement(b, ' returning *');
    const list = b.selectList(table, 't0', '', q.select);
    const order = b.orderSql(table, 't0', top.order);
    checkUsedPaths(q.mods, b);
    const r = await tx.query<{ body: string; n: number }>(representationSql(stmt, list, order), b.params.values);
    const row = r.rows[0]!;
    if (prefer.maxAffected !== undefined && prefer.strict && row.n > prefer.maxAffected) throw maxAffectedError(row.n);
    return { body: representation(prefer) ? row.body : undefined, n: Number(row.n) };
  }
  const b = new Builder(schema, new Params(), q.mods, q.maxRows);
  const r = await tx.query(statement(b, ''), b.params.values);
  const n = r.affectedRows ?? 0;
  if (prefer.maxAffected !== undefined && prefer.strict && n > prefer.maxAffected) throw maxAffectedError(n);
  return { n };
}

function maxAffectedError(n: number): RestError {
  return new RestError(400, 'PGRST124', 'Query result exceeds max-affected preference constraint', `The query affects ${n} rows`, null);
}

function pickFunction(schema: Schema, name: string, keys: string[]): FunctionDef {
  const overloads = schema.functions.get(name) ?? [];
  const candidates = overloads.filter((f) => {
    if (f.args.length === 1 && f.args[0]!.name === '' && (f.args[0]!.type === 'json' || f.args[0]!.type === 'jsonb')) return true;
    if (f.args.some((a) => a.name === '')) return false;
    const names = new Set(f.args.map((a) => a.name));
    return keys.every((k) => names.has(k)) && f.args.every((a) => a.hasDefault || keys.includes(a.name));
  });
  if (candidates.length === 0) {
    throw new RestError(
      404,
      'PGRST202',
      `Could not find the function public.${name}(${keys.join(', ')}) in the schema cache`,
      `Searched for the function public.${name} with parameters ${keys.join(', ') || 'none'} or with a single unnamed json/jsonb parameter, but no matches were found in the schema cache.`,
      null,
    );
  }
  // Prefer the overload that uses the most of the given arguments.
  candidates.sort((a, b) => b.args.length - a.args.length);
  return candidates[0]!;
}

async function handleRpc(
  req: IncomingMessage,
  tx: Tx,
  schema: Schema,
  fn: FunctionDef,
  args: Record<string, unknown>,
  q: ParsedQuery,
  prefer: Prefer,
  objectMode: boolean,
): Promise<Reply> {
  if (fn.returnKind === 'void') {
    const b = new Builder(schema, new Params(), q.mods, q.maxRows);
    await tx.query(rpcVoidSql(rpcFrom(fn, args, b.params, 't0', false)), b.params.values);
    return { status: 204 };
  }
  if (fn.returnKind === 'scalar' && !fn.returnsSet) {
    const b = new Builder(schema, new Params(), q.mods, q.maxRows);
    const r = await tx.query<{ body: string | null }>(rpcScalarSql(fn, 't0', rpcFrom(fn, args, b.params, 't0', true)), b.params.values);
    return { status: 200, body: r.rows[0]?.body ?? 'null' };
  }
  const table = schema.tables.get(fn.returnType.replace(/^public\./, '').replace(/^"|"$/g, '')) ?? null;
  const scalarSet = fn.returnKind === 'scalar';
  const top = q.mods.get('')!;
  const result = await runRead(
    tx,
    schema,
    scalarSet ? { ...q, select: [{ kind: 'column', column: { name: fn.name, jsonPath: [] } }] } : q,
    { from: (b) => rpcFrom(fn, args, b.params, 't0', scalarSet), table, alias: 't0' },
    prefer.count !== undefined,
  );
  if (scalarSet) {
    const values = (JSON.parse(result.body) as Array<Record<string, unknown>>).map((r) => r[fn.name]);
    return { status: 200, body: JSON.stringify(values) };
  }
  if (!fn.returnsSet) {
    // A single composite comes back as an object, as PostgREST does.
    const rows = JSON.parse(result.body) as unknown[];
    return { status: 200, body: JSON.stringify(rows[0] ?? null) };
  }
  return readReply(req, result, top.offset ?? 0, objectMode);
}

async function handle(req: IncomingMessage, res: ServerResponse, path: string, url: URL, ctx: StackContext, caller: Caller): Promise<void> {
  const method = req.method ?? 'GET';
  const readOnly = method === 'GET' || method === 'HEAD';
  const profile = readOnly ? req.headers['accept-profile'] : req.headers['content-profile'];
  if (profile !== undefined && profile !== 'public') {
    throw new RestError(406, 'PGRST106', 'Invalid schema: ' + String(profile).slice(0, 80), null, 'Only the following schemas are exposed: public');
  }
  if ((req.url ?? '').length > MAX_QUERY_LENGTH) throw new RestError(414, 'PGRST100', 'URI too long');
  const accept = String(req.headers.accept ?? '');
  const objectMode = accept.includes(OBJECT_MEDIA);
  const prefer = parsePrefer(req.headers.prefer);

  let segments: string[];
  try {
    segments = path.split('/').filter(Boolean).map((s) => decodeURIComponent(s));
  } catch {
    throw syntaxError('Invalid path encoding');
  }
  let schema = await loadSchema(ctx.db);
  const role: Role = caller.role;
  const claims = caller.claims as Record<string, unknown>;

  if (segments.length === 2 && segments[0] === 'rpc') {
    const name = segments[1]!;
    if (!schema.functions.has(name)) schema = await refreshIfStale(ctx.db, schema);
    if (!['GET', 'HEAD', 'POST'].includes(method)) throw new RestError(405, 'PGRST101', 'Only GET, HEAD and POST are allowed for functions');
    let args: Record<string, unknown> = {};
    let q: ParsedQuery;
    if (readOnly) {
      const allNames = new Set((schema.functions.get(name) ?? []).flatMap((f) => f.args.map((a) => a.name)));
      q = parseQuery(url, allNames, ctx.config.maxRows);
      args = Object.fromEntries(q.rpcArgs);
    } else {
      q = parseQuery(url, null, ctx.config.maxRows);
      const raw = await readBody(req);
      if (raw.length > 0) {
        let data: unknown;
        try {
          data = JSON.parse(raw.toString('utf8'));
        } catch {
          throw new RestError(400, 'PGRST102', 'Empty or invalid json', null, null);
        }
        if (typeof data !== 'object' || data === null || Array.isArray(data)) {
          throw new RestError(400, 'PGRST102', 'Empty or invalid json', 'Function arguments must be a JSON object', null);
        }
        args = data as Record<string, unknown>;
      }
    }
    const fn = pickFunction(schema, name, Object.keys(args));
    applyRangeHeader(req, q.mods);
    const reply = await runTx(ctx, role, claims, readOnly, prefer, (tx) => handleRpc(req, tx, schema, fn, args, q, prefer, objectMode));
    send(req, res, reply, objectMode && fn.returnsSet);
    return;
  }

  if (segments.length !== 1) {
    throw new RestError(404, 'PGRST125', `Invalid path specified in request URL`, null, null);
  }
  const found = await findTable(ctx, schema, segments[0]!);
  schema = found.schema;
  const table = found.table;

  if (readOnly) {
    const q = parseQuery(url, null, ctx.config.maxRows);
    applyRangeHeader(req, q.mods);
    const offset = q.mods.get('')!.offset ?? 0;
    const reply = await runTx(ctx, role, claims, true, prefer, async (tx) => {
      const result = await runRead(tx, schema, q, { from: () => tableFrom(table.name, 't0'), table, alias: 't0' }, prefer.count !== undefined);
      return readReply(req, result, offset, objectMode);
    });
    send(req, res, reply, objectMode);
    return;
  }

  if (method === 'POST') {
    const q = parseQuery(url, null, ctx.config.maxRows);
    const rows = rowsFromBody(await readBody(req));
    if (rows.length > ctx.config.maxRows) {
      throw new RestError(
        413,
        'PGRST413',
        'Too many rows in one request',
        `The body holds ${rows.length} rows; at most ${ctx.config.maxRows} are accepted per request`,
        `Send the rows in batches of at most ${ctx.config.maxRows}.`,
      );
    }
    const columns = q.columns ?? [...new Set(rows.flatMap((r) => Object.keys(r)))];
    checkColumns(table, columns);
    const onConflict = q.onConflict ?? table.primaryKey;
    if (q.onConflict) checkColumns(table, q.onConflict);
    if (prefer.resolution && onConflict.length === 0) {
      throw new RestError(400, 'PGRST105', 'Upsert needs a primary key or on_conflict', null, null);
    }
    const statement = (b: Builder, returning: string) =>
      insertSql(b.params, table.name, columns, rows, onConflict, prefer.resolution, returning);
    const reply = await runTx(ctx, role, claims, false, prefer, async (tx) => {
      const r = await mutate(tx, schema, table, q, prefer, statement, objectMode);
      if (objectMode && r.n !== 1) throw notSingular(r.n);
      const body = r.body !== undefined && objectMode ? singleBody(r.body, r.n) : r.body;
      return { status: 201, body, headers: { 'content-range': body !== undefined ? contentRange(0, r.n, undefined) : '*/*' } };
    });
    send(req, res, reply, objectMode);
    return;
  }

  if (method === 'PATCH' || method === 'DELETE') {
    const q = parseQuery(url, null, ctx.config.maxRows);
    let patch: Record<string, unknown> = {};
    if (method === 'PATCH') {
      const rows = rowsFromBody(await readBody(req));
      if (rows.length !== 1) throw new RestError(400, 'PGRST102', 'Empty or invalid json', 'PATCH expects one JSON object', null);
      patch = rows[0]!;
      checkColumns(table, Object.keys(patch));
    } else {
      await readBody(req);
    }
    const keys = Object.keys(patch);
    const statement = (b: Builder, returning: string) => {
      // The filters first: their parameters come before the patch's.
      const where = b.whereParts(table, 't0', '', []);
      return method === 'DELETE'
        ? deleteSql(table.name, where, returning !== '')
        : updateSql(b.params, table.name, patch, where, returning !== '');
    };
    const reply = await runTx(ctx, role, claims, false, prefer, async (tx) => {
      if (method === 'PATCH' && keys.length === 0) {
        // Nothing to change: PostgREST answers without touching rows.
        return representation(prefer) ? { status: 200, body: objectMode ? singleBody('[]', 0) : '[]' } : { status: 204, headers: { 'content-range': '*/*' } };
      }
      const r = await mutate(tx, schema, table, q, prefer, statement, objectMode);
      if (objectMode && r.n !== 1) throw notSingular(r.n);
      if (r.body === undefined) {
        return { status: 204, headers: { 'content-range': method === 'PATCH' && r.n > 0 ? `0-${r.n - 1}/*` : '*/*' } };
      }
      return { status: 200, body: objectMode ? singleBody(r.body, r.n) : r.body, headers: { 'content-range': contentRange(0, r.n, undefined) } };
    });
    send(req, res, reply, objectMode);
    return;
  }

  throw new RestError(405, 'PGRST117', `Unsupported HTTP method: ${method.slice(0, 20)}`, null, null);
}

/** Runs `fn` in one transaction as the caller; read-only for GET/HEAD; rolls back on `tx=rollback`. */
async function runTx(ctx: StackContext, role: Role, claims: Record<string, unknown>, readOnly: boolean, prefer: Prefer, fn: (tx: Tx) => Promise<Reply>): Promise<Reply> {
  try {
    return await ctx.db.asRole(role, claims, async (tx) => {
      if (readOnly) await tx.query(READ_ONLY_SQL);
      const reply = await fn(tx);
      if (prefer.rollback) throw new RollbackWith(reply);
      return reply;
    });
  } catch (err) {
    if (err instanceof RollbackWith) return err.reply;
    throw err;
  }
}

/** Maps anything thrown while answering to a PostgREST-shaped error. */
function toRestError(err: unknown, role: Role): RestError | null {
  if (err instanceof RestError) return err;
  if (err instanceof InvalidIdentifierError) return syntaxError('Invalid identifier');
  if (err instanceof HttpError) {
    const b = err.body;
    return new RestError(err.status, String(b.code ?? err.status), String(b.message ?? 'Error'), (b.details as string | null) ?? null, (b.hint as string | null) ?? null);
  }
  if (isPgError(err)) return fromPgError(err, role);
  return null;
}

/** True when the request's token is correctly signed but past its `exp` (PGRST303, not 301). */
async function isExpiredToken(req: IncomingMessage, secret: string): Promise<boolean> {
  const auth = req.headers.authorization;
  const bearer = typeof auth === 'string' && /^bearer /i.test(auth) ? auth.slice(7).trim() : undefined;
  const token = bearer || (typeof req.headers.apikey === 'string' ? req.headers.apikey : undefined);
  if (!token) return false;
  try {
    const exp = decodeJwt(token).exp;
    if (typeof exp !== 'number' || exp * 1000 > Date.now()) return false;
    await jwtVerify(token, new TextEncoder().encode(secret), { algorithms: ['HS256'], currentDate: new Date((exp - 1) * 1000) });
    return true;
  } catch {
    return false;
  }
}

/** Answers every /rest/v1 request. */
export const handleRest: Handler = async (req, res, path, url, ctx) => {
  const caller = await callerFromRequest(req, ctx);
  if (!caller) {
    const expired = await isExpiredToken(req, ctx.config.jwtSecret);
    sendError(
      req,
      res,
      expired
        ? new RestError(401, 'PGRST303', 'JWT expired', null, null, {
            'www-authenticate': 'Bearer error="invalid_token", error_description="JWT expired"',
          })
        : new RestError(401, 'PGRST301', 'JWT could not be decoded or is invalid', null, null, {
            'www-authenticate': 'Bearer error="invalid_token", error_description="JWT could not be decoded"',
          }),
    );
    return;
  }
  try {
    await handle(req, res, path, url, ctx, caller);
  } catch (err) {
    const restErr = toRestError(err, caller.role);
    if (!restErr) throw err;
    sendError(req, res, restErr);
  }
};
