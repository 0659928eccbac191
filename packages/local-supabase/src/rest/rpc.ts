/** RPC: POST or GET /rest/v1/rpc/FUNCTION, its arguments from the JSON body or the query string. */
import type { IncomingMessage } from 'node:http';
import type { Tx } from '../db.ts';
import { readBody } from '../http.ts';
import { RestError } from './errors.ts';
import type { Prefer } from './prefer.ts';
import { applyRangeHeader, parseQuery, type ParsedQuery } from './query.ts';
import { runRead, readReply } from './read.ts';
import { send, type Reply } from './reply.ts';
import { requestHeadersJson, runTx, type RestRequest } from './request.ts';
import { refreshIfStale, type FunctionDef, type Schema } from './schema.ts';
import { Builder, Params, rpcFrom, rpcScalarSql, rpcVoidSql } from './sql.ts';

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

/** GET, HEAD or POST /rest/v1/rpc/NAME. */
export async function callRpc(rq: RestRequest, schema: Schema, name: string): Promise<void> {
  const { req, res, url, ctx, role, claims, prefer, objectMode, method, readOnly } = rq;
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
  // A function returning nothing or one value is one statement: it goes out with the request's
  // settings in one round trip.
  const oneStatement = fn.returnKind === 'void' || (fn.returnKind === 'scalar' && !fn.returnsSet);
  const reply = await runTx(
    ctx,
    role,
    claims,
    readOnly,
    prefer,
    (tx) => handleRpc(req, tx, schema, fn, args, q, prefer, objectMode),
    requestHeadersJson(req),
    oneStatement,
  );
  send(req, res, reply, objectMode && fn.returnsSet);
}
