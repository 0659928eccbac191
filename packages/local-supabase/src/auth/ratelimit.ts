/**
 * In-memory rate limits for the auth endpoints, like GoTrue's per-IP limits and its
 * one-e-mail-per-minute rule. LOCAL_SUPABASE_RATE_LIMITS=off turns them all off (load
 * tests); `name=N,…` overrides the per-window count of a named limit, read on every check
 * so a test can tighten a limit for its own stack.
 */
import { AuthError } from './errors.ts';

export interface LimitRule {
  /** Requests allowed per window. */
  max: number;
  windowMs: number;
}

/** Per-IP limits on the endpoints, per 5 minutes; generous enough for an end-to-end suite. */
export const DEFAULT_LIMITS: Record<string, LimitRule> = {
  token: { max: 300, windowMs: 5 * 60_000 },
  signup: { max: 100, windowMs: 5 * 60_000 },
  recover: { max: 60, windowMs: 5 * 60_000 },
  resend: { max: 60, windowMs: 5 * 60_000 },
  verify: { max: 300, windowMs: 5 * 60_000 },
};

/** Seconds between two e-mails to the same address (GoTrue's MAILER_MAX_FREQUENCY). */
export const EMAIL_INTERVAL_SECONDS = 60;

interface Bucket {
  start: number;
  count: number;
}

/** Holds the counters of one stack. */
export class RateLimiter {
  private readonly buckets = new Map<string, Bucket>();
  private readonly lastEmail = new Map<string, number>();

  private settings(): { off: boolean; overrides: Record<string, number> } {
    const raw = (process.env.LOCAL_SUPABASE_RATE_LIMITS ?? '').trim().toLowerCase();
    if (raw === 'off' || raw === 'false' || raw === '0') return { off: true, overrides: {} };
    const overrides: Record<string, number> = {};
    for (const part of raw.split(',')) {
      const m = /^\s*([a-z_]+)\s*=\s*(\d+)\s*$/.exec(part);
      if (m) overrides[m[1]!] = Number(m[2]);
    }
    return { off: false, overrides };
  }

  /** Counts one request of `name` from `ip`; throws 429 over_request_rate_limit beyond the limit. */
  hit(name: string, ip: string, now = Date.now()): void {
    const { off, overrides } = this.settings();
    const rule = DEFAULT_LIMITS[name];
    if (off || !rule) return;
    const max = overrides[name] ?? rule.max;
    const key = `${name}|${ip}`;
    let bucket = this.buckets.get(key);
    if (!bucket || now - bucket.start >= rule.windowMs) {
      bucket = { start: now, count: 0 };
      this.buckets.set(key, bucket);
    }
    bucket.count += 1;
    if (bucket.count > max) {
      throw new AuthError(429, 'over_request_rate_limit', 'Request rate limit reached');
    }
  }

  /**
   * Claims the right to send an e-mail of `kind` to `email`; throws 429
   * over_email_send_rate_limit when the previous one went out less than a minute ago.
   */
  claimEmail(kind: 'confirmation' | 'recovery' | 'email_change', email: string, now = Date.now()): void {
    const { off, overrides } = this.settings();
    if (off) return;
    const interval = (overrides.email_interval ?? EMAIL_INTERVAL_SECONDS) * 1000;
    // Counted per kind of e-mail, as GoTrue compares each kind's own "sent at" time.
    const key = `${kind}|${email.toLowerCase()}`;
    const last = this.lastEmail.get(key);
    if (last !== undefined && now - last < interval) {
      const wait = Math.ceil((interval - (now - last)) / 1000);
      throw new AuthError(429, 'over_email_send_rate_limit', `For security purposes, you can only request this after ${wait} seconds.`);
    }
    this.lastEmail.set(key, now);
  }

  /** Keeps the maps small on a long-running stack. */
  prune(now = Date.now()): void {
    for (const [key, bucket] of this.buckets) {
      if (now - bucket.start > 10 * 60_000) this.buckets.delete(key);
    }
    for (const [key, at] of this.lastEmail) {
      if (now - at > 10 * 60_000) this.lastEmail.delete(key);
    }
  }
}
