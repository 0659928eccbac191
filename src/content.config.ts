/**
 * Content collections of the shop. Help pages are Markdown files in the repository; the catalogue
 * collections are filled at build time from a Supabase snapshot merged with the static catalogue.
 */
import { defineCollection } from 'astro:content';
import { glob } from 'astro/loaders';
import { z } from 'astro/zod';

const help = defineCollection({
  loader: glob({ pattern: '*.md', base: './src/content/help' }),
  schema: z.object({
    title: z.string(),
    description: z.string(),
    order: z.number().optional(),
  }),
});

export const collections = { help };
