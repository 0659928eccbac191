/**
 * In-process stand-ins for the rebuild tests. The shop itself keeps its rebuild jobs and the
 * admins' request limit in the database (src/server/rebuild/job-queue.ts, sharedRateLimiter); these
 * follow the same rules in one process, so the endpoint and the builder can be tested without one.
 */
import type { BuildChanges, BuildFunction, BuildProgress, RebuildRequest, Rebuilds, RebuildStatus } from '~/server/rebuild/types.ts';
import type { RequestLimiter } from '~/server/admin/rebuild.ts';
import { percent } from '~/domain/percent.ts';

/** The union of two change sets; null (a full build) absorbs everything. */
function mergeChanges(a: BuildChanges | null, b: BuildChanges | null): BuildChanges | null {
  if (!a || !b) return null;
  return { productIds: [...new Set([...a.productIds, ...b.productIds])].sort() };
}

/**
 * One catalogue rebuild at a time in one process. Requests that arrive while a build runs coalesce
 * into exactly one more build, which starts when the current one ends, so a burst of product
 * changes costs at most two builds and the last build always sees the newest data (the rules
 * SharedRebuilds follows across processes). The build itself is injected.
 */
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
        percent: progress.phase === 'publishing' ? 99 : expected && expected > 0 ? Math.min(98, Math.round(percent(progress.pagesWritten, expected))) : null,
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

/** At most `limit` requests per `windowMs` for each key (an admin), counted in this process. */
export class RateLimiter implements RequestLimiter {
  private readonly hits = new Map<string, number[]>();

  constructor(
    readonly limit: number,
    readonly windowMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Records a request; returns 0 when allowed, else the seconds until the next one is. */
  take(key: string): number {
    const now = this.now();
    const recent = (this.hits.get(key) ?? []).filter((t) => t > now - this.windowMs);
    if (recent.length >= this.limit) {
      this.hits.set(key, recent);
      return Math.max(1, Math.ceil((recent[0]! + this.windowMs - now) / 1000));
    }
    recent.push(now);
    this.hits.set(key, recent);
    return 0;
  }
}
