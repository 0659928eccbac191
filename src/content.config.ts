/**
 * Content collections of the shop. Help pages are Markdown files in the repository; the catalogue
 * collections (franchises, collections, expansions, types) are filled at build time from a
 * Supabase snapshot merged with the static catalogue (src/server/snapshot), read once per build
 * and shared by all of them. Products are not a collection: the pages read them from the same
 * snapshot (getBuildCatalog), so 100,000 of them are not copied into the content store.
 */
import { defineCollection } from 'astro:content';
import { glob, type Loader } from 'astro/loaders';
import { z } from 'astro/zod';
import { sharedCatalogSnapshot } from '~/server/snapshot/loader.ts';
import type { CatalogSnapshot } from '~/server/snapshot/model.ts';

const help = defineCollection({
  loader: glob({ pattern: '*.md', base: './src/content/help' }),
  schema: z.object({
    title: z.string(),
    description: z.string(),
    order: z.number().optional(),
  }),
});

type SnapshotKey = 'franchises' | 'collections' | 'expansions' | 'productTypes';

// Entries keep the snapshot's order in `position`, since the store itself is keyed by id.
function snapshotLoader(key: SnapshotKey): Loader {
  return {
    name: `catalog-snapshot-${key}`,
    load: async ({ store, logger, generateDigest }) => {
      const snapshot: CatalogSnapshot = await sharedCatalogSnapshot(logger);
      store.clear();
      snapshot[key].forEach((item, position) => {
        const data = { ...item, position } as Record<string, unknown>;
        store.set({ id: item.id, data, digest: generateDigest(data) });
      });
    },
  };
}

const position = { position: z.number().int() };

const franchises = defineCollection({
  loader: snapshotLoader('franchises'),
  schema: z.object({ id: z.string(), name: z.string(), logo: z.string(), ...position }),
});

const collections_ = defineCollection({
  loader: snapshotLoader('collections'),
  schema: z.object({ id: z.string(), name: z.string(), franchiseId: z.string(), ...position }),
});

const expansions = defineCollection({
  loader: snapshotLoader('expansions'),
  schema: z.object({
    id: z.string(),
    name: z.string(),
    franchiseId: z.string(),
    collectionId: z.string().nullable(),
    image: z.string(),
    releaseDate: z.string().nullable(),
    ...position,
  }),
});

const productTypes = defineCollection({
  loader: snapshotLoader('productTypes'),
  schema: z.object({ id: z.string(), name: z.string(), franchiseId: z.string(), image: z.string(), ...position }),
});

export const collections = { help, franchises, collections: collections_, expansions, productTypes };
