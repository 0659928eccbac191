/**
 * Prerendered pages rendered to a string, not a stream.
 *
 * Astro renders a page it prerenders as one string and encodes it once, unless the site also has
 * server-rendered routes (an adapter: `manifest.serverLike`, which this shop is). Then each
 * prerendered page goes through the stream Astro sends on-request pages through: every chunk encoded on
 * its own into a web stream, and the build reads the stream back into one buffer before it writes
 * the file. Nobody reads a prerendered page while it renders, so the stream buys nothing there; at
 * 100,000 product pages it was a tenth of a build part's CPU (the stream read back and the
 * encoding of its chunks, docs/benchmarks.md). This plugin changes the one line of Astro's build
 * environment that decides it (`defaultStreaming`), in the prerender bundle only; pages rendered by
 * the running server are not streamed either (the adapter's `experimentalDisableStreaming`,
 * astro.config.mjs). The HTML is the same either way (a product page edited by the
 * server is compared byte for byte with the full build's, tests/unit/server/rebuild/fast-edit.test.ts).
 * If Astro's line changes, the build fails here rather than quietly streaming again.
 */
import type { Plugin } from 'vite';

/** The module of Astro's build environment (prerendering) and the line this plugin replaces. */
const BUILD_ENVIRONMENT = /[\\/]astro[\\/]dist[\\/]core[\\/]build[\\/]environment\.js$/;
export const STREAMING_LINE = 'defaultStreaming: (manifest) => manifest.serverLike';
const NOT_STREAMING = 'defaultStreaming: () => false';

/** The build environment's source with prerendered pages rendered to strings; throws if the line is not there. */
export function withoutPrerenderStreaming(code: string): string {
  if (!code.includes(STREAMING_LINE)) throw new Error(`prerender-strings: Astro's build environment no longer has "${STREAMING_LINE}"`);
  return code.replace(STREAMING_LINE, NOT_STREAMING);
}

/** The Vite plugin: rewrites Astro's build environment module wherever it is bundled. */
export function prerenderStrings(): Plugin {
  return {
    name: 'tienda:prerender-strings',
    transform(code, id) {
      return BUILD_ENVIRONMENT.test(id.split('?')[0]!) ? { code: withoutPrerenderStreaming(code), map: null } : null;
    },
  };
}
