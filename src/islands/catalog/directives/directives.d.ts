import 'astro';

declare module 'astro' {
  interface AstroClientDirectives {
    /** Hydrate on the first pointer, touch, focus or key interaction with the island. */
    'client:interaction'?: boolean;
    /** Hydrate when this window event is first dispatched. */
    'client:event'?: string;
  }
}
