/**
 * POST /api/internal/catalog-edit: the running server publishes a catalogue edit itself
 * (fast-edit.ts). Only the shop's own servers call it (the builder, through fast-edit-client.ts):
 * the bearer token is the service role key. Its pages are rendered by this same process's render
 * routes (src/pages/catalog-render/), asked for over the address the call came in on.
 */
import path from 'node:path';
import { z } from 'zod';
import { PRODUCT_ID_PATTERN } from '~/domain/products.ts';
import { API_FAST_EDIT_OPERATOR_TEXT } from '~/i18n/api.ts';
import { EXPLORE_CATALOG_PATH, EXPLORE_EDITS_PATH } from '../explore/catalog-edits.ts';
import { requireShopServer } from '../http/auth.ts';
import { json, readJson } from '../http/json.ts';
import { SNAPSHOT_FILE } from '../snapshot/disk.ts';
import { buildTimeClient, fetchProductRows } from '../snapshot/fetch.ts';
import { backendFromEnv } from '../snapshot/loader.ts';
import { projectUrl } from '../supabase.ts';
import { adoptServedManifest, publishEdit, type FastEditResult } from './fast-edit.ts';
import { DEFAULT_MAX_CHANGED, fileForPath } from './incremental.ts';
import { dropRenderJob, putRenderJob, RENDER_TOKEN_HEADER, type RenderJob } from './render-jobs.ts';
import { currentBuild } from './served-folder.ts';

/** /explore's catalogue and its edits in the served folder, as FastEditResult.written names them. */
const EXPLORE_FILES = [EXPLORE_CATALOG_PATH, EXPLORE_EDITS_PATH].map(fileForPath);

// No ids: read the served catalogue now, so that the next edit finds it ready.
// adopt: the incremental build that wrote an edit's search files is taken as this server's catalogue.
const EditRequest = z.object({ productIds: z.array(z.string().regex(PRODUCT_ID_PATTERN)).max(DEFAULT_MAX_CHANGED), adopt: z.boolean().optional() });

/** A page from its render route on this server, at `origin`. */
export async function renderThrough(origin: string, job: RenderJob): Promise<string> {
  const token = putRenderJob(job);
  try {
    // identity: the page as the build writes it, not compressed for the wire.
    const response = await fetch(`${origin}/catalog-render/${job.kind}`, { headers: { [RENDER_TOKEN_HEADER]: token, 'accept-encoding': 'identity' } });
    const text = await response.text();
    if (response.status !== 200) throw new Error(API_FAST_EDIT_OPERATOR_TEXT.renderFailed(job.path, response.status));
    return text;
  } finally {
    dropRenderJob(token);
  }
}

/**
 * How long an edit waits, at most, for this server's /explore to have read it before it makes the
 * header search's files (a database slow to answer /explore's read must not hold the edit up).
 */
export const EXPLORE_WAIT_MS = 2000;

/**
 * The endpoint: `{ productIds }` in, the FastEditResult out. `exploreWritten` is told once when
 * the edit has written /explore's catalogue or its edits (this server's /explore then reads it at
 * once, and prepares its search), without waiting for the rest of the edit. The edit makes the
 * header search's files once what it returns has settled (at most EXPLORE_WAIT_MS): at 100,000
 * products both take the server's one thread, and /explore read the edit over a second later
 * while the header search's update ran in its slices (run BG, 2026-12-01).
 */
export async function postCatalogEdit(
  request: Request,
  serviceRoleKey: string | undefined,
  supabaseUrl: string | undefined,
  exploreWritten: () => void | Promise<unknown> = () => {},
): Promise<Response> {
  requireShopServer(request, serviceRoleKey);
  const { productIds, adopt } = await readJson(request, EditRequest, false, 64 * 1024);
  const outDir = process.env.SHOP_OUT_DIR;
  const servedClient = outDir ? currentBuild(outDir) : null;
  if (adopt && servedClient && productIds.length === 0 && (await adoptServedManifest({ servedClient }))) {
    return json({ mode: 'fast', written: [], removed: [], ms: 0, steps: {}, searchFollows: false } satisfies FastEditResult);
  }
  const backend = backendFromEnv();
  if (!servedClient || !backend) return json({ mode: 'fallback', reason: API_FAST_EDIT_OPERATOR_TEXT.notServing } satisfies FastEditResult);
  const origin = new URL(request.url).origin;
  const client = buildTimeClient(backend);
  // Told once: as soon as the edit has written /explore's files, before its header search files.
  let told = false;
  const tell = async (written: readonly string[]) => {
    if (told || !written.some((file) => EXPLORE_FILES.includes(file))) return;
    told = true;
    let timer: NodeJS.Timeout | undefined;
    const waited = new Promise<void>((resolve) => (timer = setTimeout(resolve, EXPLORE_WAIT_MS)));
    await Promise.race([Promise.resolve(exploreWritten()).catch(() => {}), waited]);
    clearTimeout(timer);
  };
  const result = await publishEdit(productIds, {
    servedClient,
    snapshotFile: path.resolve(process.env.CATALOG_SNAPSHOT_FILE || SNAPSHOT_FILE),
    readRows: (ids) => fetchProductRows(client, ids, false),
    render: (job) => renderThrough(origin, job),
    storageUrl: projectUrl(supabaseUrl),
    published: tell,
  });
  if (result.mode === 'fast') void tell(result.written);
  return json(result);
}
