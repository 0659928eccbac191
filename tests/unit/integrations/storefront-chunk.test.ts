import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Rolldown } from 'vite';
import { CORE_SCRIPT, reachedByCoreScript, storefrontChunk, STOREFRONT_CHUNK } from '~/integrations/storefront-chunk.ts';

const script = (component: string) => `/shop/src/components/${component}.astro?astro&type=script&index=0&lang.ts`;
const HEADER = script('layout/Header');
const CARD = script('catalog/ProductCard');
const DETAIL = script('catalog/ProductDetail');
const EXPLORE = '/shop/src/pages/explore.astro?astro&type=script&index=0&lang.ts';

/** A module graph as the bundler reports it: each module with the modules that import it. */
function graph(importers: Record<string, string[]>) {
  const asked: string[] = [];
  const getModuleInfo = (id: string) => {
    asked.push(id);
    return id in importers ? { importers: importers[id] } : null;
  };
  return { getModuleInfo, asked };
}

describe('the storefront chunk', () => {
  it('takes what the header, the product card and the product page import, directly or further down', () => {
    const { getModuleInfo } = graph({
      '/shop/src/scripts/cart-count.ts': [HEADER],
      '/shop/src/stores/cart.ts': ['/shop/src/scripts/cart-count.ts', '/shop/src/scripts/card-add.ts'],
      '/shop/node_modules/nanostores/atom/index.js': ['/shop/src/stores/cart.ts'],
      '/shop/src/scripts/card-add.ts': [CARD, EXPLORE],
      '/shop/src/scripts/live-stock.ts': [DETAIL],
    });
    for (const id of [
      '/shop/src/scripts/cart-count.ts',
      '/shop/src/stores/cart.ts',
      '/shop/node_modules/nanostores/atom/index.js',
      '/shop/src/scripts/card-add.ts',
      '/shop/src/scripts/live-stock.ts',
    ]) {
      expect(reachedByCoreScript(id, getModuleInfo), id).toBe(true);
    }
  });

  it('leaves what only other scripts and islands import, and the scripts themselves', () => {
    const { getModuleInfo } = graph({
      '/shop/src/domain/singles-facets.ts': [EXPLORE],
      '/shop/src/scripts/swiper-enhance.ts': ['/shop/src/components/catalog/home/HomeSections.astro?astro&type=script&index=0&lang.ts'],
      '/shop/src/islands/checkout/CheckoutApp.tsx': [],
      '/shop/src/stores/checkout.ts': ['/shop/src/islands/checkout/CheckoutApp.tsx'],
      [HEADER]: [],
      [EXPLORE]: [],
    });
    for (const id of ['/shop/src/domain/singles-facets.ts', '/shop/src/scripts/swiper-enhance.ts', '/shop/src/stores/checkout.ts', HEADER, EXPLORE]) {
      expect(reachedByCoreScript(id, getModuleInfo), id).toBe(false);
    }
  });

  it('answers the same through a cycle of imports, whichever module is asked first', () => {
    const cycle = {
      '/shop/src/a.ts': ['/shop/src/b.ts'],
      '/shop/src/b.ts': ['/shop/src/a.ts', '/shop/src/c.ts'],
      '/shop/src/c.ts': [CARD],
      '/shop/src/d.ts': ['/shop/src/e.ts'],
      '/shop/src/e.ts': ['/shop/src/d.ts'],
    };
    for (const order of [
      ['/shop/src/a.ts', '/shop/src/b.ts', '/shop/src/d.ts', '/shop/src/e.ts'],
      ['/shop/src/e.ts', '/shop/src/d.ts', '/shop/src/b.ts', '/shop/src/a.ts'],
    ]) {
      const known = new Map<string, boolean>();
      const { getModuleInfo } = graph(cycle);
      const answers = Object.fromEntries(order.map((id) => [id, reachedByCoreScript(id, getModuleInfo, known)]));
      expect(answers).toEqual({ '/shop/src/a.ts': true, '/shop/src/b.ts': true, '/shop/src/d.ts': false, '/shop/src/e.ts': false });
    }
  });

  it('names the chunk through the bundler, reading each module once per build', () => {
    const group = storefrontChunk();
    if (typeof group.name !== 'function') throw new Error('the group names its chunk per module');
    const nameOf = group.name;
    // The bundler's context, of which the group reads getModuleInfo only.
    const name = (id: string, g: ReturnType<typeof graph>) => nameOf(id, g as unknown as Rolldown.ChunkingContext);
    const first = graph({ '/shop/src/stores/cart.ts': [HEADER], '/shop/src/domain/singles-facets.ts': [EXPLORE] });
    expect(name('/shop/src/stores/cart.ts', first)).toBe(STOREFRONT_CHUNK);
    expect(name('/shop/src/domain/singles-facets.ts', first)).toBeNull();
    expect(name('/shop/src/stores/cart.ts', first)).toBe(STOREFRONT_CHUNK);
    expect(first.asked.filter((id) => id === '/shop/src/stores/cart.ts')).toHaveLength(1);
    // A later build with another graph gets answers of its own.
    const second = graph({ '/shop/src/stores/cart.ts': [EXPLORE] });
    expect(name('/shop/src/stores/cart.ts', second)).toBeNull();
  });

  it('follows scripts that exist: each named component has a <script>', () => {
    for (const component of ['layout/Header', 'catalog/ProductCard', 'catalog/ProductDetail']) {
      const file = `src/components/${component}.astro`;
      expect(fs.readFileSync(file, 'utf8'), file).toMatch(/<script>/);
      expect(CORE_SCRIPT.test(`${process.cwd()}/${file}?astro&type=script&index=0&lang.ts`), file).toBe(true);
    }
    expect(CORE_SCRIPT.test('C:\\shop\\src\\components\\layout\\Header.astro?astro&type=script&index=0&lang.ts')).toBe(true);
    expect(CORE_SCRIPT.test(EXPLORE)).toBe(false);
  });
});
