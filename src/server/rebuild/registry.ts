/**
 * Where the running server's rebuilds meet the rebuild endpoint: scripts/serve.mjs registers its
 * SharedRebuilds here (through the bundled runtime), and /api/admin/rebuild finds them.
 */
import type { Rebuilds } from './types.ts';

const REGISTRY_KEY = Symbol.for('tienda-cartas.rebuilds');

/**
 * Makes the server's rebuilds reachable from the bundled endpoint: scripts/serve.mjs and the
 * Astro server bundle load separate copies of this module, so they meet on globalThis.
 */
export function registerRebuilds(rebuilds: Rebuilds | null): void {
  (globalThis as Record<symbol, unknown>)[REGISTRY_KEY] = rebuilds ?? undefined;
}

/** The registered rebuilds, or null when the shop runs without rebuild support (e.g. astro dev). */
export function registeredRebuilds(): Rebuilds | null {
  const value = (globalThis as Record<symbol, unknown>)[REGISTRY_KEY];
  return value && typeof value === 'object' ? (value as Rebuilds) : null;
}
