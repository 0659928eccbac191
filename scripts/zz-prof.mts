import fs from 'node:fs';
import path from 'node:path';
import { demoProductRows, writeSnapshot } from '../tests/support/demo-rows.ts';
import { forgetServedCatalog, pageCatalog, publishEdit } from '~/server/rebuild/fast-edit.ts';
import { contentFingerprint, exploreFingerprint, fileForPath, pageFingerprints, productDigest, writeManifest } from '~/server/rebuild/incremental.ts';
import { manifestFile } from '~/server/rebuild/served-folder.ts';
import { catalogSearchFiles } from '~/server/snapshot/catalog-files.ts';
import { mergeSnapshot } from '~/server/snapshot/model.ts';

const N = Number(process.argv[2] ?? 100000);
const dir = '/work/lh/prof';
fs.rmSync(dir, { recursive: true, force: true });
const client = path.join(dir, 'builds', 'b1', 'client');
fs.mkdirSync(client, { recursive: true });
const demo = demoProductRows();
const words = ['Pikachu', 'Charizard', 'Luffy', 'Zoro', 'Ahri', 'Jinx', 'Mewtwo', 'Nami', 'Garen', 'Eevee', 'Sanji', 'Yasuo'];
const rows = Array.from({ length: N }, (_, i) => {
  const base = demo[i % demo.length]!;
  return { ...base, id: `${base.id}-${i}`, name: `${base.name} ${words[i % words.length]} ${words[(i * 7) % words.length]} ${i}` };
});
const snapshotFile = path.join(dir, 'snap.json');
writeSnapshot(snapshotFile, rows);
let t = performance.now();
const catalog = pageCatalog(mergeSnapshot({ franchises: [], collections: [], expansions: [], productTypes: [], products: rows }, null).snapshot);
console.log('merge', Math.round(performance.now() - t)); t = performance.now();
const digests = new Map(catalog.products.map((p) => [p.id, productDigest(p)]));
const files: Record<string, string> = {};
for (const page of pageFingerprints(catalog, digests)) files[page.path] = page.fingerprint;
files['/explore/catalog.json'] = exploreFingerprint(catalog.products, digests);
console.log('fingerprints', Math.round(performance.now() - t)); t = performance.now();
for (const [urlPath, file] of catalogSearchFiles(catalog, 'https://x.test')) files[urlPath] = contentFingerprint(JSON.stringify(file));
console.log('search files', Math.round(performance.now() - t), Object.keys(files).length); t = performance.now();
writeManifest(manifestFile(client), { v: 1, mode: 'full', reason: null, files, products: Object.fromEntries(digests), render: [], removed: [] });
forgetServedCatalog();
const mem = () => Math.round(process.memoryUsage().rss / 1048576);
console.log('rss before', mem());
for (const k of [0, 1]) {
  const row = rows[k * 5000 + 3]!;
  row.price = 1000 + k;
  if (process.env.RENAME) row.name = `Editado ${k}`;
  t = performance.now();
  const r = await publishEdit([String(row.id)], {
    servedClient: client,
    snapshotFile,
    storageUrl: 'https://x.test',
    readRows: async (ids) => rows.filter((x) => ids.includes(String(x.id))),
    render: async (job) => `<html>${job.path}</html>`,
  });
  console.log('edit', k, Math.round(performance.now() - t), JSON.stringify(r.mode === 'fast' ? { ms: r.ms, steps: r.steps, files: r.written.length } : r), 'rss', mem());
}
