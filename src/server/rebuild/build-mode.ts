/**
 * The full-or-incremental decision of a rebuild, from what the builder knows before it builds: a
 * rebuild is incremental only when it names changed products, no more than `maxChanged` of them,
 * and the served build left a manifest and was made from the same code. Pure: no files, no clock.
 */
import { API_REBUILD_REASON_TEXT } from '~/i18n/api.ts';

/** What the decision looks at. */
export interface BuildModeInput {
  /** Whether the served build left a manifest this code can read (false too when nothing is served as a build yet). */
  servedManifest: boolean;
  /** The code key the served build was made from; null when unknown. */
  servedCodeKey: string | null;
  /** The code key of the sources now (sourceCodeKey). */
  codeKey: string;
  /** The products that changed; none asks for a full build. */
  changedIds: readonly string[];
  /** More changed products than this and the build is a full one. */
  maxChanged: number;
}

/** The decision, and why a full build was made although changes were named (else null). */
export type BuildMode = { mode: 'incremental'; reason: null } | { mode: 'full'; reason: string | null };

/** Incremental when it can be; otherwise full, with the first reason that rules it out. */
export function decideBuildMode(input: BuildModeInput): BuildMode {
  const count = input.changedIds.length;
  if (count === 0) return { mode: 'full', reason: null };
  if (!input.servedManifest) return { mode: 'full', reason: API_REBUILD_REASON_TEXT.noServedManifest };
  if (input.servedCodeKey !== input.codeKey) return { mode: 'full', reason: API_REBUILD_REASON_TEXT.codeChanged };
  if (count > input.maxChanged) return { mode: 'full', reason: API_REBUILD_REASON_TEXT.productsChanged(count) };
  return { mode: 'incremental', reason: null };
}
