/**
 * The copy of the shipping address an order keeps (orders.shipping_address, a JSON column): what
 * the shopper chose when paying, whatever their address book says later. One reader for the
 * column and one way to write an address, in the order a courier reads it, for the address book,
 * the checkout, the confirmation, the back office and the e-mails.
 */
import { ADDRESS_LINES_TEXT as TEXT } from '../i18n/addresses.ts';

/** An order's address copy; a part the column does not hold as text is null. */
export type AddressCopy = {
  label: string | null;
  street: string | null;
  exterior_number: string | null;
  interior_number: string | null;
  neighborhood: string | null;
  municipality: string | null;
  city: string | null;
  state: string | null;
  zip: string | null;
  country: string | null;
  references: string | null;
  phone: string | null;
};

const COPY_KEYS = [
  'label',
  'street',
  'exterior_number',
  'interior_number',
  'neighborhood',
  'municipality',
  'city',
  'state',
  'zip',
  'country',
  'references',
  'phone',
] as const satisfies readonly (keyof AddressCopy)[];

/** Reads the column: the copy when it holds an object (every part not written as text is null), else null. */
export function parseAddressCopy(value: unknown): AddressCopy | null {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return null;
  const row = value as Record<string, unknown>;
  const copy = {} as AddressCopy;
  for (const key of COPY_KEYS) {
    const field = row[key];
    copy[key] = typeof field === 'string' ? field : null;
  }
  return copy;
}

/** The parts of an address the lines are written from; a missing part is left out. */
export type AddressParts = { [K in Exclude<keyof AddressCopy, 'label'>]?: string | null };

/** A stored address row's parts (the row keeps the references as delivery_references). */
export function partsOfAddress(row: Omit<AddressParts, 'references'> & { delivery_references?: string | null }): AddressParts {
  const { delivery_references, ...rest } = row;
  return { ...rest, references: delivery_references ?? null };
}

/** '5512345678' as '55 1234 5678'; anything else as it is. */
function spacedPhone(phone: string): string {
  return /^\d{10}$/.test(phone) ? `${phone.slice(0, 2)} ${phone.slice(2, 6)} ${phone.slice(6)}` : phone;
}

/**
 * An address in the order a courier reads it, one line each: who receives and their phone; street,
 * exterior and interior number; colonia; postal code, municipio (and the city when it is another);
 * state and country; references. Empty parts are left out, so an address saved before the Mexican
 * parts were asked (the number inside street) reads 'street', 'C.P. zip, city', 'state, country'.
 */
export function addressLines(address: AddressParts, options: { name?: string | null } = {}): string[] {
  const part = (value: string | null | undefined) => (typeof value === 'string' && value.trim() !== '' ? value.trim() : null);
  const join = (parts: (string | null)[], separator: string) => {
    const kept = parts.filter((p): p is string => p !== null);
    return kept.length === 0 ? null : kept.join(separator);
  };
  const phone = part(address.phone);
  const interior = part(address.interior_number);
  const neighborhood = part(address.neighborhood);
  const zip = part(address.zip);
  const municipality = part(address.municipality);
  const city = part(address.city);
  const references = part(address.references);
  const lines = [
    join([part(options.name), phone && TEXT.phone(spacedPhone(phone))], ' · '),
    join([join([part(address.street), part(address.exterior_number)], ' '), interior && TEXT.interior(interior)], ', '),
    neighborhood && TEXT.neighborhood(neighborhood),
    join([zip && TEXT.zip(zip), municipality, city !== null && city.toLowerCase() !== municipality?.toLowerCase() ? city : null], ', '),
    join([part(address.state), part(address.country)], ', '),
    references && TEXT.references(references),
  ];
  return lines.filter((line): line is string => line !== null);
}

/** The address copy in one line, the courier's order joined by commas; null when empty. */
export function formatAddressCopy(address: unknown): string | null {
  const a = parseAddressCopy(address);
  if (!a) return null;
  const lines = addressLines(a);
  return lines.length === 0 ? null : lines.join(', ');
}
