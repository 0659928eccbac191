import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeSupabase } from '../../support/fake-supabase.ts';

let fake = fakeSupabase();
vi.mock('~/data/supabase.ts', () => ({
  getSupabase: () => fake.client,
  supabaseUrl: () => 'http://127.0.0.1:54321',
}));

const profiles = await import('~/data/profiles.ts');

beforeEach(() => {
  fake = fakeSupabase();
});

describe('profiles', () => {
  it('stores empty username and phone as null', async () => {
    fake = fakeSupabase({ profiles: [{ data: {}, error: null }] });
    await profiles.updateProfile('u1', { username: '  ', name: ' Ana ', lastname: 'García', phone: '' });
    expect(fake.calls[0]!.steps.find((s) => s.method === 'update')?.args[0]).toEqual({
      username: null,
      name: 'Ana',
      lastname: 'García',
      phone: null,
    });
  });

  it('recognises the unique username refusal', () => {
    expect(profiles.isUsernameConflict({ code: '23505', message: 'duplicate key value violates unique constraint "profiles_username_lower_key"' })).toBe(true);
    expect(profiles.isUsernameConflict({ code: '23505', message: 'duplicate key "profiles_pkey"' })).toBe(false);
    expect(profiles.isUsernameConflict(null)).toBe(false);
  });

  it('looks usernames up case-insensitively, escaping patterns, excluding the user', async () => {
    fake = fakeSupabase({ profiles: [{ data: [{ id: 'x' }], error: null }] });
    expect(await profiles.isUsernameTaken('ana_g%', 'u1')).toBe(true);
    const steps = fake.calls[0]!.steps;
    expect(steps).toContainEqual({ method: 'ilike', args: ['username', 'ana\\_g\\%'] });
    expect(steps).toContainEqual({ method: 'neq', args: ['id', 'u1'] });
    expect(await profiles.isUsernameTaken('  ')).toBe(false);
  });
});
