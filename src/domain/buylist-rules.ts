/**
 * The back office's buylist editor, read from its forms: the rules (the share each condition pays,
 * the default rule, the saldo bonus, the minimum, the default per-shopper limit, the days to
 * receive), the shop's receiving address and an entry (wanted, NM price, limit). Each reader
 * returns the values to save, or the problem of each field (a code the screen names in Spanish).
 * The database checks the same bounds again.
 */
import { pesosInputToCentavos, type Centavos } from './money.ts';

/** What is wrong with a field. */
export type FieldProblem = 'percent' | 'share_order' | 'money' | 'limit' | 'days' | 'wanted' | 'price' | 'required' | 'zip' | 'phone' | 'too_long';

/** A form's reading: the values, or the problem of each field that has one. */
export type FormReading<T, F extends string> = { ok: true; value: T } | { ok: false; problems: Partial<Record<F, FieldProblem>> };

/** The shares of the NM price the lower conditions pay, in percent. */
export interface ConditionShares {
  LP: number;
  MP: number;
  HP: number;
  DMG: number;
}

/** The buylist's rules as the database keeps them (buylist_settings). */
export interface BuylistRules {
  shares: ConditionShares;
  /** Percent of the cheapest NM offer paid for entries without a price of their own; null: no default rule. */
  defaultPercent: number | null;
  bonusPercent: number;
  minimum: Centavos;
  defaultLimit: number;
  reservationDays: number;
}

/** The rules form as typed. */
export interface RulesForm {
  shareLp: string;
  shareMp: string;
  shareHp: string;
  shareDmg: string;
  defaultOn: boolean;
  defaultPercent: string;
  bonus: string;
  minimum: string;
  defaultLimit: string;
  reservationDays: string;
}
export type RulesField = Exclude<keyof RulesForm, 'defaultOn'>;

const PERCENT = /^\d{1,3}(?:\.\d{1,2})?$/;
const WHOLE = /^\d{1,6}$/;

/** A percent between 0 and 100 with up to two decimals; null when it is not one. */
function percentOf(text: string): number | null {
  const value = text.trim();
  if (!PERCENT.test(value)) return null;
  const number = Number(value);
  return number <= 100 ? number : null;
}

/** A whole number between `min` and `max`; null when it is not one. */
function wholeOf(text: string, min: number, max: number): number | null {
  const value = text.trim();
  if (!WHOLE.test(value)) return null;
  const number = Number(value);
  return number >= min && number <= max ? number : null;
}

/** The rules form's values, or its problems. A lower condition never pays more than a better one. */
export function readRulesForm(form: RulesForm): FormReading<BuylistRules, RulesField> {
  const problems: Partial<Record<RulesField, FieldProblem>> = {};
  const shares = { LP: percentOf(form.shareLp), MP: percentOf(form.shareMp), HP: percentOf(form.shareHp), DMG: percentOf(form.shareDmg) };
  const fields = { LP: 'shareLp', MP: 'shareMp', HP: 'shareHp', DMG: 'shareDmg' } as const;
  const order = ['LP', 'MP', 'HP', 'DMG'] as const;
  order.forEach((condition, i) => {
    const share = shares[condition];
    if (share === null) problems[fields[condition]] = 'percent';
    else if (i > 0) {
      const better = shares[order[i - 1]!];
      if (better !== null && share > better) problems[fields[condition]] = 'share_order';
    }
  });
  const defaultPercent = form.defaultOn ? percentOf(form.defaultPercent) : null;
  if (form.defaultOn && defaultPercent === null) problems.defaultPercent = 'percent';
  const bonus = percentOf(form.bonus);
  if (bonus === null) problems.bonus = 'percent';
  const minimum = pesosInputToCentavos(form.minimum);
  if (minimum === null) problems.minimum = 'money';
  const defaultLimit = wholeOf(form.defaultLimit, 1, 999);
  if (defaultLimit === null) problems.defaultLimit = 'limit';
  const reservationDays = wholeOf(form.reservationDays, 1, 90);
  if (reservationDays === null) problems.reservationDays = 'days';
  if (Object.keys(problems).length > 0) return { ok: false, problems };
  return {
    ok: true,
    value: {
      shares: shares as ConditionShares,
      defaultPercent,
      bonusPercent: bonus!,
      minimum: minimum!,
      defaultLimit: defaultLimit!,
      reservationDays: reservationDays!,
    },
  };
}

/** The shop's receiving address: where shoppers send the cards they sell, and the counter's hours. */
export interface ReceivingAddress {
  name: string;
  street: string;
  colonia: string;
  zip: string;
  municipio: string;
  state: string;
  /** 10 digits, or null. */
  phone: string | null;
  hours: string | null;
}
export type AddressField = keyof ReceivingAddress;

const ADDRESS_LIMITS: Record<AddressField, number> = {
  name: 100,
  street: 150,
  colonia: 100,
  zip: 5,
  municipio: 100,
  state: 60,
  phone: 10,
  hours: 200,
};
const REQUIRED: readonly AddressField[] = ['name', 'street', 'colonia', 'zip', 'municipio', 'state'];

/**
 * The address form's values: the address, or null when every field is empty (the address is not
 * published); else the problems. The phone may be typed with spaces or dashes.
 */
export function readAddressForm(form: Record<AddressField, string>): FormReading<ReceivingAddress | null, AddressField> {
  const text = Object.fromEntries(Object.entries(form).map(([key, value]) => [key, value.trim().replace(/\s+/g, ' ')])) as Record<AddressField, string>;
  text.phone = text.phone.replace(/[\s().-]/g, '');
  if (Object.values(text).every((value) => value === '')) return { ok: true, value: null };
  const problems: Partial<Record<AddressField, FieldProblem>> = {};
  for (const field of REQUIRED) if (text[field] === '') problems[field] = 'required';
  for (const field of Object.keys(ADDRESS_LIMITS) as AddressField[]) {
    if (!problems[field] && text[field].length > ADDRESS_LIMITS[field]) problems[field] = 'too_long';
  }
  if (!problems.zip && !/^\d{5}$/.test(text.zip)) problems.zip = 'zip';
  if (text.phone !== '' && !/^\d{10}$/.test(text.phone)) problems.phone = 'phone';
  if (Object.keys(problems).length > 0) return { ok: false, problems };
  return { ok: true, value: { ...text, phone: text.phone || null, hours: text.hours || null } };
}

/** An entry's editable values: how many the shop wants, its NM price (null: the default rule), its limit (null: the default). */
export interface EntryValues {
  wanted: number;
  nmPrice: Centavos | null;
  limitPerShopper: number | null;
}
export type EntryField = 'wanted' | 'nmPrice' | 'limitPerShopper';

/** The entry form's values, or its problems: an empty price follows the default rule, an empty limit the default. */
export function readEntryForm(form: Record<EntryField, string>): FormReading<EntryValues, EntryField> {
  const problems: Partial<Record<EntryField, FieldProblem>> = {};
  const wanted = wholeOf(form.wanted, 0, 100000);
  if (wanted === null) problems.wanted = 'wanted';
  const priceText = form.nmPrice.trim();
  const nmPrice = priceText === '' ? null : pesosInputToCentavos(priceText);
  if (priceText !== '' && (nmPrice === null || nmPrice <= 0)) problems.nmPrice = 'price';
  const limitText = form.limitPerShopper.trim();
  const limitPerShopper = limitText === '' ? null : wholeOf(limitText, 1, 999);
  if (limitText !== '' && limitPerShopper === null) problems.limitPerShopper = 'limit';
  if (Object.keys(problems).length > 0) return { ok: false, problems };
  return { ok: true, value: { wanted: wanted!, nmPrice, limitPerShopper } };
}
