/**
 * The catalogue rebuilds' job queue, shared by several server processes (behind one reverse proxy, on one or more
 * machines) that publish into one output folder and use one database. The jobs live in the
 * database (supabase/migrations/20261123006000_rebuild_jobs.sql): any process may ask for a
 * rebuild; requests merge into one queued job (with the union of the changed products); a process
 * claims the queued job only when no other process of the site builds, and holds it with a lease
 * it renews every heartbeat while it builds. When a process dies mid-build its lease runs out, and
 * the next claim (by any process, each looks every `pollMs`) builds that job again.
 */
import { z } from 'zod/mini';
import type { SupabaseClient } from '@supabase/supabase-js';
import type { Database } from '~/data/database.types.ts';
import { percent } from '~/domain/percent.ts';
import { API_REBUILD_QUEUE_OPERATOR_TEXT as LOG } from '~/i18n/api.ts';
import type { BuildFunction, BuildProgress, RebuildRequest, Rebuilds, RebuildStatus } from './types.ts';

/** A job as a claim hands it out. */
export interface ClaimedJob {
  id: number;
  /** The products that changed; null asks for a full build. */
  productIds: string[] | null;
  reasons: string[];
  attempts: number;
}

/** The database side of shared rebuilds (the functions of the rebuild_jobs migration). */
export interface JobStore {
  request(reason: string, request: RebuildRequest): Promise<{ deduplicated: boolean }>;
  claim(holder: string, leaseSeconds: number): Promise<ClaimedJob | null>;
  renew(id: number, holder: string, leaseSeconds: number, progress: RebuildStatus['progress']): Promise<boolean>;
  finish(id: number, holder: string, error: string | null, pages: number | null): Promise<boolean>;
  status(): Promise<RebuildStatus & { holder?: string | null }>;
}

const iso = (value: string | null | undefined): string | null => (value ? new Date(value).toISOString() : null);
const num = (value: number | string | null | undefined): number | null => (value === null || value === undefined ? null : Number(value));

/** What claim_catalogue_rebuild answers: the job taken, or null. */
const claimedJob = z.nullable(
  z.object({ id: z.coerce.number(), productIds: z.nullable(z.array(z.string())), reasons: z.array(z.string()), attempts: z.coerce.number() }),
);
/** What catalogue_rebuild_status answers (camelCase keys; missing ones mean none yet). */
const statusAnswer = z.object({
  status: z.optional(z.string()),
  startedAt: z.nullish(z.string()),
  finishedAt: z.nullish(z.string()),
  durationMs: z.nullish(z.union([z.number(), z.string()])),
  lastError: z.nullish(z.string()),
  builds: z.nullish(z.union([z.number(), z.string()])),
  failures: z.nullish(z.union([z.number(), z.string()])),
  reason: z.nullish(z.string()),
  progress: z.nullish(
    z.object({
      phase: z.enum(['starting', 'content', 'bundling', 'pages', 'publishing']),
      pagesWritten: z.number(),
      pagesExpected: z.nullable(z.number()),
      percent: z.nullable(z.number()),
    }),
  ),
  lastSuccessAt: z.nullish(z.string()),
  lastPages: z.nullish(z.union([z.number(), z.string()])),
  holder: z.nullish(z.string()),
});

/** The job store on Supabase's REST API (service role), for the servers of `site`. */
export function supabaseJobStore(client: SupabaseClient<Database>, site: string): JobStore {
  const checked = <T>(fn: string, result: { data: T | null; error: { message: string } | null }): T | null => {
    if (result.error) throw new Error(`${fn}: ${result.error.message}`);
    return result.data;
  };
  return {
    async request(reason, request) {
      const result = checked(
        'request_catalogue_rebuild',
        await client.rpc('request_catalogue_rebuild', {
          p_site: site,
          p_reason: reason,
          p_product_ids: request.productIds ?? null,
          p_keys: request.keys && request.keys.length > 0 ? request.keys : null,
        }),
      );
      return { deduplicated: z.object({ deduplicated: z.boolean() }).safeParse(result).data?.deduplicated === true };
    },
    async claim(holder, leaseSeconds) {
      const job = claimedJob.parse(
        checked('claim_catalogue_rebuild', await client.rpc('claim_catalogue_rebuild', { p_site: site, p_holder: holder, p_seconds: leaseSeconds })),
      );
      return job && job.id ? job : null;
    },
    async renew(id, holder, leaseSeconds, progress) {
      return (
        checked(
          'renew_catalogue_rebuild',
          await client.rpc('renew_catalogue_rebuild', { p_id: id, p_holder: holder, p_seconds: leaseSeconds, p_progress: progress ? { ...progress } : null }),
        ) === true
      );
    },
    async finish(id, holder, error, pages) {
      return (
        checked('finish_catalogue_rebuild', await client.rpc('finish_catalogue_rebuild', { p_id: id, p_holder: holder, p_error: error, p_pages: pages })) ===
        true
      );
    },
    async status() {
      const s = statusAnswer.parse(checked('catalogue_rebuild_status', await client.rpc('catalogue_rebuild_status', { p_site: site })));
      return {
        status: s.status === 'queued' || s.status === 'building' ? s.status : 'idle',
        startedAt: iso(s.startedAt),
        finishedAt: iso(s.finishedAt),
        durationMs: num(s.durationMs),
        lastError: s.lastError ?? null,
        builds: Number(s.builds ?? 0),
        failures: Number(s.failures ?? 0),
        reason: s.reason ?? null,
        progress: s.progress ?? null,
        lastSuccessAt: iso(s.lastSuccessAt),
        lastPages: num(s.lastPages),
        holder: s.holder ?? null,
      };
    },
  };
}

/** Options of the shared rebuilds of one process. */
export interface SharedRebuildOptions {
  /** This process's name in the jobs table (host and pid). */
  holder: string;
  /** How long a claim lasts without a heartbeat (default 30 s). */
  leaseSeconds?: number;
  /** Heartbeat while building: renews the lease and publishes the progress (default 2 s). */
  heartbeatMs?: number;
  /** How often an idle process looks for a queued or abandoned job (default 2 s). */
  pollMs?: number;
  /** The static files of the build being served, the first progress measure. */
  expectedPages?: number | null;
  /** False: this process serves and asks for rebuilds but never builds. */
  builds?: boolean;
  /** Called when this process lost its claim while building (it should stop the build). */
  onLostClaim?: () => void;
  log?: (line: string) => void;
}

/** The percentage a progress report stands for, measured against the last build's pages. */
export function withPercent(progress: BuildProgress, expected: number | null): NonNullable<RebuildStatus['progress']> {
  return {
    ...progress,
    pagesExpected: expected,
    // Writing pages is most of a build; publishing is the last step.
    percent: progress.phase === 'publishing' ? 99 : expected && expected > 0 ? Math.min(98, Math.round(percent(progress.pagesWritten, expected))) : null,
  };
}

/**
 * One process's part in the shared rebuilds: asks through the store, claims and builds queued
 * jobs one at a time, and reports the site's status from the store.
 */
export class SharedRebuilds implements Rebuilds {
  private readonly store: JobStore;
  private readonly build: BuildFunction;
  private readonly options: Required<Omit<SharedRebuildOptions, 'onLostClaim' | 'log' | 'expectedPages'>> & SharedRebuildOptions;
  private current: { job: ClaimedJob; progress: BuildProgress } | null = null;
  private running: Promise<void> | null = null;
  private claiming: Promise<void> | null = null;
  private timer: NodeJS.Timeout | null = null;
  private heartbeat: NodeJS.Timeout | null = null;
  private stopped = false;
  private expectedPages: number | null;
  private lastPollError = '';
  /** Jobs this process built (finished, successfully or not). */
  built = 0;

  constructor(store: JobStore, build: BuildFunction, options: SharedRebuildOptions) {
    this.store = store;
    this.build = build;
    this.options = { leaseSeconds: 30, heartbeatMs: 2000, pollMs: 2000, builds: true, ...options };
    this.expectedPages = options.expectedPages && options.expectedPages > 0 ? options.expectedPages : null;
  }

  /** Starts looking for jobs every pollMs. */
  start(): void {
    if (this.timer || !this.options.builds) return;
    this.timer = setInterval(() => void this.poll(), this.options.pollMs);
    this.timer.unref();
    void this.poll();
  }

  /**
   * Stops looking for jobs and renewing the claim of a build in progress (the caller stops the
   * build itself): its lease runs out and another process builds that job again.
   */
  stop(): void {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.heartbeat = null;
  }

  /** Asks for a rebuild (merged with any queued one), then tries to build it here at once. */
  async request(reason: string, request: RebuildRequest = {}): Promise<RebuildStatus & { deduplicated?: boolean }> {
    const { deduplicated } = await this.store.request(reason, request);
    if (!deduplicated) await this.claimNext();
    return { ...(await this.status()), deduplicated };
  }

  /** The site's status; while this process builds, its own progress is the freshest. */
  async status(): Promise<RebuildStatus> {
    const status = await this.store.status();
    const { holder: _holder, ...rest } = status;
    if (this.current && status.status !== 'idle') rest.progress = withPercent(this.current.progress, this.expectedPages);
    return rest;
  }

  /** The job this process is building, if any. */
  building(): ClaimedJob | null {
    return this.current?.job ?? null;
  }

  /** Resolves once this process builds nothing (tests and shutdown). */
  async idle(): Promise<void> {
    while (this.running || this.claiming) await (this.running ?? this.claiming);
  }

  private async poll(): Promise<void> {
    try {
      await this.claimNext();
      if (this.lastPollError) this.options.log?.(LOG.databaseBack);
      this.lastPollError = '';
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      // Once per kind of failure, not every poll.
      if (message !== this.lastPollError) this.options.log?.(LOG.queueUnreadable(message));
      this.lastPollError = message;
    }
  }

  /** Claims the queued job when this process is free; builds it in the background. */
  private claimNext(): Promise<void> {
    if (this.stopped || !this.options.builds || this.running) return Promise.resolve();
    if (this.claiming) return this.claiming;
    this.claiming = (async () => {
      try {
        const job = await this.store.claim(this.options.holder, this.options.leaseSeconds);
        if (job && !this.stopped) {
          this.current = { job, progress: { phase: 'starting', pagesWritten: 0 } };
          this.running = this.run(job).finally(() => {
            this.current = null;
            this.running = null;
            // The next queued job, if any, right away.
            void this.poll();
          });
        }
      } finally {
        this.claiming = null;
      }
    })();
    return this.claiming;
  }

  private async run(job: ClaimedJob): Promise<void> {
    const { holder, leaseSeconds } = this.options;
    const what = job.productIds ? LOG.products(job.productIds.length) : LOG.whole;
    this.options.log?.(LOG.claimed(holder, job.id, what, job.attempts));
    let lost = false;
    const heartbeat = setInterval(() => {
      if (this.stopped) return;
      const progress = this.current ? withPercent(this.current.progress, this.expectedPages) : null;
      this.store.renew(job.id, holder, leaseSeconds, progress).then(
        (kept) => {
          if (!kept && !lost) {
            lost = true;
            this.options.log?.(LOG.lost(holder, job.id));
            this.options.onLostClaim?.();
          }
        },
        () => undefined, // a missed heartbeat is retried by the next; the lease allows several
      );
    }, this.options.heartbeatMs);
    heartbeat.unref();
    this.heartbeat = heartbeat;
    let error: string | null = null;
    try {
      await Promise.resolve().then(() =>
        this.build(
          (progress) => {
            if (this.current) this.current.progress = progress;
          },
          job.productIds ? { productIds: job.productIds } : null,
        ),
      );
    } catch (failure) {
      error = failure instanceof Error ? failure.message : String(failure);
    } finally {
      clearInterval(heartbeat);
      if (this.heartbeat === heartbeat) this.heartbeat = null;
    }
    // Lost: another process builds it. Stopped: the lease runs out and another process will.
    if (lost || this.stopped) return;
    const pages = this.current && this.current.progress.pagesWritten > 0 ? this.current.progress.pagesWritten : null;
    if (!error && pages) this.expectedPages = pages;
    this.built += 1;
    try {
      await this.store.finish(job.id, holder, error, pages);
    } catch (failure) {
      // The lease runs out and another process builds the job again.
      this.options.log?.(LOG.finishNotRecorded(job.id, failure instanceof Error ? failure.message : String(failure)));
    }
    this.options.log?.(LOG.finished(job.id, error ? error.split('\n')[0]! : null));
  }
}
