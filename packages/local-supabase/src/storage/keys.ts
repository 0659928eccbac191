/**
 * Object keys and their files: a request's `BUCKET/PATH` is split into checked segments, and an
 * object's bytes live in `${dataDir}/storage/BUCKET/PATH`, never outside that folder.
 */
import path from 'node:path';
import type { StackContext } from '../types.ts';
import { invalidKey } from './errors.ts';

export const BUCKET_RE = /^[A-Za-z0-9][A-Za-z0-9._-]{0,62}$/;

export function storageRoot(ctx: StackContext): string {
  return path.resolve(ctx.config.dataDir, 'storage');
}

/**
 * Splits a still-encoded URL path into safe object-name segments: each segment is
 * decoded and then split again (so an encoded slash cannot smuggle `..`), and any
 * empty, `.` or `..` segment, backslash or NUL is refused.
 */
export function safeSegments(encoded: string): string[] {
  const out: string[] = [];
  for (const raw of encoded.split('/')) {
    if (raw === '') continue;
    let decoded: string;
    try {
      decoded = decodeURIComponent(raw);
    } catch {
      throw invalidKey();
    }
    for (const part of decoded.split('/')) {
      if (part === '' || part === '.' || part === '..' || part.includes('\\') || part.includes('\0') || Buffer.byteLength(part) > 255) {
        throw invalidKey();
      }
      out.push(part);
    }
  }
  if (out.length === 0 || out.join('/').length > 1024) throw invalidKey();
  return out;
}

export function splitBucketAndName(rest: string): { bucket: string; name: string; segments: string[] } {
  const segments = safeSegments(rest);
  const bucket = segments.shift()!;
  if (!BUCKET_RE.test(bucket) || segments.length === 0) throw invalidKey();
  return { bucket, name: segments.join('/'), segments };
}

/** The file behind an object; resolved and checked to stay inside the storage folder. */
export function filePath(ctx: StackContext, bucket: string, segments: string[]): string {
  const root = storageRoot(ctx);
  const full = path.resolve(root, bucket, ...segments);
  if (!full.startsWith(root + path.sep)) throw invalidKey();
  return full;
}
