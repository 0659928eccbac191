/**
 * The copy of the shipping address an order keeps (orders.shipping_address, a JSON column): what
 * the shopper chose when paying, whatever their address book says later. One reader for the
 * column and one way to write it in a line, for the account, the checkout, the back office and the
 * e-mails.
 */

/** An order's address copy; a part the column does not hold as text is null. */
export type AddressCopy = {
  label: string | null;
  street: string | null;
  city: string | null;
  state: string | null;
  zip: string | null;
  country: string | null;
};

/** Reads the column: the copy when it holds an object (every part not written as text is null), else null. */
export function parseAddressCopy(value: unknown): AddressCopy | null {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return null;
  const row = value as Record<string, unknown>;
  const text = (key: keyof AddressCopy) => {
    const field = row[key];
    return typeof field === 'string' ? field : null;
  };
  return { label: text('label'), street: text('street'), city: text('city'), state: text('state'), zip: text('zip'), country: text('country') };
}

/** The address copy in one line ('Calle 1, Ciudad, Estado, 01000, México'); null when empty. */
export function formatAddressCopy(address: unknown): string | null {
  const a = parseAddressCopy(address);
  if (!a) return null;
  const parts = [a.street, a.city, a.state, a.zip, a.country].filter((part): part is string => typeof part === 'string' && part.trim() !== '');
  return parts.length === 0 ? null : parts.map((part) => part.trim()).join(', ');
}
