import { describe, expect, it } from 'vitest';
import { resolveImage, storagePublicBase } from '~/domain/images';

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
