import { describe, expect, it } from 'vitest';
import {
  isVariantPath,
  planVariants,
  recordedSize,
  sizedPath,
  uprightSize,
  VARIANT_FORMATS,
  VARIANT_SOURCE_MAX_BYTES,
  VARIANT_SOURCE_MAX_PIXELS,
  VARIANT_WIDTHS,
  variantPath,
  variantWidths,
} from '~/domain/image-variants.ts';

const photo = { width: 4000, height: 3000, format: 'jpeg', bytes: 3 * 1024 * 1024 };

describe('the copies planned for an uploaded photo', () => {
  it('makes every standard width of a large photo in AVIF, WebP and JPEG, heights in proportion', () => {
    const plan = planVariants('pk-abc-lqz1.jpg', photo);
    if (!plan.ok) throw new Error('refused');
    expect(plan).toMatchObject({ width: 4000, height: 3000 });
    expect(plan.variants).toHaveLength(VARIANT_WIDTHS.length * VARIANT_FORMATS.length);
    expect([...new Set(plan.variants.map((v) => v.width))]).toEqual([240, 480, 960, 1600]);
    expect(plan.variants.filter((v) => v.width === 480).map((v) => [v.format, v.height, v.path, v.contentType])).toEqual([
      ['avif', 360, 'pk-abc-lqz1.480w.avif', 'image/avif'],
      ['webp', 360, 'pk-abc-lqz1.480w.webp', 'image/webp'],
      ['jpeg', 360, 'pk-abc-lqz1.480w.jpg', 'image/jpeg'],
    ]);
    expect(plan.variants.find((v) => v.width === 1600)?.height).toBe(1200);
  });

  it('never makes a copy wider than the source, and a narrow source keeps its own width', () => {
    expect(variantWidths(1000)).toEqual([240, 480, 960]);
    expect(variantWidths(1600)).toEqual([240, 480, 960, 1600]);
    expect(variantWidths(240)).toEqual([240]);
    expect(variantWidths(150)).toEqual([150]);
    const plan = planVariants('x.png', { width: 150, height: 300, format: 'png', bytes: 2000 });
    expect(plan.ok && plan.variants.map((v) => `${v.width}x${v.height}.${v.format}`)).toEqual(['150x300.avif', '150x300.webp', '150x300.jpeg']);
  });

  it('turns a photo taken sideways upright: orientations 5 to 8 swap width and height', () => {
    expect(uprightSize({ width: 4000, height: 3000, orientation: 6 })).toEqual({ width: 3000, height: 4000 });
    expect(uprightSize({ width: 4000, height: 3000, orientation: 8 })).toEqual({ width: 3000, height: 4000 });
    expect(uprightSize({ width: 4000, height: 3000, orientation: 3 })).toEqual({ width: 4000, height: 3000 });
    expect(uprightSize({ width: 4000, height: 3000 })).toEqual({ width: 4000, height: 3000 });
    const plan = planVariants('slab.jpg', { ...photo, orientation: 6 });
    if (!plan.ok) throw new Error('refused');
    expect(plan).toMatchObject({ width: 3000, height: 4000 });
    expect(plan.variants.find((v) => v.width === 960)?.height).toBe(1280);
  });

  it('names each copy next to its original, and tells a copy from an original', () => {
    expect(variantPath('products/pk-1-ab.jpeg', 960, 'webp')).toBe('products/pk-1-ab.960w.webp');
    expect(variantPath('pk-1-ab.v2.png', 240, 'jpeg')).toBe('pk-1-ab.v2.240w.jpg');
    expect(variantPath('sin-extension', 480, 'avif')).toBe('sin-extension.480w.avif');
    expect(variantPath('.oculto', 480, 'avif')).toBe('.oculto.480w.avif');
    expect(isVariantPath('products/pk-1-ab.960w.webp')).toBe(true);
    expect(isVariantPath('products/pk-1-ab.jpg')).toBe(false);
    expect(isVariantPath('products/pk-960w.png')).toBe(false);
  });

  it('keeps an SVG as it is: no copies', () => {
    expect(planVariants('logo.svg', { width: 100, height: 50, format: 'svg', bytes: 1500 })).toEqual({ ok: true, width: 100, height: 50, variants: [] });
  });

  it('refuses what is over 15 MB or 50 megapixels, and what is not an image the shop takes', () => {
    expect(VARIANT_SOURCE_MAX_BYTES).toBe(15 * 1024 * 1024);
    expect(planVariants('a.jpg', { ...photo, bytes: VARIANT_SOURCE_MAX_BYTES }).ok).toBe(true);
    expect(planVariants('a.jpg', { ...photo, bytes: VARIANT_SOURCE_MAX_BYTES + 1 })).toEqual({ ok: false, reason: 'too_large' });
    expect(planVariants('a.jpg', { ...photo, width: 10_000, height: VARIANT_SOURCE_MAX_PIXELS / 10_000 + 1 })).toEqual({ ok: false, reason: 'too_large' });
    expect(planVariants('a.pdf', { ...photo, format: 'pdf' })).toEqual({ ok: false, reason: 'not_an_image' });
    expect(planVariants('a.tif', { ...photo, format: 'tiff' })).toEqual({ ok: false, reason: 'not_an_image' });
    expect(planVariants('a.jpg', { ...photo, width: 0 })).toEqual({ ok: false, reason: 'not_an_image' });
  });
});

describe('the size the name of an original records once its copies are made', () => {
  it('names the original with its upright size before its extension, replacing a former size', () => {
    expect(sizedPath('pk-abc-lqz1.jpg', 3000, 4000)).toBe('pk-abc-lqz1.3000x4000.jpg');
    expect(sizedPath('products/pk-abc-lqz1.3000x4000.jpg', 1500, 2100)).toBe('products/pk-abc-lqz1.1500x2100.jpg');
    expect(sizedPath('sin-extension', 10, 20)).toBe('sin-extension.10x20');
    expect(variantPath(sizedPath('pk-abc.png', 1500, 2100), 480, 'avif')).toBe('pk-abc.1500x2100.480w.avif');
  });

  it('reads the size back from a stored path or a URL; none for other names or for a copy', () => {
    expect(recordedSize('products/pk-abc.1500x2100.jpg')).toEqual({ width: 1500, height: 2100 });
    expect(recordedSize('/media/products/pk-abc.1500x2100.webp?v=2')).toEqual({ width: 1500, height: 2100 });
    expect(recordedSize('https://cdn.test/a.b/pk.200x100.PNG')).toEqual({ width: 200, height: 100 });
    for (const path of [
      'products/pk-abc.jpg',
      'products/pk-abc.1500x2100.480w.jpg',
      'products/0x0.0x0.jpg',
      'products/a.1500x.jpg',
      'products.1500x2100.jpg/a.svg',
    ]) {
      expect(recordedSize(path)).toBeNull();
    }
  });
});
