/**
 * The builder's side of the server's edits (src/server/rebuild/fast-edit-client.ts), against a
 * stand-in for POST /api/internal/catalog-edit: no editor without the server bundle's code key;
 * the ids, the service role key and the answer as the endpoint gives them.
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SERVER_CODE_KEY_FILE } from '~/server/rebuild/builder.ts';
import { serverFastEditor } from '~/server/rebuild/fast-edit-client.ts';

const cleanup: Array<() => void> = [];
afterEach(() => {
  for (const done of cleanup.splice(0)) done();
});

function outDir(codeKey: string | null): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fast-edit-client-'));
  cleanup.push(() => fs.rmSync(dir, { recursive: true, force: true }));
  if (codeKey !== null) {
    fs.mkdirSync(path.join(dir, 'server'));
    fs.writeFileSync(path.join(dir, SERVER_CODE_KEY_FILE), `${codeKey}\n`);
  }
  return dir;
}

/** A stand-in endpoint answering `status` and `body`, recording what it was sent. */
async function endpoint(status: number, body: unknown): Promise<{ origin: string; seen: Array<{ url: string; auth: string; body: unknown }> }> {
  const seen: Array<{ url: string; auth: string; body: unknown }> = [];
  const server = http.createServer((req, res) => {
    let text = '';
    req.on('data', (chunk: Buffer) => (text += chunk.toString()));
    req.on('end', () => {
      seen.push({ url: req.url ?? '', auth: req.headers.authorization ?? '', body: JSON.parse(text) as unknown });
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanup.push(() => server.close());
  return { origin: `http://127.0.0.1:${(server.address() as { port: number }).port}`, seen };
}

describe("the server's editor", () => {
  it('is not there without the code key of the server bundle', () => {
    expect(serverFastEditor({ outDir: outDir(null), origin: () => null, serviceRoleKey: 'clave' })).toBeUndefined();
    expect(serverFastEditor({ outDir: outDir(''), origin: () => null, serviceRoleKey: 'clave' })).toBeUndefined();
  });

  it('posts the ids with the service role key and returns what the server did', async () => {
    const answer = { mode: 'fast', written: ['product/a/index.html'], removed: [], ms: 20, steps: { render: 9 }, searchFollows: true };
    const { origin, seen } = await endpoint(200, answer);
    const editor = serverFastEditor({ outDir: outDir('v1'), origin: () => origin, serviceRoleKey: 'clave' })!;
    expect(editor.codeKey).toBe('v1');
    expect(await editor.publish(['a'])).toEqual(answer);
    await editor.warm!();
    await editor.adopt!();
    expect(seen).toEqual([
      { url: '/api/internal/catalog-edit', auth: 'Bearer clave', body: { productIds: ['a'] } },
      { url: '/api/internal/catalog-edit', auth: 'Bearer clave', body: { productIds: [] } },
      { url: '/api/internal/catalog-edit', auth: 'Bearer clave', body: { productIds: [], adopt: true } },
    ]);
  });

  it('fails on a refusal, an answer of another shape, or before the server listens', async () => {
    const refused = await endpoint(401, { error: 'not_authorized' });
    await expect(serverFastEditor({ outDir: outDir('v1'), origin: () => refused.origin, serviceRoleKey: 'mala' })!.publish(['a'])).rejects.toThrow('HTTP 401');
    const odd = await endpoint(200, { mode: 'fast' });
    await expect(serverFastEditor({ outDir: outDir('v1'), origin: () => odd.origin, serviceRoleKey: 'clave' })!.publish(['a'])).rejects.toThrow();
    await expect(serverFastEditor({ outDir: outDir('v1'), origin: () => null, serviceRoleKey: 'clave' })!.publish(['a'])).rejects.toThrow(
      'el servidor aún no escucha',
    );
  });
});
