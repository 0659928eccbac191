import { describe, expect, it, vi } from 'vitest';

let sessionUser: string | null = 'u1';
let deliver: (() => void) | null = null;
vi.mock('~/data/supabase.ts', () => ({
  getSupabase: () => {
    const channel = {
      on: (_type: string, _filter: unknown, callback: () => void) => {
        deliver = callback;
        return channel;
      },
      subscribe: () => channel,
    };
    return {
      auth: { getSession: async () => ({ data: { session: sessionUser ? { user: { id: sessionUser } } : null } }) },
      channel: () => channel,
      removeChannel: async () => 'ok',
    };
  },
  supabaseUrl: () => 'http://127.0.0.1:54321',
}));

const { subscribeToUserRows } = await import('~/data/realtime.ts');
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('following the account rows live', () => {
  it('passes a change on only while the browser is signed in as that user', async () => {
    const onChange = vi.fn();
    const close = subscribeToUserRows('profiles', 'u1', onChange);
    deliver!();
    await settle();
    expect(onChange).toHaveBeenCalledTimes(1);
    // A change that arrives just after signing out would make the page read the rows as nobody.
    sessionUser = null;
    deliver!();
    await settle();
    expect(onChange).toHaveBeenCalledTimes(1);
    // Nor as another account signed in meanwhile.
    sessionUser = 'u2';
    deliver!();
    await settle();
    expect(onChange).toHaveBeenCalledTimes(1);
    sessionUser = 'u1';
    deliver!();
    await settle();
    expect(onChange).toHaveBeenCalledTimes(2);
    close();
  });
});
