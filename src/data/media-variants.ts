/**
 * After the back office uploads a photo (src/data/storage.ts), the shop's server makes its copies
 * (POST /api/admin/media/variants, src/server/admin/media-variants.ts) and keeps the original under
 * its name with its size, the path to store in the row; a refusal or a failure removes the upload,
 * so no original without its copies stays in the bucket. Images a product or an offer no longer
 * uses go with their copies (POST /api/admin/media/remove).
 */
import * as z from 'zod/mini';
import { ADMIN_MEDIA_VARIANTS_TEXT } from '~/i18n/media.ts';
import { safeCallApi } from './api.ts';
import { removeProductImage } from './storage.ts';

const madeAnswer = z.looseObject({ path: z.string(), variants: z.array(z.looseObject({ path: z.string() })) });
const removedAnswer = z.looseObject({ removed: z.array(z.string()) });

/** Makes the copies of the original just uploaded as `path` ('products/<object>'): the path to store, or the Spanish message (and the upload is removed). */
export async function makeImageVariants(path: string): Promise<{ path: string; error: null } | { path: null; error: string }> {
  const answer = await safeCallApi(`/api/admin/media/variants`, { method: 'POST', body: { path }, schema: madeAnswer });
  if (answer.ok && answer.data) return { path: answer.data.path, error: null };
  await removeProductImage(path.replace(/^products\//, '')).catch(() => undefined);
  return { path: null, error: answer.message ?? ADMIN_MEDIA_VARIANTS_TEXT.failed };
}

/** Removes, with their copies, the uploaded images ('products/…') a saved product or offer no longer uses; other paths are left alone. Null when done, else the Spanish message. */
export async function removeUnusedImages(paths: readonly string[]): Promise<string | null> {
  const uploaded = [...new Set(paths.filter((path) => /^products\/[A-Za-z0-9][A-Za-z0-9._-]*$/.test(path)))];
  if (uploaded.length === 0) return null;
  const answer = await safeCallApi(`/api/admin/media/remove`, { method: 'POST', body: { paths: uploaded }, schema: removedAnswer });
  return answer.ok ? null : (answer.message ?? ADMIN_MEDIA_VARIANTS_TEXT.removeFailed);
}
