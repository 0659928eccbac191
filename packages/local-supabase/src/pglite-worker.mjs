// The local stack's PGlite, in a worker thread. PGlite runs Postgres (WebAssembly) on the thread
// that calls it and blocks that thread for as long as a statement runs; here it blocks only this
// worker, so the HTTP server (and /health) keep answering while a heavy query runs.
//
// Plain JavaScript on purpose: it loads the same under tsx, Vitest and plain node.
//
// Messages in:  { id, op: 'query', sql, params } | { id, op: 'exec', sql } | { id, op: 'listen', channel }
//               | { id, op: 'unlisten', listenId } | { id, op: 'dump' } | { id, op: 'close' }
// Messages out: { type: 'ready' } | { type: 'failed', error } | { id, result } | { id, error }
//               | { type: 'notify', listenId, payload }
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';

/** The fields of a Postgres error the stack maps to answers (SQLSTATE, message, detail, hint). */
function plainError(err) {
  const e = /** @type {Record<string, unknown>} */ (err ?? {});
  const out = { message: String(e.message ?? err) };
  for (const key of ['code', 'detail', 'hint', 'position', 'where', 'schema', 'table', 'column', 'constraint', 'severity']) {
    if (e[key] !== undefined && e[key] !== null) out[key] = e[key];
  }
  return out;
}

const port = parentPort;
if (!port) throw new Error('pglite-worker.mjs must run in a worker thread');

/** @type {PGlite} */
let pglite;
try {
  const { dataDir, loadDataDir } = workerData ?? {};
  pglite = await PGlite.create({
    dataDir: dataDir || undefined,
    ...(loadDataDir ? { loadDataDir: new Blob([loadDataDir]) } : {}),
  });
} catch (err) {
  port.postMessage({ type: 'failed', error: plainError(err) });
  process.exit(1);
}

const unlisteners = new Map();

port.on('message', async (msg) => {
  const { id, op } = msg;
  try {
    let result;
    if (op === 'query') {
      const r = await pglite.query(msg.sql, msg.params ?? []);
      result = { rows: r.rows, affectedRows: r.affectedRows };
    } else if (op === 'exec') {
      await pglite.exec(msg.sql);
      result = null;
    } else if (op === 'listen') {
      const listenId = msg.listenId;
      const unlisten = await pglite.listen(msg.channel, (payload) => port.postMessage({ type: 'notify', listenId, payload }));
      unlisteners.set(listenId, unlisten);
      result = null;
    } else if (op === 'unlisten') {
      const unlisten = unlisteners.get(msg.listenId);
      unlisteners.delete(msg.listenId);
      if (unlisten) await unlisten();
      result = null;
    } else if (op === 'dump') {
      const blob = await pglite.dumpDataDir('none');
      const buffer = await blob.arrayBuffer();
      port.postMessage({ id, result: buffer }, [buffer]);
      return;
    } else if (op === 'close') {
      try {
        await pglite.exec('checkpoint');
      } catch {
        // A checkpoint is an optimisation for the next start; closing matters more.
      }
      await pglite.close();
      port.postMessage({ id, result: null });
      port.close();
      return;
    } else {
      throw new Error(`Operación desconocida: ${String(op)}`);
    }
    port.postMessage({ id, result });
  } catch (err) {
    port.postMessage({ id, error: plainError(err) });
  }
});

port.postMessage({ type: 'ready' });
