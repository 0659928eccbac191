/**
 * A stand-in for the shared Supabase client in unit tests: every query chain resolves to the
 * result queued for its table (or RPC), and every call is recorded for assertions.
 */
import { vi } from 'vitest';

export type Result = { data: unknown; error: unknown };

export interface Call {
  table: string;
  steps: { method: string; args: unknown[] }[];
}

/** Builds a fake client; `results[table]` is a list consumed in order (the last one repeats). */
export function fakeSupabase(results: Record<string, Result[]> = {}) {
  const calls: Call[] = [];
  const take = (key: string): Result => {
    const list = results[key] ?? [{ data: null, error: null }];
    return list.length > 1 ? list.shift()! : list[0]!;
  };
  const chain = (key: string): unknown => {
    const call: Call = { table: key, steps: [] };
    calls.push(call);
    const proxy: unknown = new Proxy(
      {},
      {
        get(_target, prop) {
          if (prop === 'then') {
            const result = take(key);
            return (resolve: (value: Result) => unknown) => resolve(result);
          }
          return (...args: unknown[]) => {
            call.steps.push({ method: String(prop), args });
            return proxy;
          };
        },
      },
    );
    return proxy;
  };
  const auth = {
    signInWithPassword: vi.fn(),
    signUp: vi.fn(),
    signOut: vi.fn(async () => ({ error: null })),
    getSession: vi.fn(async () => ({ data: { session: null }, error: null })),
    getUser: vi.fn(),
    resetPasswordForEmail: vi.fn(async () => ({ data: {}, error: null })),
    signInWithOAuth: vi.fn(async () => ({ data: {}, error: null })),
    onAuthStateChange: vi.fn(() => ({ data: { subscription: { unsubscribe: vi.fn() } } })),
  };
  const client = {
    from: (table: string) => chain(table),
    rpc: (fn: string, args: unknown) => {
      const proxy = chain(`rpc:${fn}`);
      calls[calls.length - 1]!.steps.push({ method: 'rpc', args: [args] });
      return proxy;
    },
    auth,
  };
  return { client, calls, auth, results };
}
