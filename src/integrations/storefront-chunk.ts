/**
 * One browser file for the code the storefront's everyday page scripts share.
 *
 * Each `<script>` of an Astro component (the header's cart badge, the product cards' 'Agregar',
 * the product page's live stock and offers) is its own entry. Left to itself the bundler splits
 * what they share into a file per module: /explore asked for twelve files of 0.3–2 KB (cart,
 * money, pricing, toasts, live stock and offers, nanostores…), each a request with its own 1.4 KB
 * of headers, found one import level after another: the entry, then the cart, then the cart's
 * prices. This group puts every module the scripts of the header (on every page), the product
 * card and the product page reach through static imports into one file, `tienda`, asked for
 * once and kept by the browser for every page after.
 * The other page scripts (listing filters, /explore, the home page's carousels), the islands and
 * their lazy chunks (checkout, account, admin) are split as the bundler splits them; what they
 * share with the scripts above comes from `tienda`, which every page has loaded already.
 */
import type { Rolldown } from 'vite';

/** The name of the shared file (`_astro/tienda.[hash].js`). */
export const STOREFRONT_CHUNK = 'tienda';

/**
 * The scripts the group follows: the header's, the product card's and the product page's, as the
 * bundler names them (`…/src/components/layout/Header.astro?astro&type=script&index=0&lang.ts`).
 */
export const CORE_SCRIPT = /[\\/]src[\\/]components[\\/](?:layout[\\/]Header|catalog[\\/]ProductCard|catalog[\\/]ProductDetail)\.astro\?astro&type=script/;
/** Any component's `<script>`: an entry of its own, never put in the group. */
const COMPONENT_SCRIPT = /\.astro\?astro&type=script/;

type ModuleInfo = Pick<Rolldown.ModuleInfo, 'importers'>;

/**
 * Whether `id` is imported, directly or through other static imports, by a CORE_SCRIPT,
 * without being a component script itself: a walk back through its importers. `getModuleInfo` is the bundler's;
 * `known` keeps each answer for the next question.
 */
export function reachedByCoreScript(id: string, getModuleInfo: (id: string) => ModuleInfo | null, known = new Map<string, boolean>()): boolean {
  const kept = known.get(id);
  if (kept !== undefined) return kept;
  let reached = false;
  if (!COMPONENT_SCRIPT.test(id)) {
    const visited = new Set([id]);
    const toVisit = [id];
    while (!reached && toVisit.length > 0) {
      for (const importer of getModuleInfo(toVisit.pop()!)?.importers ?? []) {
        if (CORE_SCRIPT.test(importer) || known.get(importer) === true) {
          reached = true;
          break;
        }
        if (!visited.has(importer)) {
          visited.add(importer);
          toVisit.push(importer);
        }
      }
    }
  }
  known.set(id, reached);
  return reached;
}

/** The code-splitting group for the client build (astro.config.mjs). */
export function storefrontChunk(): Rolldown.CodeSplittingGroup {
  // Answers kept for one chunking pass (one build), whose context the bundler hands every call.
  const passes = new WeakMap<Rolldown.ChunkingContext, Map<string, boolean>>();
  return {
    name: (id, ctx) => {
      let known = passes.get(ctx);
      if (!known) passes.set(ctx, (known = new Map()));
      return reachedByCoreScript(id, (m) => ctx.getModuleInfo(m), known) ? STOREFRONT_CHUNK : null;
    },
  };
}
