import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { planVariants } from '~/domain/image-variants.ts';
import { ensureDemoPhotos, PHOTO_COUNT, photoName } from '../../../scripts/seed/photos.ts';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fotos-demo-'));
const products = path.join(dir, 'products');

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('the demo photos', () => {
  it('are photo-like 1,500 × 2,100 JPEGs of 250–600 KB with the copies an upload gets, made once and the same on every run', async () => {
    expect(await ensureDemoPhotos(dir)).toBe(PHOTO_COUNT);
    const plan = planVariants(photoName(1), { width: 1500, height: 2100, format: 'jpeg', bytes: 0 });
    if (!plan.ok) throw new Error('refused');
    expect(photoName(1)).toBe('demo-foto-1.1500x2100.jpg');
    expect(fs.readdirSync(products)).toHaveLength(PHOTO_COUNT * (1 + plan.variants.length));
    for (let n = 1; n <= PHOTO_COUNT; n += 1) {
      const original = fs.readFileSync(path.join(products, photoName(n)));
      const meta = await sharp(original).metadata();
      expect([meta.format, meta.width, meta.height]).toEqual(['jpeg', 1500, 2100]);
      expect(original.byteLength).toBeGreaterThan(250 * 1024);
      expect(original.byteLength).toBeLessThan(600 * 1024);
    }
    for (const variant of plan.variants) {
      const meta = await sharp(fs.readFileSync(path.join(products, variant.path))).metadata();
      expect([variant.path, meta.width, meta.height]).toEqual([variant.path, variant.width, variant.height]);
    }
    // The 960 px AVIF a phone at 2× asks for stays far under the 120 KB budget.
    expect(fs.statSync(path.join(products, 'demo-foto-1.1500x2100.960w.avif')).size).toBeLessThan(120 * 1024);

    // Nothing is made again while it is all there; a missing file is made again, byte for byte the same.
    expect(await ensureDemoPhotos(dir)).toBe(0);
    const before = fs.readFileSync(path.join(products, photoName(2)));
    const copy = fs.readFileSync(path.join(products, 'demo-foto-2.1500x2100.480w.webp'));
    fs.rmSync(path.join(products, 'demo-foto-2.1500x2100.480w.webp'));
    expect(await ensureDemoPhotos(dir)).toBe(1);
    expect(fs.readFileSync(path.join(products, photoName(2))).equals(before)).toBe(true);
    expect(fs.readFileSync(path.join(products, 'demo-foto-2.1500x2100.480w.webp')).equals(copy)).toBe(true);
  }, 300_000);
});
