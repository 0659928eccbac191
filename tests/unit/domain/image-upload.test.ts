import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { IMAGE_UPLOAD_ACCEPT, IMAGE_UPLOAD_MAX_BYTES, IMAGE_UPLOAD_MESSAGE, IMAGE_UPLOAD_TYPES, isUploadableImage } from '~/domain/image-upload.ts';

const MIGRATION = new URL('../../../supabase/migrations/20261129000900_product_image_upload_rule.sql', import.meta.url);
/** The bucket's size limit as raised for phone photos. */
const SIZE_MIGRATION = new URL('../../../supabase/migrations/20261129016000_product_image_upload_15mb.sql', import.meta.url);

describe('the image upload rule', () => {
  it('takes PNG, JPG, WebP, SVG and GIF up to 15 MB and nothing else', () => {
    expect(isUploadableImage({ type: 'image/png', size: 1000 })).toBe(true);
    expect(isUploadableImage({ type: 'image/svg+xml', size: IMAGE_UPLOAD_MAX_BYTES })).toBe(true);
    expect(isUploadableImage({ type: 'image/png', size: IMAGE_UPLOAD_MAX_BYTES + 1 })).toBe(false);
    expect(isUploadableImage({ type: 'image/tiff', size: 1000 })).toBe(false);
    expect(isUploadableImage({ type: 'application/pdf', size: 1000 })).toBe(false);
    expect(isUploadableImage({ type: '', size: 1000 })).toBe(false);
    expect(isUploadableImage({ type: 'image/jpeg', size: 12 * 1024 * 1024 })).toBe(true);
    expect(IMAGE_UPLOAD_MAX_BYTES).toBe(15 * 1024 * 1024);
    expect(IMAGE_UPLOAD_MESSAGE).toBe('La imagen debe ser PNG, JPG, WebP, GIF o SVG de hasta 15 MB.');
    expect(IMAGE_UPLOAD_ACCEPT).toBe('image/png,image/jpeg,image/webp,image/svg+xml,image/gif');
  });

  it('is the rule the products bucket enforces on the server', () => {
    const sql = readFileSync(MIGRATION, 'utf8');
    const types = /allowed_mime_types\s*=\s*array\[([^\]]*)\]/.exec(sql)?.[1];
    const limit = /file_size_limit\s*=\s*(\d+)/.exec(readFileSync(SIZE_MIGRATION, 'utf8'))?.[1];
    expect(types?.split(',').map((t) => t.trim().replace(/^'|'$/g, ''))).toEqual([...IMAGE_UPLOAD_TYPES]);
    expect(Number(limit)).toBe(IMAGE_UPLOAD_MAX_BYTES);
    expect(sql).toMatch(/where id = 'products'/);
  });
});
