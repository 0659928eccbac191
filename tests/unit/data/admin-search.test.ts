/**
 * The back office's product search (productSearchOr) run as the back office runs it: a PostgREST
 * `or` filter through supabase-js against the local stack with the shop's migrations and demo
 * seed, so what it finds is what the database answers, not what a fake returns.
 */
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestStack, type TestStack } from '../../../packages/local-supabase/tests/helpers.ts';

// The module's own client is not used here: the filter runs through a client of the test's stack.
vi.mock('astro:env/client', () => ({ PUBLIC_SUPABASE_URL: undefined, PUBLIC_SUPABASE_ANON_KEY: undefined }));
const { productSearchOr } = await import('~/data/admin.ts');

const LUFFY = 'op-single-op-05-monkey-d-luffy-op05-119';
let stack: TestStack;
let client: SupabaseClient;

beforeAll(async () => {
  stack = await startTestStack();
  client = createClient(stack.url, stack.serviceRoleKey, { auth: { persistSession: false, autoRefreshToken: false } });
}, 120_000);

afterAll(async () => {
  await stack?.stop();
});

async function found(text: string): Promise<Array<{ id: string; name: string }>> {
  const filter = productSearchOr(text);
  if (filter === null) throw new Error(`no filter for "${text}"`);
  const { data, error } = await client.from('products').select('id, name').or(filter).order('name');
  if (error) throw new Error(error.message);
  return data;
}

describe('the back office finds products by name, id and collector number', () => {
  it('finds a single by its collector number typed with a dash, a space or a slash', async () => {
    for (const text of ['OP05-119', 'op05 119', 'OP05/119', 'op05-119']) {
      expect((await found(text)).map((p) => p.id)).toContain(LUFFY);
    }
  });

  it('finds a card by name words and number in order, and not by a number it does not have', async () => {
    const charizard = await found('charizard 199');
    expect(charizard.length).toBeGreaterThan(0);
    expect(charizard.every((p) => /charizard.*199/i.test(p.name))).toBe(true);
    expect(await found('op05 999')).toEqual([]);
  });

  it('still finds by part of the name or the id, ignoring case', async () => {
    expect((await found('monkey.d.luffy')).map((p) => p.id)).toContain(LUFFY);
    expect((await found('MONKEY-D-LUFFY-OP05')).map((p) => p.id)).toContain(LUFFY);
  });

  it('drops the characters of the filter syntax and gives no filter for an empty search', () => {
    expect(productSearchOr('  ')).toBeNull();
    expect(productSearchOr('(*,%)')).toBeNull();
    expect(productSearchOr('op05,119')).toBe('name.ilike.*op05 119*,id.ilike.*op05 119*,name.ilike.*op05*119*');
  });
});
