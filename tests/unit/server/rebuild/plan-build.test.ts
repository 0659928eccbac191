/**
 * planBuild's manifest from digests the caller made already (the build makes every product's
 * digest once, for the pages' fingerprints and the manifest), and the plan it makes with them.
 */
import { describe, expect, it } from 'vitest';
import { demoProductRows } from '../../../support/demo-rows.ts';
import { planBuild, productDigest, type FingerprintedFile } from '~/server/rebuild/incremental.ts';
import { mergeSnapshot } from '~/server/snapshot/model.ts';

const catalog = mergeSnapshot({ franchises: [], collections: [], expansions: [], productTypes: [], products: demoProductRows() }, null).snapshot;
const files: FingerprintedFile[] = [{ path: '/', fingerprint: 'home' }];

describe('planBuild with the digests made', () => {
  it('writes the digests it is given into the manifest, and makes the same ones itself without them', () => {
    const digests = new Map(catalog.products.map((product) => [product.id, productDigest(product)]));
    expect(catalog.products.length).toBeGreaterThan(10);
    const made = planBuild(catalog, files, null);
    const given = planBuild(catalog, files, null, digests);
    expect(given).toEqual(made);
    expect(Object.keys(given.manifest.products)).toHaveLength(catalog.products.length);

    // The digests given are the ones written, not made again.
    const marked = new Map([...digests].map(([id, digest]) => [id, `given-${digest}`]));
    const plan = planBuild(catalog, files, null, marked);
    for (const product of catalog.products) expect(plan.manifest.products[product.id]).toBe(`given-${digests.get(product.id)}`);
  });

  it('plans nothing to render when the digests given are the previous build’s, and the changed product’s pages when one differs', () => {
    const digests = new Map(catalog.products.map((product) => [product.id, productDigest(product)]));
    const previous = planBuild(catalog, files, null, digests).manifest;
    const same = planBuild(catalog, files, { previous, changedIds: [], maxChanged: 50 }, digests);
    expect(same.manifest.mode).toBe('incremental');
    expect(same.render).toEqual(new Set());

    const edited = catalog.products[0]!;
    const one = new Map(digests).set(edited.id, 'another');
    const plan = planBuild(catalog, files, { previous, changedIds: [], maxChanged: 50 }, one);
    expect(plan.render).toContain(`/product/${edited.id}`);
  });
});
