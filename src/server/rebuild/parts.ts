/**
 * A full build of a large catalogue in parts, one `astro build` process per part, so the product
 * pages (almost all of a big build's time: about 1.7 ms of one core each) render on every core at
 * once. Each part bundles the same code and renders its share of the product pages; part 0 also
 * renders everything else (listings, search shards, feeds, the fixed pages) and writes the
 * build's manifest. The other parts' output is then moved into part 0's folder and the sitemap
 * completed with their pages.
 */
import fs from 'node:fs';
import path from 'node:path';
import { productPath } from '~/domain/routes.ts';

/** The environment variable that tells a build which part it is: "k/n". */
export const PART_ENV = 'CATALOG_RENDER_PART';

/** Part k of n, read as k/n (e.g. 1/2); null when the value is missing or malformed (the whole build). */
export function parsePart(value: string | undefined): { index: number; count: number } | null {
  const match = /^(\d+)\/(\d+)$/.exec(value?.trim() ?? '');
  if (!match) return null;
  const index = Number(match[1]);
  const count = Number(match[2]);
  return count > 1 && index < count ? { index, count } : null;
}

/** FNV-1a of a string: a stable, even spread of product ids over the parts. */
function spread(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/**
 * Part 0's share of the product pages, against an even share: it also renders the listings, the
 * search shards and the feeds (about a fifth of its time at 100,000 products), so it takes fewer
 * product pages and the parts finish together.
 */
export const FIRST_PART_SHARE = 0.8;

const BUCKETS = 1000;

/** The part that renders the product page of `id` out of `count`. */
export function productPart(id: string, count: number): number {
  const bucket = spread(id) % BUCKETS;
  const first = Math.floor((BUCKETS / count) * FIRST_PART_SHARE);
  if (bucket < first) return 0;
  return 1 + Math.min(count - 2, Math.floor(((bucket - first) * (count - 1)) / (BUCKETS - first)));
}

/**
 * Whether a part renders the catalogue file at `urlPath`: a product page goes to one part by its
 * id (part 0 a smaller share); every other file to part 0.
 */
export function partRenders(part: { index: number; count: number } | null, urlPath: string): boolean {
  if (!part) return true;
  const prefix = productPath('');
  if (!urlPath.startsWith(prefix)) return part.index === 0;
  return rendersProduct(part, urlPath.slice(prefix.length));
}

/** Whether `part` renders the page of product `id`. */
export function rendersProduct(part: { index: number; count: number }, id: string): boolean {
  return productPart(id, part.count) === part.index;
}

/** The output folder of part k of a build into `outDir`: part 0 builds into outDir itself. */
export function partOutDir(outDir: string, index: number): string {
  return index === 0 ? outDir : `${outDir}-part${index}`;
}

/**
 * Set for the parts past the first: the time part 0 started (ISO). Such a part reads the catalogue
 * copy part 0 saved on disk when it is at least that recent, instead of reading the backend
 * again, so every part renders the same catalogue (src/server/snapshot/loader.ts).
 */
export const PART_SNAPSHOT_SINCE_ENV = 'CATALOG_PART_SNAPSHOT_SINCE';

/**
 * The environment of part k of n: its output folder and part; only part 0 writes the manifest,
 * which describes the whole catalogue whatever each part rendered; the others read the catalogue
 * part 0 read (`since`: when part 0 started).
 */
export function partEnv(env: NodeJS.ProcessEnv, outDir: string, index: number, count: number, since: Date = new Date()): NodeJS.ProcessEnv {
  const own: NodeJS.ProcessEnv = { ...env, ASTRO_OUT_DIR: partOutDir(outDir, index), [PART_ENV]: `${index}/${count}` };
  delete own[PART_SNAPSHOT_SINCE_ENV];
  if (index > 0) {
    delete own.CATALOG_BUILD_MANIFEST;
    own[PART_SNAPSHOT_SINCE_ENV] = since.toISOString();
  }
  return own;
}

/**
 * Moves what `fromClient` has and `toClient` lacks into `toClient` (whole folders at once when the
 * target has none of them; files part 0 also wrote, such as the fixed pages and the hashed assets
 * every part bundles alike, stay as part 0 wrote them). Returns the URL paths of the pages moved
 * (`/product/x` for `product/x/index.html`), for the sitemap.
 */
export function mergePart(fromClient: string, toClient: string): string[] {
  const pages: string[] = [];
  const collectPages = (dir: string, rel: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const child = `${rel}/${entry.name}`;
      if (entry.isDirectory()) collectPages(path.join(dir, entry.name), child);
      else if (entry.name === 'index.html') pages.push(rel === '' ? '/' : rel);
    }
  };
  const walk = (from: string, to: string, rel: string) => {
    for (const entry of fs.readdirSync(from, { withFileTypes: true })) {
      const source = path.join(from, entry.name);
      const target = path.join(to, entry.name);
      const child = `${rel}/${entry.name}`;
      const existing = fs.lstatSync(target, { throwIfNoEntry: false });
      if (!existing) {
        if (entry.isDirectory()) collectPages(source, child);
        else if (entry.name === 'index.html') pages.push(rel === '' ? '/' : rel);
        fs.renameSync(source, target);
      } else if (entry.isDirectory() && existing.isDirectory()) {
        walk(source, target, child);
      }
    }
  };
  walk(fromClient, toClient, '');
  return pages.sort();
}
