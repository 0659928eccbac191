/**
 * After the back office uploads a photo (src/data/storage.ts), the shop's server makes its copies
 * (POST /api/admin/media/variants, src/server/admin/media-variants.ts); a refusal or a failure
 * removes the upload, so no original without its copies stays in the bucket.
 */
import * as z from 'zod/mini';
import { ADMIN_MEDIA_VARIANTS_TEXT } from '~/i18n/media.ts';
import { safeCallApi } from './api.ts';
import { removeProductImage } from './storage.ts';

const madeAnswer = z.looseObject({ variants: z.array(z.looseObject({ path: z.string() })) });

/** Makes the copies of the original just uploaded as `path` ('products/<object>'): null when made, else the Spanish message (and the upload is removed). */
export async function makeImageVariants(path: string): Promise<string | null> {
  const answer = await safeCallApi(`/api/admin/media/variants`, { method: 'POST', body: { path }, schema: madeAnswer });
  if (answer.ok) return null;
  await removeProductImage(path.replace(/^products\//, '')).catch(() => undefined);
  return answer.message ?? ADMIN_MEDIA_VARIANTS_TEXT.failed;
}
