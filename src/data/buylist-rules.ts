/**
 * The buylist's editor from the browser: the rules and the shop's receiving address
 * (`buylist_settings`: everyone reads, admins update), the entries (`buylist_entries`: admins insert,
 * update and delete under row-level security; listed through `admin_buylist_entries`) and the
 * printing search to add one (`search_card_printings`). Every change is recorded by the database
 * (`buylist_rule_events`). Amounts are pesos in the database and Centavos here, converted once.
 */
import type { AddressField, BuylistRules, EntryValues, ReceivingAddress } from '~/domain/buylist-rules.ts';
import { toCentavos, toPesos, type Centavos } from '~/domain/money.ts';
import type { Tables } from './database.types.ts';
import { getSupabase } from './supabase.ts';

/** Why a change was not saved: a duplicate entry, an entry with sales, a value the database refused, or anything else. */
export type SaveProblem = 'duplicate' | 'in_use' | 'invalid' | 'failed';
export type SaveAnswer = { ok: true } | { ok: false; problem: SaveProblem };

function answerOf(error: { code?: string } | null, rows = 1): SaveAnswer {
  if (error) {
    if (error.code === '23505') return { ok: false, problem: 'duplicate' };
    if (error.code === '23503') return { ok: false, problem: 'in_use' };
    if (error.code === '23514' || error.code === '22P02' || error.code === '22003') return { ok: false, problem: 'invalid' };
    return { ok: false, problem: 'failed' };
  }
  // Row-level security hides a row it does not let the caller change: nothing saved.
  return rows > 0 ? { ok: true } : { ok: false, problem: 'failed' };
}

type SettingsRow = Tables<'buylist_settings'>;

const ADDRESS_COLUMNS: Record<AddressField, keyof SettingsRow> = {
  name: 'ship_name',
  street: 'ship_street',
  colonia: 'ship_colonia',
  zip: 'ship_zip',
  municipio: 'ship_municipio',
  state: 'ship_state',
  phone: 'ship_phone',
  hours: 'ship_hours',
};

/** The receiving address of a settings row; null until the owner publishes it. */
function addressOf(row: SettingsRow): ReceivingAddress | null {
  if (!row.ship_name || !row.ship_street || !row.ship_colonia || !row.ship_zip || !row.ship_municipio || !row.ship_state) return null;
  return {
    name: row.ship_name,
    street: row.ship_street,
    colonia: row.ship_colonia,
    zip: row.ship_zip,
    municipio: row.ship_municipio,
    state: row.ship_state,
    phone: row.ship_phone,
    hours: row.ship_hours,
  };
}

/** The rules and the receiving address as the editor shows them; null when they could not be read. */
export async function loadBuylistSettings(): Promise<{ rules: BuylistRules; address: ReceivingAddress | null } | null> {
  const { data, error } = await getSupabase().from('buylist_settings').select('*').maybeSingle();
  if (error || !data) return null;
  return {
    rules: {
      shares: { LP: Number(data.share_lp), MP: Number(data.share_mp), HP: Number(data.share_hp), DMG: Number(data.share_dmg) },
      defaultPercent: data.default_percent === null ? null : Number(data.default_percent),
      bonusPercent: Number(data.credit_bonus_percent),
      minimum: toCentavos(data.min_submission),
      defaultLimit: data.default_limit_per_shopper,
      reservationDays: data.reservation_days,
    },
    address: addressOf(data),
  };
}

/** The shop's receiving address for the shipping instructions; null while unpublished, 'failed' when it could not be read. */
export async function loadReceivingAddress(): Promise<ReceivingAddress | null | 'failed'> {
  const { data, error } = await getSupabase()
    .from('buylist_settings')
    .select('ship_name, ship_street, ship_colonia, ship_zip, ship_municipio, ship_state, ship_phone, ship_hours')
    .maybeSingle();
  if (error || !data) return 'failed';
  return addressOf(data as SettingsRow);
}

/** Saves the rules (admins). */
export async function saveBuylistRules(rules: BuylistRules): Promise<SaveAnswer> {
  const { data, error } = await getSupabase()
    .from('buylist_settings')
    .update({
      share_lp: rules.shares.LP,
      share_mp: rules.shares.MP,
      share_hp: rules.shares.HP,
      share_dmg: rules.shares.DMG,
      default_percent: rules.defaultPercent,
      credit_bonus_percent: rules.bonusPercent,
      min_submission: toPesos(rules.minimum),
      default_limit_per_shopper: rules.defaultLimit,
      reservation_days: rules.reservationDays,
    })
    .eq('id', true)
    .select('id');
  return answerOf(error, data?.length ?? 0);
}

/** Publishes the receiving address, or withdraws it with null (admins). */
export async function saveReceivingAddress(address: ReceivingAddress | null): Promise<SaveAnswer> {
  const patch = Object.fromEntries(
    (Object.keys(ADDRESS_COLUMNS) as AddressField[]).map((field) => [ADDRESS_COLUMNS[field], address ? address[field] : null]),
  ) as Partial<SettingsRow>;
  const { data, error } = await getSupabase().from('buylist_settings').update(patch).eq('id', true).select('id');
  return answerOf(error, data?.length ?? 0);
}

/** An entry of the buylist as the editor lists it. */
export interface EditorEntry {
  id: string;
  productId: string;
  name: string;
  expansion: string;
  collectorNumber: string;
  /** null: any language (or finish). */
  language: string | null;
  finish: string | null;
  active: boolean;
  wanted: number;
  reserved: number;
  bought: number;
  /** Its own NM price; null: the default rule. */
  nmPrice: Centavos | null;
  /** The NM price it pays now (its own or the rule's); null: none, so it is not published. */
  effectiveNmPrice: Centavos | null;
  limitPerShopper: number | null;
}

const money = (value: number | string | null): Centavos | null => (value === null ? null : toCentavos(value));

/** A page of the entries, newest first, matching `search` (name or collector number); null when they could not be read. */
export async function loadEditorEntries(search: string, limit: number, offset: number): Promise<{ entries: EditorEntry[]; total: number } | null> {
  const { data, error } = await getSupabase().rpc('admin_buylist_entries', { p_search: search.trim() || null, p_limit: limit, p_offset: offset });
  if (error || !data) return null;
  return {
    total: Number(data[0]?.total_count ?? 0),
    entries: data.map((row) => ({
      id: row.id ?? '',
      productId: row.product_id ?? '',
      name: row.name ?? '',
      expansion: row.expansion ?? '',
      collectorNumber: row.collector_number ?? '',
      language: row.language,
      finish: row.finish,
      active: row.active ?? false,
      wanted: row.wanted ?? 0,
      reserved: row.reserved ?? 0,
      bought: row.bought ?? 0,
      nmPrice: money(row.nm_price),
      effectiveNmPrice: money(row.effective_nm_price),
      limitPerShopper: row.limit_per_shopper,
    })),
  };
}

/** A printing found to add to the buylist. */
export interface PrintingChoice {
  productId: string;
  name: string;
  franchiseId: string;
  expansion: string;
  collectorNumber: string;
}

/** Printings by name or collector number (at most 20); null when the search failed. */
export async function searchPrintings(search: string): Promise<PrintingChoice[] | null> {
  const { data, error } = await getSupabase().rpc('search_card_printings', { p_search: search.trim(), p_limit: 20 });
  if (error || !data) return null;
  return data.map((row) => ({
    productId: row.product_id ?? '',
    name: row.name ?? '',
    franchiseId: row.franchise_id ?? '',
    expansion: row.expansion ?? '',
    collectorNumber: row.collector_number ?? '',
  }));
}

function entryColumns(values: EntryValues) {
  return { wanted: values.wanted, nm_price: values.nmPrice === null ? null : toPesos(values.nmPrice), limit_per_shopper: values.limitPerShopper };
}

/** Adds a printing to the buylist (optionally for one language and finish), active. */
export async function addEntry(productId: string, language: string | null, finish: string | null, values: EntryValues): Promise<SaveAnswer> {
  const { data, error } = await getSupabase()
    .from('buylist_entries')
    .insert({ product_id: productId, language, finish, active: true, ...entryColumns(values) })
    .select('id');
  return answerOf(error, data?.length ?? 0);
}

/** Changes an entry's wanted copies, NM price and limit. */
export async function updateEntry(id: string, values: EntryValues): Promise<SaveAnswer> {
  const { data, error } = await getSupabase().from('buylist_entries').update(entryColumns(values)).eq('id', id).select('id');
  return answerOf(error, data?.length ?? 0);
}

/** Pauses (false) or resumes (true) buying an entry. */
export async function setEntryActive(id: string, active: boolean): Promise<SaveAnswer> {
  const { data, error } = await getSupabase().from('buylist_entries').update({ active }).eq('id', id).select('id');
  return answerOf(error, data?.length ?? 0);
}

/** Removes an entry; one with sales cannot be removed ('in_use': pause it instead). */
export async function removeEntry(id: string): Promise<SaveAnswer> {
  const { data, error } = await getSupabase().from('buylist_entries').delete().eq('id', id).select('id');
  return answerOf(error, data?.length ?? 0);
}
