/**
 * Registers the shop's custom hydration directives (see ./interaction.ts and ./event.ts).
 */
import { fileURLToPath } from 'node:url';
import type { AstroIntegration } from 'astro';

/** The Astro integration that adds `client:interaction` and `client:event`. */
export function catalogDirectives(): AstroIntegration {
  return {
    name: 'tienda-client-directives',
    hooks: {
      'astro:config:setup': ({ addClientDirective }) => {
        addClientDirective({ name: 'interaction', entrypoint: fileURLToPath(new URL('./interaction.ts', import.meta.url)) });
        addClientDirective({ name: 'event', entrypoint: fileURLToPath(new URL('./event.ts', import.meta.url)) });
      },
    },
  };
}
