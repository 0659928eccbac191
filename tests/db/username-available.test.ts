import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PGlite } from '@electric-sql/pglite';
import { attempt, migratedPglite } from './support.ts';
import { DEMO_SHOPPER } from '../../scripts/seed/constants.ts';

let db: PGlite;

beforeAll(async () => {
  db = await migratedPglite({ seed: true });
});

afterAll(async () => {
  await db?.close();
});

async function available(username: string, role: 'anon' | 'authenticated' = 'anon'): Promise<unknown> {
  const outcome = await attempt<{ ok: boolean }>(db, role, undefined, 'select public.username_available($1) as ok', [username]);
  expect(outcome.error).toBeUndefined();
  return outcome.rows[0]?.ok;
}

describe('username_available (sign-up uniqueness check)', () => {
  it('says a taken username is not available, whatever its case and spaces', async () => {
    expect(await available(DEMO_SHOPPER.username)).toBe(false);
    expect(await available(`  ${DEMO_SHOPPER.username.toUpperCase()} `)).toBe(false);
  });

  it('says a free username is available to anonymous and signed-in callers', async () => {
    expect(await available('nadie-usa-este-nombre')).toBe(true);
    expect(await available('nadie-usa-este-nombre', 'authenticated')).toBe(true);
  });

  it('never calls an empty username available', async () => {
    expect(await available('   ')).toBe(false);
  });

  it('does not let anonymous callers read profiles directly', async () => {
    const outcome = await attempt(db, 'anon', undefined, 'select username from public.profiles');
    expect(outcome.ok ? outcome.rows.length : 0).toBe(0);
  });
});
