/**
 * Typing helpers of the card form: the number grouped as printed on the card, the expiry as
 * 'MM/AA' whatever the shopper types ('1230', '12 30', '12/30'), and the expiry read back.
 */

/** American Express numbers (34…, 37…): 15 digits printed 4-6-5. */
const AMEX = /^3[47]/;

/**
 * A card number grouped as the shopper types it: in fours (up to 19 digits), American Express
 * 4-6-5 (15 digits). Anything but digits is dropped.
 */
export function formatCardNumber(value: string): string {
  const digits = value.replace(/\D/g, '');
  if (AMEX.test(digits)) {
    const amex = digits.slice(0, 15);
    return [amex.slice(0, 4), amex.slice(4, 10), amex.slice(10)].filter(Boolean).join(' ');
  }
  return digits.slice(0, 19).replace(/(\d{4})(?=\d)/g, '$1 ');
}

/**
 * The expiry field's text as the shopper types it: digits only, the slash added once the month
 * is complete ('1' → '1', '12' → '12/', '1230' → '12/30', '12 30' → '12/30'), a one-digit month
 * padded when it can only be one ('4' → '04/', '1/' → '01/'), at most a four-digit year
 * ('12/2030', as some autofill writes it). `previous` is the field's text before this change:
 * when the shopper deletes (the new text is shorter), no slash is added back, so backspace goes
 * through the slash naturally ('12/3' → '12/' → '12' → '1').
 */
export function formatExpiry(value: string, previous = ''): string {
  let digits = value.replace(/\D/g, '');
  // '4' can only be April; '1/' or '1 ' means January.
  if (/^[2-9]/.test(digits) || /^\s*\d\s*[/\s-]/.test(value)) digits = `0${digits}`;
  digits = digits.slice(0, 6);
  if (digits.length < 2) return digits;
  // Deleting keeps what is left: '12/3' → '12/', then '12/' → '12'.
  if (digits.length === 2) return value.length < previous.length && !/[/\s-]\s*$/.test(value) ? digits : `${digits}/`;
  return `${digits.slice(0, 2)}/${digits.slice(2)}`;
}

/**
 * The expiry as numbers. It reads 'MM/AA', 'MM/AAAA', 'MMAA' and 'MM AA' (a one-digit month too when a
 * separator follows it: '4/31'); null when it is not a month of a year.
 */
export function parseExpiry(value: string): { month: number; year: number } | null {
  const match = /^\s*(\d{2})\s*[/\s-]?\s*(\d{2}|\d{4})\s*$/.exec(value) ?? /^\s*(\d)\s*[/\s-]\s*(\d{2}|\d{4})\s*$/.exec(value);
  if (!match) return null;
  const month = Number(match[1]);
  if (month < 1 || month > 12) return null;
  return { month, year: Number(match[2]) };
}
