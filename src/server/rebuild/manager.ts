/**
 * One catalogue rebuild at a time in one process. Requests that arrive while a build runs coalesce
 * into exactly one more build, which starts when the current one ends, so a burst of product
 * changes costs at most two builds and the last build always sees the newest data. The production
 * server uses the same rules across processes through the database (SharedRebuilds in
 * ./shared.ts); both implement `Rebuilds`, which the endpoint uses.
 */

import type { BuildProgress, ProgressReporter } from './output.ts';

/** What GET /api/admin/rebuild reports. */
export interface RebuildStatus {
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
}

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
 * The part of the manager the endpoint needs; the server registers one instance (this in-process
 * manager, or the shared rebuilds of src/server/rebuild/shared.ts, which answer asynchronously).
 */
export interface Rebuilds {
  request(reason: string, request?: RebuildRequest): RebuildStatus | Promise<RebuildStatus>;
  status(): RebuildStatus | Promise<RebuildStatus>;
}

/** The union of two change sets; null (a full build) absorbs everything. */
export function mergeChanges(a: BuildChanges | null, b: BuildChanges | null): BuildChanges | null {
  if (!a || !b) return null;
  return { productIds: [...new Set([...a.productIds, ...b.productIds])].sort() };
}

/** Serialises builds and coalesces requests; the build itself is injected. */
export class RebuildManager implements Rebuilds {
  private readonly build: BuildFunction;
  private readonly now: () => number;
  private running: Promise<void> | null = null;
  private pending = false;
  private pendingReason: string | null = null;
  private pendingChanges: BuildChanges | null = null;
  private startedAt: number | null = null;
  private finishedAt: number | null = null;
  private durationMs: number | null = null;
  private lastError: string | null = null;
  private builds = 0;
  private failures = 0;
  private reason: string | null = null;
  private progress: BuildProgress | null = null;
  private lastSuccessAt: number | null = null;
  private lastPages: number | null = null;

  /** `expectedPages`: the static files of the build being served, the first progress measure. */
  constructor(build: BuildFunction, now: () => number = Date.now, expectedPages: number | null = null) {
    this.build = build;
    this.now = now;
    this.lastPages = expectedPages && expectedPages > 0 ? expectedPages : null;
  }

  /**
   * Asks for a rebuild: starts one when idle, otherwise queues exactly one more, which builds the
   * products of every request queued meanwhile (or everything, when one of them asked for all).
   */
  request(reason: string, request: RebuildRequest = {}): RebuildStatus {
    const changes: BuildChanges | null = request.productIds ? { productIds: [...new Set(request.productIds)].sort() } : null;
    if (this.running) {
      this.pendingChanges = this.pending ? mergeChanges(this.pendingChanges, changes) : changes;
      this.pending = true;
      this.pendingReason = reason;
    } else {
      this.start(reason, changes);
    }
    return this.status();
  }

  /** The current state, safe to serialise as JSON. */
  status(): RebuildStatus {
    const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
    const progress = this.running && this.progress ? this.progress : null;
    const expected = this.lastPages;
    return {
      status: this.pending ? 'queued' : this.running ? 'building' : 'idle',
      startedAt: iso(this.startedAt),
      finishedAt: iso(this.finishedAt),
      durationMs: this.durationMs,
      lastError: this.lastError,
      builds: this.builds,
      failures: this.failures,
      reason: this.reason,
      progress: progress && {
        ...progress,
        pagesExpected: expected,
        // Writing pages is most of a build; publishing is the last step.
        percent:
          progress.phase === 'publishing'
            ? 99
            : expected && expected > 0
              ? Math.min(98, Math.round((progress.pagesWritten / expected) * 100))
              : null,
      },
      lastSuccessAt: iso(this.lastSuccessAt),
      lastPages: this.lastPages,
    };
  }

  /** Resolves once no build is running or queued (tests and shutdown use it). */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  private start(reason: string, changes: BuildChanges | null): void {
    this.reason = reason;
    this.startedAt = this.now();
    this.running = this.runOnce(changes).finally(() => {
      this.running = null;
      if (this.pending) {
        const next = this.pendingReason ?? 'queued';
        const nextChanges = this.pendingChanges;
        this.pending = false;
        this.pendingReason = null;
        this.pendingChanges = null;
        this.start(next, nextChanges);
      }
    });
  }

  private async runOnce(changes: BuildChanges | null): Promise<void> {
    const started = this.startedAt ?? this.now();
    this.progress = { phase: 'starting', pagesWritten: 0 };
    try {
      // A build function that throws synchronously must not escape as an unhandled rejection.
      await Promise.resolve().then(() =>
        this.build((progress) => {
          this.progress = progress;
        }, changes),
      );
      this.lastError = null;
      this.lastSuccessAt = this.now();
      if (this.progress.pagesWritten > 0) this.lastPages = this.progress.pagesWritten;
    } catch (error) {
      this.failures += 1;
      this.lastError = error instanceof Error ? error.message : String(error);
    } finally {
      this.progress = null;
      this.builds += 1;
      this.finishedAt = this.now();
      this.durationMs = this.finishedAt - started;
    }
  }
}

const REGISTRY_KEY = Symbol.for('tienda-cartas.rebuilds');

/**
 * Makes the server's manager reachable from the bundled endpoint: scripts/serve.mjs and the
 * Astro server bundle load separate copies of this module, so they meet on globalThis.
 */
export function registerRebuilds(rebuilds: Rebuilds | null): void {
  (globalThis as Record<symbol, unknown>)[REGISTRY_KEY] = rebuilds ?? undefined;
}

/** The registered manager, or null when the shop runs without rebuild support (e.g. astro dev). */
export function registeredRebuilds(): Rebuilds | null {
  const value = (globalThis as Record<symbol, unknown>)[REGISTRY_KEY];
  return value && typeof value === 'object' ? (value as Rebuilds) : null;
}
