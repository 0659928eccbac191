/**
 * The header search's matching and index formats live in src/domain/search.ts (pure, shared with
 * the build that writes the shards); re-exported here for the island.
 */
export * from '../../domain/search.ts';
