/**
 * The shopper's tax data as the Datos de facturación section reads and saves them: the row's
 * columns become the form's fields, a save is an upsert on the shopper's own row (user_id is never
 * sent: the database takes the caller's), and a refusal comes back as the database's error.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeSupabase } from '../../support/fake-supabase.ts';

let fake = fakeSupabase();
vi.mock('astro:env/client', () => ({ PUBLIC_SUPABASE_URL: undefined, PUBLIC_SUPABASE_ANON_KEY: undefined }));
vi.mock('~/data/supabase.ts', () => ({ getSupabase: () => fake.client }));

const { deleteTaxProfile, loadTaxProfile, saveTaxProfile } = await import('~/data/tax-profile.ts');

const ROW = {
  rfc: 'GODE561231GR8',
  legal_name: 'Emilio Gómez Díaz',
  tax_regime: '612',
  tax_zip: '06700',
  cfdi_use: 'G03',
  invoice_email: 'facturas@correo.mx',
};
const SAVED = { rfc: 'GODE561231GR8', legalName: 'Emilio Gómez Díaz', taxRegime: '612', taxZip: '06700', cfdiUse: 'G03', invoiceEmail: 'facturas@correo.mx' };

beforeEach(() => {
  fake = fakeSupabase();
});

describe('the tax data', () => {
  it('are read as the form’s fields, and as null when the shopper saved none', async () => {
    fake = fakeSupabase({
      tax_profiles: [
        { data: ROW, error: null },
        { data: null, error: null },
      ],
    });
    expect(await loadTaxProfile('u1')).toEqual({ data: SAVED, error: null });
    expect(fake.calls[0]!.steps).toContainEqual({ method: 'eq', args: ['user_id', 'u1'] });
    expect(await loadTaxProfile('u1')).toEqual({ data: null, error: null });
  });

  it('are saved as an upsert of the six columns on the shopper’s row, without a user id', async () => {
    fake = fakeSupabase({ tax_profiles: [{ data: ROW, error: null }] });
    const result = await saveTaxProfile({ ...SAVED, taxRegime: '612', cfdiUse: 'G03' });
    expect(result).toEqual({ data: SAVED, error: null });
    const upsert = fake.calls[0]!.steps.find((step) => step.method === 'upsert');
    expect(upsert?.args).toEqual([ROW, { onConflict: 'user_id' }]);
  });

  it('bring the database’s refusal back', async () => {
    const refusal = { message: 'new row violates check constraint "tax_profiles_rfc_check"', code: '23514' };
    fake = fakeSupabase({ tax_profiles: [{ data: null, error: refusal }] });
    expect(await saveTaxProfile({ ...SAVED, taxRegime: '612', cfdiUse: 'G03' })).toEqual({ data: null, error: refusal });
  });

  it('are deleted for the shopper', async () => {
    fake = fakeSupabase({ tax_profiles: [{ data: null, error: null }] });
    expect(await deleteTaxProfile('u1')).toEqual({ data: null, error: null });
    expect(fake.calls[0]!.steps.map((step) => step.method)).toEqual(['delete', 'eq']);
  });
});
