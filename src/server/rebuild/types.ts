/**
 * What a catalogue rebuild is to the rest of the server: the status the endpoint reports, a
 * build's progress, the changes a build is given, and `Rebuilds`, the one interface the endpoint
 * uses. The production server implements it across processes through the database
 * (SharedRebuilds in ./job-queue.ts) and registers it in ./registry.ts for the bundled endpoint.
 */

/** Where a running build is, read from `astro build`'s own output. */
export type BuildProgress = {
  /** starting → content (catalogue snapshot) → bundling → pages → publishing. */
  phase: 'starting' | 'content' | 'bundling' | 'pages' | 'publishing';
  /** Static files written so far (pages, feeds, the search index). */
  pagesWritten: number;
};

/** Called as a build advances. */
export type ProgressReporter = (progress: BuildProgress) => void;

/** What GET /api/admin/rebuild reports. */
export type RebuildStatus = {
  status: 'idle' | 'building' | 'queued';
  /** ISO time the current or last build started, or null before the first. */
  startedAt: string | null;
  /** ISO time the last build ended (success or failure), or null. */
  finishedAt: string | null;
  /** Duration of the last finished build in milliseconds, or null. */
  durationMs: number | null;
  /** Message of the last failed build; null once a later build succeeds. */
  lastError: string | null;
  /** Builds finished since the server started (successful or not). */
  builds: number;
  /** Builds that failed since the server started. */
  failures: number;
  /** What asked for the current or last build (e.g. 'admin', 'realtime'). */
  reason: string | null;
  /**
   * The running build's progress (null when idle): its phase, the static files written so far,
   * the number the last successful build wrote (null before one), and the share done (0–100).
   */
  progress: (BuildProgress & { pagesExpected: number | null; percent: number | null }) | null;
  /** ISO time of the last successful build, or null. */
  lastSuccessAt: string | null;
  /** Static files the last successful build wrote, or null. */
  lastPages: number | null;
};

/** The products whose rows changed since the last build; the builder may rebuild only their pages. */
export interface BuildChanges {
  productIds: string[];
}

/**
 * Runs one build to completion, reporting its progress; rejects (with a readable message) when it
 * fails. `changes` null or undefined asks for a full build.
 */
export type BuildFunction = (report?: ProgressReporter, changes?: BuildChanges | null) => Promise<void>;

/** What a rebuild request asks for. */
export interface RebuildRequest {
  /** The products that changed; null or absent asks for a full build. */
  productIds?: string[] | null;
  /**
   * One key per product change the request stands for (product, commit time, event). Several
   * server processes see the same changes; with shared rebuilds a change counts once.
   */
  keys?: string[] | null;
}

/**
 * What the endpoint needs from the rebuilds: the server registers one instance (the shared
 * rebuilds of src/server/rebuild/job-queue.ts, which answer asynchronously).
 */
export interface Rebuilds {
  request(reason: string, request?: RebuildRequest): RebuildStatus | Promise<RebuildStatus>;
  status(): RebuildStatus | Promise<RebuildStatus>;
}
