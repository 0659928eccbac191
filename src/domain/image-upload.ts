/**
 * The one rule for the images admins upload (product photos, a slab's photos): the types and the
 * size the storage takes. The browser's forms check a file with it before uploading, and the
 * `products` bucket refuses anything else (its allowed_mime_types and file_size_limit, set by
 * supabase/migrations/20261129000900_product_image_upload_rule.sql, the size raised to 15 MB by
 * 20261129016000_product_image_upload_15mb.sql; a unit test holds them equal).
 */
import { VARIANT_SOURCE_MAX_BYTES } from './image-variants.ts';
import { ADMIN_IMAGE_UPLOAD_TEXT } from '../i18n/media.ts';

/** The image types the shop takes, as the browser reports a file's type. */
export const IMAGE_UPLOAD_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'image/svg+xml', 'image/gif'] as const;

/** The largest image the shop takes: 15 MB, the largest original its copies are made from. */
export const IMAGE_UPLOAD_MAX_BYTES = VARIANT_SOURCE_MAX_BYTES;

/** The `accept` of the file inputs that take an image. */
export const IMAGE_UPLOAD_ACCEPT = IMAGE_UPLOAD_TYPES.join(',');

/** What the admin reads when a file breaks the rule. */
export const IMAGE_UPLOAD_MESSAGE = ADMIN_IMAGE_UPLOAD_TEXT.refused;

/** Whether a file is an image the shop takes: one of its types, at most 15 MB. */
export function isUploadableImage(file: { type: string; size: number }): boolean {
  return (IMAGE_UPLOAD_TYPES as readonly string[]).includes(file.type) && file.size <= IMAGE_UPLOAD_MAX_BYTES;
}
