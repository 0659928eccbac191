import { appendFile, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  appendSnapshotEdit,
  editsFile,
  readSnapshotBytes,
  readSnapshotFile,
  saveSnapshotRows,
  snapshotInSteps,
  SNAPSHOT_FILE,
} from '~/server/snapshot/disk.ts';
import type { CatalogRows } from '~/server/snapshot/model.ts';
import { stepped } from '../../../support/steps.ts';

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'snapshot-disk-'));
  dirs.push(dir);
  return dir;
}

const rows: CatalogRows = { franchises: [{ id: 'pokemon', name: 'Pokémon' }], collections: [], expansions: [], productTypes: [], products: [{ id: 'p1' }] };

describe('the snapshot on disk', () => {
  it('is kept under .data, out of the repository', () => {
    expect(SNAPSHOT_FILE).toBe('.data/catalog-snapshot.json');
  });

  it('saves the rows with when they were read, making its folder, and reads them back', async () => {
    const file = path.join(await tempDir(), 'nueva', 'catalog-snapshot.json');
    await saveSnapshotRows(file, rows, '2026-11-24T02:00:05.000Z', '2026-11-24T02:00:01.000Z');
    expect(await readSnapshotFile(file)).toEqual({ fetchedAt: '2026-11-24T02:00:05.000Z', wholeReadFrom: '2026-11-24T02:00:01.000Z', rows });
    // Written through a temporary file that is renamed into place: nothing else is left beside it.
    expect(await readdir(path.dirname(file))).toEqual(['catalog-snapshot.json']);
  });

  it('says when the rows do not come from one read of the whole catalogue', async () => {
    const file = path.join(await tempDir(), 'catalog-snapshot.json');
    await saveSnapshotRows(file, rows, '2026-11-24T02:00:05.000Z');
    expect(await readSnapshotFile(file)).toMatchObject({ wholeReadFrom: null });
  });

  it('reads nothing from a missing or unreadable file', async () => {
    const dir = await tempDir();
    expect(await readSnapshotFile(path.join(dir, 'no-existe.json'))).toBeNull();
    await writeFile(path.join(dir, 'roto.json'), '{"rows": ');
    expect(await readSnapshotFile(path.join(dir, 'roto.json'))).toBeNull();
  });

  it('applies the edits appended since the copy, in order, until a line cut short; a new copy replaces them', async () => {
    const file = path.join(await tempDir(), 'catalog-snapshot.json');
    const two: CatalogRows = {
      ...rows,
      products: [
        { id: 'p1', price: 1 },
        { id: 'p2', price: 2 },
      ],
    };
    await saveSnapshotRows(file, two, '2026-11-24T02:00:05.000Z', '2026-11-24T02:00:01.000Z');
    await appendSnapshotEdit(file, [{ id: 'p2', price: 20 }], '2026-11-24T03:00:00.000Z');
    await appendSnapshotEdit(file, [{ id: 'p1', price: 10 }], '2026-11-24T04:00:00.000Z');
    await appendFile(editsFile(file), '{"fetchedAt":"2026-11-24T05:00:00.000Z","rows":[{"id":"p1","pri');
    expect(await readSnapshotFile(file)).toEqual({
      fetchedAt: '2026-11-24T04:00:00.000Z',
      wholeReadFrom: null,
      rows: {
        ...two,
        products: [
          { id: 'p1', price: 10 },
          { id: 'p2', price: 20 },
        ],
      },
    });
    await saveSnapshotRows(file, two, '2026-11-24T06:00:00.000Z');
    expect(await readdir(path.dirname(file))).toEqual(['catalog-snapshot.json']);
    expect(await readSnapshotFile(file)).toMatchObject({ fetchedAt: '2026-11-24T06:00:00.000Z', rows: two });
  });

  it('writes each product row on a line of its own, and reads them back in steps that pause between slices', async () => {
    const file = path.join(await tempDir(), 'catalog-snapshot.json');
    // Names with what could confuse a reader of lines: a line break, a comma at the end, brackets.
    const products = Array.from({ length: 2500 }, (_, k) => ({ id: `p${k}`, name: k % 7 === 0 ? `Caja\n${k},` : `Sobre ]}} ${k}`, offers: [{ id: k }] }));
    const many: CatalogRows = { ...rows, products };
    await saveSnapshotRows(file, many, '2026-11-24T02:00:05.000Z', '2026-11-24T02:00:01.000Z');
    const text = await readFile(file, 'utf8');
    const expected = { fetchedAt: '2026-11-24T02:00:05.000Z', wholeReadFrom: '2026-11-24T02:00:01.000Z', rows: many };
    // Still JSON any reader can parse whole.
    expect(JSON.parse(text)).toEqual(expected);
    expect(text.split('\n')).toHaveLength(2500 + 2);
    const { pauses, value } = stepped(snapshotInSteps(await readSnapshotBytes(file)));
    expect(value).toEqual(expected);
    expect(pauses).toBeGreaterThanOrEqual(2);
  });

  it('reads a copy written on one line (before rows had lines of their own), an empty one, and nothing from a row cut short', async () => {
    const dir = await tempDir();
    const file = path.join(dir, 'catalog-snapshot.json');
    await writeFile(file, JSON.stringify({ fetchedAt: '2026-11-24T02:00:05.000Z', wholeReadFrom: null, rows }));
    expect(await readSnapshotFile(file)).toEqual({ fetchedAt: '2026-11-24T02:00:05.000Z', wholeReadFrom: null, rows });
    await saveSnapshotRows(file, { ...rows, products: [] }, '2026-11-24T02:00:05.000Z');
    expect(await readSnapshotFile(file)).toMatchObject({ rows: { products: [] } });
    await saveSnapshotRows(file, { ...rows, products: [{ id: 'p1' }, { id: 'p2' }, { id: 'p3' }] }, '2026-11-24T02:00:05.000Z');
    const text = await readFile(file, 'utf8');
    await writeFile(file, text.replace('{"id":"p2"}', '{"id":"p2"'));
    expect(await readSnapshotFile(file)).toBeNull();
  });
});
