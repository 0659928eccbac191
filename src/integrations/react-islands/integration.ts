/**
 * @astrojs/react's integration with its server renderer wrapped (./renderer.ts): everything else
 * (the client renderer, the JSX transform, its options) is @astrojs/react's own.
 */
import react from '@astrojs/react';
import type { AstroIntegration } from 'astro';

type ReactOptions = Parameters<typeof react>[0];
type SetupParams = Parameters<NonNullable<AstroIntegration['hooks']['astro:config:setup']>>[0];

/** The server entry that wraps @astrojs/react's renderer. */
export const ISLAND_SERVER_ENTRY = new URL('./server.ts', import.meta.url);

/** `react(options)` with its renderer's server entry replaced by ISLAND_SERVER_ENTRY. */
export function reactIslands(options?: ReactOptions): AstroIntegration {
  const base = react(options);
  const setup = base.hooks['astro:config:setup'];
  return {
    ...base,
    hooks: {
      ...base.hooks,
      'astro:config:setup': (params: SetupParams) =>
        setup?.({
          ...params,
          addRenderer: (renderer) => params.addRenderer(renderer.name === '@astrojs/react' ? { ...renderer, serverEntrypoint: ISLAND_SERVER_ENTRY } : renderer),
        }),
    },
  };
}
