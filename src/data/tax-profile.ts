/**
 * The shopper's tax data (`tax_profiles`, one row per shopper): read, saved and deleted with the
 * shopper's own session. Row-level security keeps each shopper to their own row, and the table's
 * checks refuse what a factura could not be issued to, whatever the browser sends.
 */
import { getSupabase } from './supabase.ts';
import type { DataResult } from './profiles.ts';
import type { TaxProfileValues } from '~/domain/sat-catalogs.ts';

const COLUMNS = 'rfc, legal_name, tax_regime, tax_zip, cfdi_use, invoice_email';

interface TaxProfileRow {
  rfc: string;
  legal_name: string;
  tax_regime: string;
  tax_zip: string;
  cfdi_use: string;
  invoice_email: string;
}

/** The saved tax data as the form shows them. */
export interface SavedTaxProfile {
  rfc: string;
  legalName: string;
  taxRegime: string;
  taxZip: string;
  cfdiUse: string;
  invoiceEmail: string;
}

function fromRow(row: TaxProfileRow): SavedTaxProfile {
  return {
    rfc: row.rfc,
    legalName: row.legal_name,
    taxRegime: row.tax_regime,
    taxZip: row.tax_zip,
    cfdiUse: row.cfdi_use,
    invoiceEmail: row.invoice_email,
  };
}

/** The signed-in shopper's tax data, or null when they have saved none. */
export async function loadTaxProfile(userId: string): Promise<DataResult<SavedTaxProfile | null>> {
  const { data, error } = await getSupabase().from('tax_profiles').select(COLUMNS).eq('user_id', userId).maybeSingle();
  if (error) return { data: null, error };
  return { data: data ? fromRow(data) : null, error: null };
}

/** Saves the shopper's tax data (creating the row the first time) and returns them as stored. */
export async function saveTaxProfile(values: TaxProfileValues): Promise<DataResult<SavedTaxProfile>> {
  const { data, error } = await getSupabase()
    .from('tax_profiles')
    .upsert(
      {
        rfc: values.rfc,
        legal_name: values.legalName,
        tax_regime: values.taxRegime,
        tax_zip: values.taxZip,
        cfdi_use: values.cfdiUse,
        invoice_email: values.invoiceEmail,
      },
      { onConflict: 'user_id' },
    )
    .select(COLUMNS)
    .single();
  if (error) return { data: null, error };
  return { data: fromRow(data), error: null };
}

/** Deletes the shopper's tax data. */
export async function deleteTaxProfile(userId: string): Promise<DataResult<null>> {
  const { error } = await getSupabase().from('tax_profiles').delete().eq('user_id', userId);
  return error ? { data: null, error } : { data: null, error: null };
}
