/**
 * A real `astro build` of the demo catalogue served by its own server bundle, an edit published by
 * that server (src/server/rebuild/fast-edit.ts, its pages rendered by src/pages/catalog-render/),
 * then a full build of the edited catalogue: every file the edit wrote is byte for byte the full
 * build's.
 */
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { demoProductRows, writeSnapshot } from '../../../support/demo-rows.ts';
import { runBuild } from '~/server/rebuild/build-process.ts';
import { renderThrough } from '~/server/rebuild/fast-edit-endpoint.ts';
import { publishEdit } from '~/server/rebuild/fast-edit.ts';
import { fileForPath } from '~/server/rebuild/incremental.ts';
import { currentBuild, manifestFile, prepareOutput } from '~/server/rebuild/served-folder.ts';
import { projectUrl } from '~/server/supabase.ts';

const root = process.cwd();
// Inside the project (git-ignored dist-*), where the built server resolves node_modules.
const tmp = fs.mkdtempSync(path.join(root, 'dist-fast-edit-'));
let server: http.Server | null = null;
afterAll(() => {
  server?.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

/** `astro build` of the catalogue copy `snapshotFile` into `outDir`, leaving its manifest in `manifest`. */
async function build(outDir: string, snapshotFile: string, manifest: string): Promise<void> {
  const env: NodeJS.ProcessEnv = { ...process.env, CATALOG_SNAPSHOT_FILE: snapshotFile, SITE_URL: 'http://tienda.test', CATALOG_BUILD_MANIFEST: manifest };
  // No backend: the build reads the catalogue from the copy alone.
  delete env.PUBLIC_SUPABASE_URL;
  delete env.PUBLIC_SUPABASE_ANON_KEY;
  delete env.CATALOG_PREVIOUS_MANIFEST;
  delete env.CATALOG_CHANGED_IDS;
  await runBuild({ root, outDir, env });
}

describe('an edit the server publishes equals a full build', () => {
  it('writes the product page, its listings, the home page and /explore as a full build of the edited catalogue does', { timeout: 600_000 }, async () => {
    const rows = demoProductRows();
    const snapshotFile = path.join(tmp, 'snapshot.json');
    writeSnapshot(snapshotFile, rows);
    const outDir = path.join(tmp, 'served');
    const builtManifest = path.join(tmp, 'served-manifest.json');
    await build(outDir, snapshotFile, builtManifest);
    const client = prepareOutput(outDir);
    fs.copyFileSync(builtManifest, manifestFile(client));

    // The served build's own server bundle, as scripts/serve.mjs runs it.
    process.env.ASTRO_NODE_AUTOSTART = 'disabled';
    const { handler } = (await import(/* @vite-ignore */ pathToFileURL(path.join(outDir, 'server', 'entry.mjs')).href)) as {
      handler: (req: http.IncomingMessage, res: http.ServerResponse) => void;
    };
    server = http.createServer((req, res) => handler(req, res));
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;

    // A product on the home page's sliders, renamed and repriced.
    const edited = rows.find((row) => row.expansion_id === 'destined-rivals' && row.product_type_id === 'elite-trainer-box')!;
    const id = String(edited.id);
    edited.name = 'Elite Trainer Box Rivales Renombrada';
    edited.price = 4321.5;
    const result = await publishEdit([id], {
      servedClient: client,
      snapshotFile,
      readRows: async (ids) => rows.filter((row) => ids.includes(String(row.id))),
      render: (job) => renderThrough(origin, job),
      storageUrl: projectUrl(undefined),
    });
    expect(result.mode).toBe('fast');
    const written = result.mode === 'fast' ? result.written : [];
    expect(written).toEqual(expect.arrayContaining([fileForPath(`/product/${id}`), 'index.html', 'explore/catalog.json']));
    // The renamed product's search files are left to the build that follows.
    expect(result).toMatchObject({ searchFollows: true });
    expect(written.some((file) => file.startsWith('franchise/pokemon/expansions/destined-rivals/products/'))).toBe(true);
    expect(written.some((file) => file.startsWith('franchise/pokemon/product-types/elite-trainer-box/products/'))).toBe(true);
    expect(fs.readFileSync(path.join(client, fileForPath(`/product/${id}`)), 'utf8')).toContain('Elite Trainer Box Rivales Renombrada');

    // The render routes show nothing to anyone else.
    for (const kind of ['product', 'home', 'expansion-listing', 'type-listing']) {
      const response = await fetch(`${origin}/catalog-render/${kind}`, { headers: { 'x-catalog-render': 'adivinado' } });
      expect(response.status, kind).toBe(404);
    }

    // A full build of the same catalogue (the copy the edit saved) writes the same bytes.
    const fullDir = path.join(tmp, 'full');
    await build(fullDir, snapshotFile, path.join(tmp, 'full-manifest.json'));
    for (const file of written) {
      expect(fs.readFileSync(path.join(client, file), 'utf8'), file).toBe(fs.readFileSync(path.join(fullDir, 'client', file), 'utf8'));
    }
    expect(currentBuild(outDir)).toBe(client);
  });
});
