import { describe, expect, it } from 'vitest';
import { resolveImage, storagePublicBase } from '../../../src/domain/images';

const BASE = 'https://abc.supabase.co';

describe('resolveImage', () => {
  it('resolves relative paths against the public storage: first segment is the bucket', () => {
    expect(resolveImage('products/x.svg', BASE)).toBe(
      'https://abc.supabase.co/storage/v1/object/public/products/x.svg',
    );
    expect(resolveImage('expansions/destined-rivals.svg', 'http://127.0.0.1:54321/')).toBe(
      'http://127.0.0.1:54321/storage/v1/object/public/expansions/destined-rivals.svg',
    );
    expect(resolveImage('./product-types/tin.svg', BASE)).toBe(
      'https://abc.supabase.co/storage/v1/object/public/product-types/tin.svg',
    );
  });

  it('encodes unsafe characters in object names once', () => {
    expect(resolveImage('products/caja sobres #1.svg', BASE)).toBe(
      'https://abc.supabase.co/storage/v1/object/public/products/caja%20sobres%20%231.svg',
    );
    expect(resolveImage('products/caja%20sobres.svg', BASE)).toBe(
      'https://abc.supabase.co/storage/v1/object/public/products/caja%20sobres.svg',
    );
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
