/** What an object's row says about it (`storage.objects.metadata`): its type and cache lifetime. */
import path from 'node:path';

/** Content types by file extension, for files whose row has no stored type. */
export const CONTENT_TYPES: Record<string, string> = {
  svg: 'image/svg+xml',
  webp: 'image/webp',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  avif: 'image/avif',
  gif: 'image/gif',
  ico: 'image/x-icon',
  json: 'application/json',
  txt: 'text/plain; charset=utf-8',
  pdf: 'application/pdf',
};

/** Default browser cache lifetime of objects, as storage-js sends it (seconds). */
export const DEFAULT_MAX_AGE = 3600;

export interface ObjectMeta {
  mimetype?: string;
  cacheControl?: string;
  size?: number;
  eTag?: string;
}

export function extensionType(name: string): string | undefined {
  const ext = path.extname(name).slice(1).toLowerCase();
  return CONTENT_TYPES[ext];
}

export function maxAgeOf(cacheControl: string | undefined): number {
  const m = /max-age=(\d+)/.exec(cacheControl ?? '');
  if (m) return Number(m[1]);
  const n = Number(cacheControl);
  return Number.isFinite(n) && n >= 0 ? Math.floor(n) : DEFAULT_MAX_AGE;
}
