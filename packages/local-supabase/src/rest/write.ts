/**
 * Writes: insert and upsert (POST), update (PATCH) and delete (DELETE), with
 * `return=representation`, one-object answers and `max-affected`.
 */
import type { Tx } from '../db.ts';
import { readBody } from '../http.ts';
import { RestError } from './errors.ts';
import type { Prefer } from './prefer.ts';
import { checkUsedPaths, parseQuery, type ParsedQuery } from './query.ts';
import { contentRange, notSingular, send, singleBody } from './reply.ts';
import { runTx, type RestRequest } from './request.ts';
import type { Schema, Table } from './schema.ts';
import { Builder, deleteSql, insertSql, Params, representationSql, updateSql } from './sql.ts';

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

/** POST /rest/v1/TABLE: insert, or upsert with `Prefer: resolution=…`. */
export async function insertRows(rq: RestRequest, schema: Schema, table: Table): Promise<void> {
  const { req, res, url, ctx, role, claims, prefer, objectMode } = rq;
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
  const statement = (b: Builder, returning: string) => insertSql(b.params, table.name, columns, rows, onConflict, prefer.resolution, returning);
  const reply = await runTx(ctx, role, claims, false, prefer, async (tx) => {
    const r = await mutate(tx, schema, table, q, prefer, statement, objectMode);
    if (objectMode && r.n !== 1) throw notSingular(r.n);
    const body = r.body !== undefined && objectMode ? singleBody(r.body, r.n) : r.body;
    return { status: 201, body, headers: { 'content-range': body !== undefined ? contentRange(0, r.n, undefined) : '*/*' } };
  });
  send(req, res, reply, objectMode);
}

/** PATCH or DELETE /rest/v1/TABLE: the rows the filters select. */
export async function updateOrDeleteRows(rq: RestRequest, schema: Schema, table: Table): Promise<void> {
  const { req, res, url, ctx, role, claims, prefer, objectMode, method } = rq;
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
    return method === 'DELETE' ? deleteSql(table.name, where, returning !== '') : updateSql(b.params, table.name, patch, where, returning !== '');
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
}
