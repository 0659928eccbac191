/** Reads: a table's rows as a JSON array (or one object), with exact counts and Content-Range. */
import type { IncomingMessage } from 'node:http';
import type { Tx } from '../db.ts';
import { RestError } from './errors.ts';
import { applyRangeHeader, checkUsedPaths, parseQuery, type ParsedQuery } from './query.ts';
import { contentRange, send, singleBody, type Reply } from './reply.ts';
import { runTx, type RestRequest } from './request.ts';
import type { Schema, Table } from './schema.ts';
import { Builder, capRows, countSql, Params, readSql, tableFrom } from './sql.ts';

export interface ReadSpec {
  /** FROM clause builder (fresh params each time: the count query is separate). */
  from: (b: Builder) => string;
  table: Table | null;
  alias: string;
}

/** SELECT of the JSON array body (and optionally the exact count). */
export async function runRead(
  tx: Tx,
  schema: Schema,
  q: ParsedQuery,
  spec: ReadSpec,
  wantCount: boolean,
): Promise<{ body: string; n: number; total?: number }> {
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

export function readReply(req: IncomingMessage, result: { body: string; n: number; total?: number }, offset: number, objectMode: boolean): Reply {
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

/** GET/HEAD /rest/v1/TABLE. */
export async function readTable(rq: RestRequest, schema: Schema, table: Table): Promise<void> {
  const { req, res, url, ctx, role, claims, prefer, objectMode } = rq;
  const q = parseQuery(url, null, ctx.config.maxRows);
  applyRangeHeader(req, q.mods);
  const offset = q.mods.get('')!.offset ?? 0;
  const wantCount = prefer.count !== undefined;
  // Without a count a read is one statement in a read-only transaction: it goes out with the
  // request's settings in one round trip (what follows it may refuse the answer, never a write).
  const reply = await runTx(
    ctx,
    role,
    claims,
    true,
    prefer,
    async (tx) => {
      const result = await runRead(tx, schema, q, { from: () => tableFrom(table.name, 't0'), table, alias: 't0' }, wantCount);
      return readReply(req, result, offset, objectMode);
    },
    undefined,
    !wantCount,
  );
  send(req, res, reply, objectMode);
}
