/**
 * The edits a running server published since its build's manifest was written whole
 * (src/server/rebuild/fast-edit.ts), kept beside it as lines of JSON: an edit appends what it
 * changed (a few hundred bytes) instead of writing the whole manifest again (15 MB at 100,000
 * products, about 100 ms of each edit). Every reader of a manifest (readManifest) reads these
 * lines too. Each line names the manifest it follows by its file's identity (inode, modification
 * time, size): a manifest written again, by a build or by an edit, is a new file, so the lines
 * written before it are left out without being removed first. A line that is not a whole edit
 * (a write under way, or one a crash cut short) is skipped: each edit starts on a line of its own.
 */
import fs from 'node:fs';
import { replaceFileAsync } from './served-folder.ts';

/**
 * The fields of a build's manifest, all of which an edit may change (./incremental.ts
 * BuildManifest adds its version; defined here because incremental.ts imports this module).
 */
export interface ManifestFields {
  /** 'full': every file was rendered; 'incremental': only `render`. */
  mode: 'full' | 'incremental';
  /** Why a full build was chosen when an incremental one was asked for, else null. */
  reason: string | null;
  /** Fingerprint of each prebuilt catalogue file, by URL path. */
  files: Record<string, string>;
  /** Digest of each listed product's shown fields, by id. */
  products: Record<string, string>;
  /** URL paths rendered by this build (incremental builds only; full builds render all). */
  render: string[];
  /** URL paths the previous build had that this one no longer has. */
  removed: string[];
  /**
   * The header search's files lag behind the catalogue: an edit the server published left them
   * to the build that follows (src/server/rebuild/fast-edit.ts). A build's manifest never has it.
   */
  searchBehind?: true;
}

/** What one edit changed in the manifest: its fields as the edit left them, and the entries it set (a file's null: removed). */
interface ManifestEdit extends Omit<ManifestFields, 'files'> {
  /** The identity of the manifest this edit follows (manifestIdentity). */
  base: string;
  files: Record<string, string | null>;
}

/** Past this size of edits, an edit writes the manifest whole again, and the edits start over. */
export const MANIFEST_EDITS_MOST_BYTES = 256 * 1024;

/** The file of a manifest's edits: beside it, 'catalog-manifest.json.edits'. */
export function manifestEditsFile(manifest: string): string {
  return `${manifest}.edits`;
}

/** A file's identity (a manifest's, which its edits name): its inode, modification time and size; null when it is missing. */
export function manifestIdentity(file: string): string | null {
  const stat = fs.statSync(file, { throwIfNoEntry: false });
  return stat ? `${stat.ino}:${stat.mtimeMs}:${stat.size}` : null;
}

/** What changes when the manifest or its edits change (a kept manifest is the served one while it is the same); null without a manifest. */
export function manifestSignature(manifest: string): string | null {
  const base = manifestIdentity(manifest);
  return base ? `${manifest}:${base}:${manifestIdentity(manifestEditsFile(manifest)) ?? ''}` : null;
}

/** Bytes of the edits beside a manifest (0 without any). */
export function manifestEditsSize(manifest: string): number {
  return fs.statSync(manifestEditsFile(manifest), { throwIfNoEntry: false })?.size ?? 0;
}

/** Applies an edit's changes to a manifest, in place. */
function apply(manifest: ManifestFields, edit: ManifestEdit): void {
  manifest.mode = edit.mode;
  manifest.reason = edit.reason;
  manifest.render = edit.render;
  manifest.removed = edit.removed;
  if (edit.searchBehind) manifest.searchBehind = true;
  else delete manifest.searchBehind;
  for (const [urlPath, fingerprint] of Object.entries(edit.files)) {
    if (fingerprint === null) delete manifest.files[urlPath];
    else manifest.files[urlPath] = fingerprint;
  }
  Object.assign(manifest.products, edit.products);
}

/** Whether a parsed line is an edit this code wrote. */
function isEdit(value: unknown): value is ManifestEdit {
  const edit = value as ManifestEdit | null;
  return (
    typeof edit === 'object' &&
    edit !== null &&
    typeof edit.base === 'string' &&
    (edit.mode === 'full' || edit.mode === 'incremental') &&
    Array.isArray(edit.render) &&
    Array.isArray(edit.removed) &&
    typeof edit.files === 'object' &&
    edit.files !== null &&
    typeof edit.products === 'object' &&
    edit.products !== null
  );
}

/**
 * `manifest` (read from `file`, whose identity was `base` when it was read) with the edits written
 * beside it since, in order; changed in place and returned.
 */
export function withManifestEdits<Manifest extends ManifestFields>(manifest: Manifest, file: string, base: string | null): Manifest {
  let text: string;
  try {
    text = fs.readFileSync(manifestEditsFile(file), 'utf8');
  } catch {
    return manifest;
  }
  for (const line of text.split('\n')) {
    if (line === '') continue;
    let edit: unknown;
    try {
      edit = JSON.parse(line);
    } catch {
      continue;
    }
    if (isEdit(edit) && edit.base === base) apply(manifest, edit);
  }
  return manifest;
}

/** The entries of `record` named in `keys`: each one's value, or null when it was removed. */
function entries(record: Record<string, string>, keys: ReadonlySet<string>): Record<string, string | null> {
  return Object.fromEntries([...keys].map((key) => [key, Object.hasOwn(record, key) ? record[key]! : null]));
}

/**
 * Publishes an edit's manifest, written after the edit's files (a reader sees the edit once its
 * files are in place): one line appended beside the manifest at `file`, with the fields of
 * `manifest` and its entries named in `changed`; or, past MANIFEST_EDITS_MOST_BYTES of edits, the
 * whole manifest (`whole`, its text) written again in place of the old one and its edits. The line
 * is one write; like the files' own writes, it is not synced to disk.
 */
export async function writeManifestEdit(
  file: string,
  manifest: ManifestFields,
  changed: { files: ReadonlySet<string>; products: ReadonlySet<string> },
  whole: () => Promise<ReadonlyArray<Buffer>>,
): Promise<void> {
  if (manifestEditsSize(file) > MANIFEST_EDITS_MOST_BYTES) {
    await replaceFileAsync(file, await whole());
    fs.rmSync(manifestEditsFile(file), { force: true });
    return;
  }
  const edit: ManifestEdit = {
    base: manifestIdentity(file) ?? '',
    mode: manifest.mode,
    reason: manifest.reason,
    render: manifest.render,
    removed: manifest.removed,
    ...(manifest.searchBehind ? { searchBehind: true as const } : {}),
    files: entries(manifest.files, changed.files),
    // Products are never removed by an edit (fast-edit.ts leaves that to a build).
    products: Object.fromEntries([...changed.products].map((id) => [id, manifest.products[id]!])),
  };
  const handle = await fs.promises.open(manifestEditsFile(file), 'a');
  try {
    // A line break first too: an edit after one a crash cut short still starts a line.
    await handle.write(`\n${JSON.stringify(edit)}\n`);
  } finally {
    await handle.close();
  }
}
