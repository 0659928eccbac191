/**
 * The `addresses` table. Database triggers keep exactly one default per user: the first address
 * becomes default, a new default clears the others, deleting the default promotes the next one
 * and deleting the only address is refused ('Debes tener al menos una dirección').
 */
import { ACCOUNT_ADDRESS_MESSAGES } from '~/i18n/account.ts';
import { getSupabase } from './supabase.ts';
import type { Tables, TablesUpdate } from './database.types.ts';
import type { DataResult } from './profiles.ts';

/** An address row as the shop reads it (drop_key, the database's own key for a drop's limit per address, is never read). */
export type Address = Omit<Tables<'addresses'>, 'drop_key'>;

/** The fields of the address form (already validated with validateAddress). */
export interface AddressFields {
  label?: string | null;
  street: string;
  city: string;
  state: string;
  zip: string;
  country: string;
  is_default?: boolean;
  /**
   * The Mexican parts (null: none, as for other countries). Left out (undefined), a save keeps
   * what the address has, as the profile form's main address does.
   */
  exterior_number?: string | null;
  interior_number?: string | null;
  neighborhood?: string | null;
  municipality?: string | null;
  references?: string | null;
  phone?: string | null;
}

const COLUMNS =
  'id, user_id, label, street, exterior_number, interior_number, neighborhood, municipality, city, state, zip, country, delivery_references, phone, is_default, created_at';

const MX_PARTS = ['exterior_number', 'interior_number', 'neighborhood', 'municipality', 'phone'] as const;

function fieldsOf(input: AddressFields): TablesUpdate<'addresses'> {
  const optional = (value: string | null | undefined) => (value === undefined ? undefined : value?.trim() ? value.trim() : null);
  const fields: TablesUpdate<'addresses'> = {
    label: input.label?.trim() ? input.label.trim() : null,
    street: input.street.trim(),
    city: input.city.trim(),
    state: input.state.trim(),
    zip: input.zip.trim(),
    country: input.country.trim(),
  };
  for (const key of MX_PARTS) {
    const value = optional(input[key]);
    if (value !== undefined) fields[key] = value;
  }
  const references = optional(input.references);
  if (references !== undefined) fields.delivery_references = references;
  return fields;
}

/** The user's addresses, default first, then newest first. */
export async function listAddresses(userId: string): Promise<DataResult<Address[]>> {
  const { data, error } = await getSupabase()
    .from('addresses')
    .select(COLUMNS)
    .eq('user_id', userId)
    .order('is_default', { ascending: false })
    .order('created_at', { ascending: false });
  if (error) return { data: null, error };
  return { data: data ?? [], error: null };
}

/** The user's default address, or null when there is none. */
export async function getDefaultAddress(userId: string): Promise<DataResult<Address | null>> {
  const { data, error } = await getSupabase().from('addresses').select(COLUMNS).eq('user_id', userId).eq('is_default', true).maybeSingle();
  if (error) return { data: null, error };
  return { data: data ?? null, error: null };
}

/** Adds an address; the database makes the first one default and clears others for a new default. */
export async function createAddress(userId: string, input: AddressFields): Promise<DataResult<Address>> {
  const { data, error } = await getSupabase()
    .from('addresses')
    .insert({
      ...fieldsOf(input),
      street: input.street.trim(),
      city: input.city.trim(),
      state: input.state.trim(),
      zip: input.zip.trim(),
      user_id: userId,
      is_default: input.is_default === true,
    })
    .select(COLUMNS)
    .single();
  if (error) return { data: null, error };
  return { data, error: null };
}

/** Changes an address's fields (and the default flag when given). */
export async function updateAddress(id: string, input: AddressFields): Promise<DataResult<Address>> {
  const patch: TablesUpdate<'addresses'> = fieldsOf(input);
  if (input.is_default === true) patch.is_default = true;
  const { data, error } = await getSupabase().from('addresses').update(patch).eq('id', id).select(COLUMNS).single();
  if (error) return { data: null, error };
  return { data, error: null };
}

/** Deletes an address; refused by the database when it is the user's only one. */
export async function deleteAddress(id: string): Promise<{ error: Error | null; lastAddress: boolean }> {
  const { error } = await getSupabase().from('addresses').delete().eq('id', id);
  if (!error) return { error: null, lastAddress: false };
  const lastAddress = error.message?.includes(ACCOUNT_ADDRESS_MESSAGES.lastAddress) || error.details === 'last_address';
  return { error: new Error(error.message), lastAddress };
}

/** Makes the address the user's only default, atomically (RPC set_default_address). */
export async function setDefaultAddress(id: string): Promise<{ error: Error | null }> {
  const { error } = await getSupabase().rpc('set_default_address', { address_id: id });
  return { error: error ? new Error(error.message) : null };
}

/**
 * Saves the profile panel's main address: updates the default address, or creates the user's
 * first one (which the database makes default).
 */
export async function saveMainAddress(userId: string, input: AddressFields): Promise<DataResult<Address>> {
  const current = await getDefaultAddress(userId);
  if (current.error) return { data: null, error: current.error };
  if (current.data) return updateAddress(current.data.id, { ...input, label: input.label ?? current.data.label });
  return createAddress(userId, { ...input, is_default: true });
}
