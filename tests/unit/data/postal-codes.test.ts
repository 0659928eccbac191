import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeSupabase } from '../../support/fake-supabase.ts';

let fake = fakeSupabase();
vi.mock('~/data/supabase.ts', () => ({
  getSupabase: () => fake.client,
  supabaseUrl: () => 'http://127.0.0.1:54321',
}));

const { lookupPostalCode } = await import('~/data/postal-codes.ts');

const ROMA_NORTE = {
  code: '06700',
  state: 'Ciudad de México',
  municipality: 'Cuauhtémoc',
  city: 'Ciudad de México',
  settlements: [{ name: 'Roma Norte', type: 'Colonia' }],
};

beforeEach(() => {
  fake = fakeSupabase();
});

describe('lookupPostalCode', () => {
  it('asks postal_code_lookup for the code and returns its answer', async () => {
    fake = fakeSupabase({ 'rpc:postal_code_lookup': [{ data: ROMA_NORTE, error: null }] });
    const info = await lookupPostalCode('06700');
    expect(info).toEqual(ROMA_NORTE);
    expect(fake.calls).toHaveLength(1);
    expect(fake.calls[0]!.steps).toEqual([{ method: 'rpc', args: [{ p_code: '06700' }] }]);
  });

  it('keeps the answer: the same code (spaces around it too) asks once', async () => {
    const answer = { ...ROMA_NORTE, code: '06600', settlements: [{ name: 'Juárez', type: 'Colonia' }] };
    fake = fakeSupabase({ 'rpc:postal_code_lookup': [{ data: answer, error: null }] });
    const first = await lookupPostalCode('06600');
    const second = await lookupPostalCode(' 06600 ');
    expect(second).toEqual(first);
    expect(first?.settlements).toEqual([{ name: 'Juárez', type: 'Colonia' }]);
    expect(fake.calls).toHaveLength(1);
  });

  it('is null for a code the catalogue does not know, and remembers that too', async () => {
    fake = fakeSupabase({ 'rpc:postal_code_lookup': [{ data: null, error: null }] });
    expect(await lookupPostalCode('99999')).toBeNull();
    expect(await lookupPostalCode('99999')).toBeNull();
    expect(fake.calls).toHaveLength(1);
  });

  it('is null without asking for a code that is not 5 digits', async () => {
    for (const code of ['441', '064000', 'abcde', '', '0670a']) {
      expect(await lookupPostalCode(code)).toBeNull();
    }
    expect(fake.calls).toHaveLength(0);
  });

  it('keeps a city of null (rural settlements have none)', async () => {
    const rural = { code: '72990', state: 'Puebla', municipality: 'Tlaltenango', city: null, settlements: [{ name: 'San Diego', type: 'Pueblo' }] };
    fake = fakeSupabase({ 'rpc:postal_code_lookup': [{ data: rural, error: null }] });
    expect(await lookupPostalCode('72990')).toEqual(rural);
  });

  it('throws on a server failure and asks again on the next try', async () => {
    fake = fakeSupabase({
      'rpc:postal_code_lookup': [
        { data: null, error: { message: 'Failed to fetch', code: '' } },
        { data: { ...ROMA_NORTE, code: '03100', municipality: 'Benito Juárez' }, error: null },
      ],
    });
    await expect(lookupPostalCode('03100')).rejects.toThrow(/Failed to fetch/);
    const info = await lookupPostalCode('03100');
    expect(info?.municipality).toBe('Benito Juárez');
    expect(fake.calls).toHaveLength(2);
  });

  it('throws on an answer of the wrong shape instead of showing it', async () => {
    fake = fakeSupabase({
      'rpc:postal_code_lookup': [
        { data: { code: '44100', state: 'Jalisco', municipality: 'Guadalajara', city: null, settlements: [{ name: 7 }] }, error: null },
      ],
    });
    await expect(lookupPostalCode('44100')).rejects.toThrow(/unexpected answer/);
    fake = fakeSupabase({ 'rpc:postal_code_lookup': [{ data: { ...ROMA_NORTE, code: '64000' }, error: null }] });
    await expect(lookupPostalCode('64001')).rejects.toThrow(/unexpected answer/);
  });
});
