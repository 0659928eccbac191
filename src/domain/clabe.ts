/**
 * The CLABE (Clave Bancaria Estandarizada) of a Mexican bank account: 18 digits, the bank's
 * three-digit code first, then the branch's three and the account's eleven, and a check digit
 * computed with the weights 3, 7, 1 repeated over the first seventeen.
 */
import { CLABE_BANK_NAMES, CLABE_TEXT } from '../i18n/buylist.ts';

const WEIGHTS = [3, 7, 1] as const;

/** The digits a shopper typed, without the spaces and dashes people write them with. */
export function clabeDigits(typed: string): string {
  return typed.replace(/[\s-]/g, '');
}

/** The check digit of the first 17 digits of a CLABE. */
export function clabeCheckDigit(first17: string): number {
  let sum = 0;
  for (let i = 0; i < 17; i++) sum += (Number(first17[i]) * WEIGHTS[i % 3]!) % 10;
  return (10 - (sum % 10)) % 10;
}

/** The bank named by a CLABE's first three digits, or null for a code no bank has. */
export function clabeBank(clabe: string): string | null {
  const code = clabe.slice(0, 3);
  return Object.hasOwn(CLABE_BANK_NAMES, code) ? CLABE_BANK_NAMES[code as keyof typeof CLABE_BANK_NAMES] : null;
}

/** What a typed CLABE is: valid with its digits and bank, or the message that says what is wrong. */
export type ClabeCheck = { ok: true; clabe: string; bank: string } | { ok: false; message: string };

/** Checks a typed CLABE: 18 digits, the check digit, a known bank. */
export function checkClabe(typed: string): ClabeCheck {
  const clabe = clabeDigits(typed);
  if (!/^\d{18}$/.test(clabe)) return { ok: false, message: CLABE_TEXT.length };
  if (clabeCheckDigit(clabe) !== Number(clabe[17])) return { ok: false, message: CLABE_TEXT.checkDigit };
  const bank = clabeBank(clabe);
  if (bank === null) return { ok: false, message: CLABE_TEXT.unknownBank };
  return { ok: true, clabe, bank };
}
