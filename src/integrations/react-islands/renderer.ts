/**
 * The React renderer of the shop's islands, around @astrojs/react's: the same HTML, with less work
 * for what is the same on every page.
 *
 * - **Islands given only plain values render once per process for each set of them.** The
 *   header's search, account menu and hearts, the footer's newsletter form and the toaster take no
 *   props but a scoped-style attribute, and read no request: their HTML is the same on every page,
 *   so the first render's is kept and handed out again (a product page has seven islands; five
 *   are these). An island given an object (a product), children or slots renders every time.
 * - **Astro asks once whether a component is React's.** Without a tag, Astro renders each island
 *   one more time to find its framework (`check`); the first answer tags the component, as Astro's
 *   own tagged components are, so it is not asked again.
 * - **Each island's `prefix` (the prefix of its React ids, which the client hydrates with) names
 *   its component**, and the component's how-manieth island it is on the page: `r` and a short hash
 *   of the component's module and export. Counting every island of a page in the order they reach
 *   the renderer, as @astrojs/react does, numbers them by timing: an island whose HTML is kept, or
 *   a component already tagged, reaches it sooner than one rendered or checked, so the first page
 *   a process renders would be numbered unlike the next. Named by component, a page's islands have
 *   the same prefixes in any process, whatever it rendered before (an edit's pages in the server
 *   are compared byte for byte with the full build's).
 */

/** What Astro passes to a renderer as `this`: the page's render result, one object per page. */
interface RendererContext {
  result?: object;
}

type Render = (
  this: RendererContext | undefined,
  component: unknown,
  props: Record<string, unknown>,
  slots: Record<string, unknown>,
  metadata?: unknown,
) => Promise<{ html: string; attrs?: Record<string, unknown> }>;
type Check = (this: RendererContext | undefined, component: unknown, props: Record<string, unknown>, children: unknown, metadata?: unknown) => Promise<boolean>;

/** The part of an Astro server renderer this wraps. */
export interface ServerRenderer {
  name: string;
  check: Check;
  renderToStaticMarkup: Render;
  supportsAstroStaticSlot?: boolean;
}

/** Astro's mark of a component whose renderer is known (`Renderer` in astro/runtime/server). */
const RENDERER = Symbol.for('astro:renderer');
/** The start of every prefix, as @astrojs/react's. */
const ID_PREFIX = 'r';
/**
 * The most sets of values kept per component: a component given a different value on each page
 * (a product's id) keeps its first few and renders the rest, instead of holding one HTML per page.
 */
export const KEPT_PER_COMPONENT = 8;

/**
 * The key of an island whose HTML can only be what its component makes of a few plain values (a
 * scoped-style attribute such as `data-astro-cid-…`, which Astro adds to every component of a
 * component with scoped styles): its props as text. Null when a prop holds an object or a
 * function, or the island has children or slots: it renders every time.
 */
function plainKey(props: Record<string, unknown>, slots: Record<string, unknown>): string | null {
  if (Object.keys(slots ?? {}).length > 0) return null;
  let key = '';
  for (const [name, value] of Object.entries(props)) {
    if (name === 'class') continue;
    if (value !== null && typeof value === 'object') return null;
    if (typeof value === 'function' || typeof value === 'symbol') return null;
    key += `${JSON.stringify(name)}:${typeof value}:${String(value)}\n`;
  }
  return key;
}

/**
 * A short name of an island's component for its prefix: a hash (FNV-1a, base 36) of its module
 * and export as Astro gives them (the same in the build and the server), or of the function's name.
 */
export function islandName(component: unknown, metadata: unknown): string {
  const meta = (metadata ?? {}) as { componentUrl?: unknown; componentExport?: { value?: unknown } };
  const source =
    typeof meta.componentUrl === 'string'
      ? `${meta.componentUrl}#${String(meta.componentExport?.value ?? 'default')}`
      : typeof component === 'function'
        ? component.name
        : String(component);
  let hash = 0x811c9dc5;
  for (let i = 0; i < source.length; i++) {
    hash ^= source.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(36);
}

/** The renderer `base` with the HTML of islands given only plain values kept, components tagged after their first check, and prefixes counted per page. */
export function islandRenderer(base: ServerRenderer): ServerRenderer {
  const kept = new WeakMap<object, Map<string, string>>();
  const counted = new WeakMap<object, Map<string, number>>();
  const named = new WeakMap<object, string>();
  const nameOf = (component: unknown, metadata: unknown): string => {
    const known = typeof component === 'function' ? named.get(component) : undefined;
    if (known !== undefined) return known;
    const name = islandName(component, metadata);
    if (typeof component === 'function') named.set(component, name);
    return name;
  };
  const nextPrefix = (result: object | undefined, name: string): string | undefined => {
    if (!result) return undefined;
    let seen = counted.get(result);
    if (!seen) counted.set(result, (seen = new Map()));
    const n = seen.get(name) ?? 0;
    seen.set(name, n + 1);
    return n === 0 ? `${ID_PREFIX}${name}` : `${ID_PREFIX}${name}-${n}`;
  };
  return {
    ...base,
    async check(component, props, children, metadata) {
      const ours = await base.check.call(this, component, props, children, metadata);
      if (ours && typeof component === 'function') (component as unknown as Record<symbol, string>)[RENDERER] = base.name;
      return ours;
    },
    async renderToStaticMarkup(component, props, slots, metadata) {
      const prefix = nextPrefix(this?.result, nameOf(component, metadata));
      const key = typeof component === 'function' ? plainKey(props, slots) : null;
      const known = key === null ? undefined : kept.get(component as object);
      const html = key === null ? undefined : known?.get(key);
      if (html !== undefined) return { html, attrs: { prefix } };
      const made = await base.renderToStaticMarkup.call(this, component, props, slots, metadata);
      const attrs = { ...made.attrs, prefix };
      // Anything beyond the prefix (a form action's result) belongs to this request alone.
      if (key !== null && Object.keys(made.attrs ?? {}).every((name) => name === 'prefix')) {
        if (known) {
          if (known.size < KEPT_PER_COMPONENT) known.set(key, made.html);
        } else kept.set(component as object, new Map([[key, made.html]]));
      }
      return { html: made.html, attrs };
    },
  };
}
