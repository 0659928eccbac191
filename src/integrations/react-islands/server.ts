/**
 * The server entry Astro loads for React islands: @astrojs/react's renderer, wrapped
 * (./renderer.ts). Named in astro.config.mjs through ./integration.ts.
 */
import react from '@astrojs/react/server.js';
import { islandRenderer, type ServerRenderer } from './renderer.ts';

export default islandRenderer(react as unknown as ServerRenderer);
