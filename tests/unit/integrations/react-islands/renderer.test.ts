import { describe, expect, it } from 'vitest';
import { islandName, islandRenderer, KEPT_PER_COMPONENT, type ServerRenderer } from '~/integrations/react-islands/renderer.ts';

const RENDERER = Symbol.for('astro:renderer');

/** A renderer like @astrojs/react's: HTML from the component and its props, a prefix counted per page; every call recorded. */
function fakeBase() {
  const rendered: string[] = [];
  const checked: string[] = [];
  let counter = 0;
  const base: ServerRenderer = {
    name: '@astrojs/react',
    async check(component) {
      checked.push((component as () => void).name);
      return typeof component === 'function';
    },
    async renderToStaticMarkup(component, props) {
      await Promise.resolve();
      rendered.push((component as () => void).name);
      return { html: `<div>${(component as () => void).name} ${JSON.stringify(props)}</div>`, attrs: { prefix: `r${counter++}` } };
    },
  };
  return { base, rendered, checked };
}

function SearchBox() {}
function Gallery() {}
const meta = (url: string) => ({ componentUrl: url, componentExport: { value: 'default' }, hydrate: 'interaction' });
const SEARCH = meta('/shop/src/islands/header-search/SearchBox.tsx');
const GALLERY = meta('/shop/src/islands/product/Gallery.tsx');

describe('the islands renderer', () => {
  it('renders an island given only plain values once, and hands its HTML out on every page after', async () => {
    const { base, rendered } = fakeBase();
    const renderer = islandRenderer(base);
    const props = { 'data-astro-cid-isef26zo': '' };
    const first = await renderer.renderToStaticMarkup.call({ result: {} }, SearchBox, { ...props }, {}, SEARCH);
    const again = await renderer.renderToStaticMarkup.call({ result: {} }, SearchBox, { ...props }, {}, SEARCH);
    expect(again.html).toBe(first.html);
    expect(rendered).toEqual(['SearchBox']);
    // Other plain values are another set, kept apart.
    const other = await renderer.renderToStaticMarkup.call({ result: {} }, SearchBox, { 'data-astro-cid-oenwriqq': '' }, {}, SEARCH);
    expect(other.html).not.toBe(first.html);
    expect(rendered).toEqual(['SearchBox', 'SearchBox']);
  });

  it('renders every time an island given an object, children or slots', async () => {
    const { base, rendered } = fakeBase();
    const renderer = islandRenderer(base);
    for (let i = 0; i < 2; i++) {
      await renderer.renderToStaticMarkup.call({ result: {} }, Gallery, { images: ['/a.jpg'] }, {}, GALLERY);
      await renderer.renderToStaticMarkup.call({ result: {} }, SearchBox, {}, { default: '<p>x</p>' }, SEARCH);
    }
    expect(rendered).toEqual(['Gallery', 'SearchBox', 'Gallery', 'SearchBox']);
  });

  it('keeps at most a few sets of values per component', async () => {
    const { base, rendered } = fakeBase();
    const renderer = islandRenderer(base);
    const ids = Array.from({ length: KEPT_PER_COMPONENT + 3 }, (_, i) => `p${i}`);
    for (const round of [1, 2])
      for (const id of ids) await renderer.renderToStaticMarkup.call({ result: {} }, Gallery, { productId: id, round: round > 0 }, {}, GALLERY);
    // The second round rendered only the sets past the limit again.
    expect(rendered).toHaveLength(ids.length + 3);
  });

  it('names each island by its component and its count on the page, whatever was rendered or kept before', async () => {
    const { base } = fakeBase();
    const renderer = islandRenderer(base);
    const page = async () => {
      const result = {};
      const prefixes: unknown[] = [];
      for (const [component, metadata] of [
        [SearchBox, SEARCH],
        [Gallery, GALLERY],
        [SearchBox, SEARCH],
      ] as const)
        prefixes.push((await renderer.renderToStaticMarkup.call({ result }, component, {}, {}, metadata)).attrs?.prefix);
      return prefixes;
    };
    const first = await page();
    const second = await page();
    expect(second).toEqual(first);
    const search = `r${islandName(SearchBox, SEARCH)}`;
    expect(first).toEqual([search, `r${islandName(Gallery, GALLERY)}`, `${search}-1`]);
    expect(new Set(first).size).toBe(3);
  });

  it('asks the base renderer once whether a component is React, then tags it as Astro does', async () => {
    const { base, checked } = fakeBase();
    const renderer = islandRenderer(base);
    expect(await renderer.check.call({ result: {} }, Gallery, {}, {}, GALLERY)).toBe(true);
    expect((Gallery as unknown as Record<symbol, string>)[RENDERER]).toBe('@astrojs/react');
    expect(checked).toEqual(['Gallery']);
    expect(await renderer.check.call({ result: {} }, 'not a component', {}, {}, undefined)).toBe(false);
  });

  it('names a component by its module and export, the same in any process', () => {
    expect(islandName(SearchBox, SEARCH)).toBe(islandName(function other() {}, SEARCH));
    expect(islandName(SearchBox, SEARCH)).not.toBe(islandName(SearchBox, GALLERY));
    expect(islandName(SearchBox, { ...SEARCH, componentExport: { value: 'Named' } })).not.toBe(islandName(SearchBox, SEARCH));
    expect(islandName(SearchBox, undefined)).toBe(islandName(SearchBox, {}));
    expect(islandName(SearchBox, SEARCH)).toMatch(/^[0-9a-z]+$/);
  });
});
