/** The copies of an uploaded photo (src/server/admin/media-variants.ts, src/islands/admin/ImageUpload.tsx). */

/** The answers of POST /api/admin/media/variants, shown to the admin under the image input. */
export const ADMIN_MEDIA_VARIANTS_TEXT = {
  notAnImage: 'El archivo no es una imagen válida. Sube una foto PNG, JPG, WebP o GIF.',
  tooLarge: 'La imagen pesa más de 15 MB o tiene demasiados píxeles. Sube una foto más ligera.',
  invalidPath: 'La imagen indicada no es válida.',
  notFound: 'No se encontró la imagen subida. Súbela de nuevo.',
  alreadyMade: 'Esta imagen ya tiene sus copias.',
  adminsOnly: 'Solo un administrador puede subir imágenes.',
  failed: 'No se pudieron preparar las copias de la imagen. Intenta de nuevo.',
  removeFailed: 'No se pudo borrar la imagen anterior. Intenta de nuevo.',
} as const;

/** What the admin reads when an image breaks the upload rule (src/domain/image-upload.ts). */
export const ADMIN_IMAGE_UPLOAD_TEXT = {
  refused: 'La imagen debe ser PNG, JPG, WebP, GIF o SVG de hasta 15 MB.',
} as const;
