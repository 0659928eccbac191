import { describe, expect, it } from 'vitest';
import { containedSize, IMAGE_SLOTS, resolveImage, responsiveImage, storagePublicBase } from '~/domain/images';

const BASE = 'https://abc.supabase.co';

describe('resolveImage', () => {
  it('resolves relative paths against the public storage: first segment is the bucket', () => {
    expect(resolveImage('products/x.svg', BASE)).toBe('https://abc.supabase.co/storage/v1/object/public/products/x.svg');
    expect(resolveImage('expansions/destined-rivals.svg', 'http://127.0.0.1:54321/')).toBe(
      'http://127.0.0.1:54321/storage/v1/object/public/expansions/destined-rivals.svg',
    );
    expect(resolveImage('./product-types/tin.svg', BASE)).toBe('https://abc.supabase.co/storage/v1/object/public/product-types/tin.svg');
  });

  it('encodes unsafe characters in object names once', () => {
    expect(resolveImage('products/caja sobres #1.svg', BASE)).toBe('https://abc.supabase.co/storage/v1/object/public/products/caja%20sobres%20%231.svg');
    expect(resolveImage('products/caja%20sobres.svg', BASE)).toBe('https://abc.supabase.co/storage/v1/object/public/products/caja%20sobres.svg');
  });

  it('keeps absolute URLs, data URLs and site paths as they are', () => {
    expect(resolveImage('https://cdn.example.com/a.png', BASE)).toBe('https://cdn.example.com/a.png');
    expect(resolveImage('HTTP://cdn.example.com/a.png', BASE)).toBe('HTTP://cdn.example.com/a.png');
    expect(resolveImage('//cdn.example.com/a.png', BASE)).toBe('//cdn.example.com/a.png');
    expect(resolveImage('data:image/svg+xml;base64,AAAA', BASE)).toBe('data:image/svg+xml;base64,AAAA');
    expect(resolveImage('/images/franchises/pokemon.svg', BASE)).toBe('/images/franchises/pokemon.svg');
  });

  it('gives an empty string for missing images', () => {
    expect(resolveImage('', BASE)).toBe('');
    expect(resolveImage('   ', BASE)).toBe('');
    expect(resolveImage(null, BASE)).toBe('');
    expect(resolveImage(undefined, BASE)).toBe('');
  });

  it('builds the storage prefix without doubled slashes', () => {
    expect(storagePublicBase('https://abc.supabase.co//')).toBe('https://abc.supabase.co/storage/v1/object/public/');
  });
});

describe('images from the shop’s own origin', () => {
  it('serves stored paths under /media/ and leaves URLs and site paths alone', async () => {
    const { sameOriginImage } = await import('~/domain/images.ts');
    expect(sameOriginImage('products/pk-1.svg')).toBe('/media/products/pk-1.svg');
    expect(sameOriginImage('./products/caja 1.png')).toBe('/media/products/caja%201.png');
    expect(sameOriginImage('https://cdn.example.mx/a.png')).toBe('https://cdn.example.mx/a.png');
    expect(sameOriginImage('/img/logo.svg')).toBe('/img/logo.svg');
    expect(sameOriginImage('')).toBe('');
    expect(sameOriginImage(null)).toBe('');
  });

  it("serves this project's storage URLs under /media/, and no other origin's", async () => {
    const { sameOriginStorageUrl, resolveImage } = await import('~/domain/images.ts');
    const project = 'https://abc.supabase.co';
    expect(sameOriginStorageUrl(resolveImage('products/caja 1.png', project), project)).toBe('/media/products/caja%201.png');
    expect(sameOriginStorageUrl('https://otro.supabase.co/storage/v1/object/public/products/a.png', project)).toBe(
      'https://otro.supabase.co/storage/v1/object/public/products/a.png',
    );
    expect(sameOriginStorageUrl('/img/logo.svg', project)).toBe('/img/logo.svg');
    expect(sameOriginStorageUrl('', project)).toBe('');
  });

  it('names only objects of the public image buckets, never a path that climbs out', async () => {
    const { mediaObject } = await import('~/domain/images.ts');
    expect(mediaObject('products/pk-1.svg')).toEqual(['products', 'pk-1.svg']);
    expect(mediaObject('product-types/sobres/a_b-1.webp')).toEqual(['product-types', 'sobres/a_b-1.webp']);
    for (const bad of [
      '',
      'products',
      'avatars/x.png',
      'products/../secretos.txt',
      'products/./x.png',
      'products/a%2Fb.png',
      'products/x y.png',
      'products/a\\b.png',
    ]) {
      expect(mediaObject(bad), bad).toBeNull();
    }
  });
});

describe('the copies a page asks for (responsiveImage)', () => {
  const photo = '/media/products/pk-abc-lqz1.1500x2100.jpg';

  it('offers AVIF, then WebP, then JPEG at every width made of a photo whose name records its size', () => {
    const copies = responsiveImage(photo, IMAGE_SLOTS.product);
    expect(copies).toEqual({
      src: '/media/products/pk-abc-lqz1.1500x2100.480w.jpg',
      srcset:
        '/media/products/pk-abc-lqz1.1500x2100.240w.jpg 240w, /media/products/pk-abc-lqz1.1500x2100.480w.jpg 480w, /media/products/pk-abc-lqz1.1500x2100.960w.jpg 960w',
      // A portrait photo in a square place is 1500/2100 of the place's width.
      sizes: '(min-width: 900px) calc(min(598px, 50vw - 42px) * 0.714), (min-width: 768px) calc(calc(100vw - 50px) * 0.714), calc(calc(100vw - 34px) * 0.714)',
      width: 1500,
      height: 2100,
      sources: [
        {
          type: 'image/avif',
          srcset:
            '/media/products/pk-abc-lqz1.1500x2100.240w.avif 240w, /media/products/pk-abc-lqz1.1500x2100.480w.avif 480w, /media/products/pk-abc-lqz1.1500x2100.960w.avif 960w',
        },
        {
          type: 'image/webp',
          srcset:
            '/media/products/pk-abc-lqz1.1500x2100.240w.webp 240w, /media/products/pk-abc-lqz1.1500x2100.480w.webp 480w, /media/products/pk-abc-lqz1.1500x2100.960w.webp 960w',
        },
      ],
    });
  });

  it('keeps the place widths as they are for a landscape photo, or outside a square place', () => {
    expect(responsiveImage('products/a.3000x2000.png', IMAGE_SLOTS.card)?.sizes).toBe('(min-width: 480px) 260px, 50vw');
    expect(responsiveImage(photo, IMAGE_SLOTS.viewer)?.sizes).toBe('min(90vw, 900px)');
    expect(responsiveImage(photo, IMAGE_SLOTS.thumb48)?.sizes).toBe('calc(48px * 0.714)');
  });

  it('offers the widths the photo has: every standard one up to 4,000 px, or its own when narrower than them all', () => {
    const wide = responsiveImage('https://x.supabase.co/storage/v1/object/public/products/a.4000x3000.jpg', IMAGE_SLOTS.card)!;
    expect(wide.srcset.split(', ').map((entry) => entry.split(' ')[1])).toEqual(['240w', '480w', '960w', '1600w']);
    expect(wide.sources[0]!.srcset).toContain('https://x.supabase.co/storage/v1/object/public/products/a.4000x3000.1600w.avif 1600w');
    const small = responsiveImage('/media/products/b.200x100.png', IMAGE_SLOTS.card)!;
    expect([small.src, small.srcset]).toEqual(['/media/products/b.200x100.200w.jpg', '/media/products/b.200x100.200w.jpg 200w']);
  });

  it('leaves alone what has no copies: a generated SVG, an image from before the copies, a copy itself, nothing', () => {
    for (const src of [
      '/media/products/pk-abc.svg',
      'products/pk-abc-lqz1.jpg',
      '/media/products/a.1500x2100.480w.avif',
      '/logos/pokemon.svg',
      'data:image/png;base64,AAAA',
      '',
      null,
      undefined,
    ]) {
      expect(responsiveImage(src, IMAGE_SLOTS.card)).toBeNull();
    }
  });

  it('draws a photo inside its box with its proportions kept', () => {
    expect(containedSize({ width: 1500, height: 2100 }, [64, 64])).toEqual([46, 64]);
    expect(containedSize({ width: 3000, height: 2000 }, [300, 300])).toEqual([300, 200]);
    expect(containedSize({ width: 4000, height: 1000 }, [320, 180])).toEqual([320, 80]);
  });
});
