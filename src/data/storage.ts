/**
 * Supabase Storage from the browser: product images in the public 'products' bucket (row-level
 * security lets only admins write). Paths handed back are relative ('products/<object>') and are
 * resolved against the project's public storage wherever they are shown.
 */
import { resolveImage } from '~/domain/images.ts';
import { getSupabase, supabaseUrl } from './supabase.ts';

/** The URL of a stored image path ('products/…'), resolved against the project's public storage. */
export function storedImageUrl(src: string | null | undefined): string {
  return resolveImage(src, supabaseUrl());
}

const BUCKET = 'products';

/** A storage refusal: whether the caller lacks the rights (not an admin). */
export interface StorageFailure {
  forbidden: boolean;
  message: string;
}

/** Whether a storage or database error is a permissions refusal (row-level security). */
export function isForbidden(error: { message?: string; code?: string; statusCode?: string } | null | undefined): boolean {
  if (!error) return false;
  return error.code === '42501' || error.statusCode === '403' || /row-level security|permission denied/i.test(error.message ?? '');
}

/** The extension for an uploaded image: from its name, else from its type. */
export function extensionOf(file: File): string {
  const fromName = /\.([a-z0-9]{1,5})$/i.exec(file.name)?.[1]?.toLowerCase();
  if (fromName) return fromName;
  const fromType = /^image\/([a-z0-9+]+)/i.exec(file.type)?.[1]?.toLowerCase();
  return fromType === 'svg+xml' ? 'svg' : (fromType ?? 'img');
}

/** Uploads an image as `objectPath` in the products bucket; its relative path, or the failure. */
export async function uploadProductImage(objectPath: string, file: File): Promise<{ path: string; error: null } | { path: null; error: StorageFailure }> {
  const { error } = await getSupabase()
    .storage.from(BUCKET)
    .upload(objectPath, file, { contentType: file.type || undefined, upsert: false });
  if (error) return { path: null, error: { forbidden: isForbidden(error as { message?: string; statusCode?: string }), message: error.message } };
  return { path: `${BUCKET}/${objectPath}`, error: null };
}

/** Removes an uploaded image (e.g. when the product it was for could not be saved). */
export async function removeProductImage(objectPath: string): Promise<void> {
  await getSupabase().storage.from(BUCKET).remove([objectPath]);
}
