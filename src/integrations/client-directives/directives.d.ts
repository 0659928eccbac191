import 'astro';

declare module 'astro' {
  interface AstroClientDirectives {
    /**
     * Hydrate on the first pointer, touch, focus or key interaction with the island; with a
     * value, also when that window event is first dispatched.
     */
    'client:interaction'?: boolean | string;
    /** Hydrate when this window event is first dispatched. */
    'client:event'?: string;
  }
}
