/**
 * The card rules of the simulated provider: Luhn, expiry and CVC checks, the brand of a number,
 * and what each of Stripe's public test cards does, so test mode behaves like Stripe's.
 */
import type { CardFunding } from '~/domain/invoices.ts';
import { PAYMENTS_TEST_CARD_MESSAGES } from '~/i18n/payments.ts';

/** What confirming a payment with a card leads to. */
export type CardOutcome = { kind: 'succeeded' } | { kind: 'requires_action' } | { kind: 'declined'; code: string; message: string };

/** Digits of a card number as typed (spaces and hyphens allowed), or null when anything else appears. */
export function cardDigits(input: string): string | null {
  const compact = input.replace(/[\s-]/g, '');
  return /^\d{12,19}$/.test(compact) ? compact : null;
}

/** The Luhn checksum that every real card number passes. */
export function luhnValid(digits: string): boolean {
  if (!/^\d+$/.test(digits)) return false;
  let sum = 0;
  let double = false;
  for (let i = digits.length - 1; i >= 0; i -= 1) {
    let d = digits.charCodeAt(i) - 48;
    if (double) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
    double = !double;
  }
  return sum % 10 === 0;
}

/** The brand of a card number, by its prefix (Stripe's brand names). */
export function cardBrand(digits: string): string {
  if (/^4/.test(digits)) return 'visa';
  if (/^(5[1-5]|2[2-7])/.test(digits)) return 'mastercard';
  if (/^3[47]/.test(digits)) return 'amex';
  if (/^(6011|65|64[4-9])/.test(digits)) return 'discover';
  return 'unknown';
}

/** Whether a month/year is a valid, unexpired expiry at `now` (cards expire after their month). */
export function expiryValid(month: number, year: number, now: Date = new Date()): 'ok' | 'invalid' | 'expired' {
  if (!Number.isInteger(month) || !Number.isInteger(year) || month < 1 || month > 12) return 'invalid';
  const fullYear = year < 100 ? 2000 + year : year;
  if (fullYear > now.getUTCFullYear() + 20) return 'invalid';
  const currentMonth = now.getUTCFullYear() * 12 + now.getUTCMonth();
  return fullYear * 12 + (month - 1) < currentMonth ? 'expired' : 'ok';
}

/** CVC: 3 digits, 4 for American Express. */
export function cvcValid(cvc: string, brand: string): boolean {
  return brand === 'amex' ? /^\d{4}$/.test(cvc) : /^\d{3}$/.test(cvc);
}

const OUTCOMES: Record<string, CardOutcome> = {
  '4242424242424242': { kind: 'succeeded' },
  '4000056655665556': { kind: 'succeeded' },
  '5555555555554444': { kind: 'succeeded' },
  '5200828282828210': { kind: 'succeeded' },
  '5105105105105100': { kind: 'succeeded' },
  '6011981111111113': { kind: 'succeeded' },
  '2223003122003222': { kind: 'succeeded' },
  '378282246310005': { kind: 'succeeded' },
  '6011111111111117': { kind: 'succeeded' },
  // Stripe's Mexican credit card that offers 'meses sin intereses'.
  '4000004840008001': { kind: 'succeeded' },
  '4000000000000002': { kind: 'declined', code: 'card_declined', message: PAYMENTS_TEST_CARD_MESSAGES.declined },
  '4000000000009995': { kind: 'declined', code: 'insufficient_funds', message: PAYMENTS_TEST_CARD_MESSAGES.insufficientFunds },
  '4000002760003184': { kind: 'requires_action' },
  '4000002500003155': { kind: 'requires_action' },
};

/**
 * The funding of Stripe's test cards that are not credit cards, as Stripe's testing page lists
 * them (Visa, Mastercard and Discover debit; Mastercard prepaid). Every other test card is a credit card.
 */
const FUNDING: Record<string, CardFunding> = {
  '4000056655665556': 'debit',
  '5200828282828210': 'debit',
  '6011981111111113': 'debit',
  '5105105105105100': 'prepaid',
};

/** The funding a test card's charge reports (Stripe's payment_method_details.card.funding). */
export function testCardFunding(digits: string): CardFunding {
  return FUNDING[digits] ?? 'credit';
}

/** Stripe's Mexican test cards whose issuer offers 'meses sin intereses', with the plans (months). */
const INSTALLMENT_PLANS: Record<string, number[]> = {
  '4000004840008001': [3, 6, 9, 12, 18, 24],
};

/** The plans a test card's issuer offers; none for every other card (debit, foreign). */
export function testCardInstallmentPlans(digits: string): number[] {
  return [...(INSTALLMENT_PLANS[digits] ?? [])];
}

/** What a test card does; any other valid number is declined, as in Stripe's test mode. */
export function testCardOutcome(digits: string): CardOutcome {
  return OUTCOMES[digits] ?? { kind: 'declined', code: 'card_declined', message: PAYMENTS_TEST_CARD_MESSAGES.notTestCard };
}

/** A card as typed into the simulated card form. */
export interface CardInput {
  number: string;
  expMonth: number;
  expYear: number;
  cvc: string;
}

/** Checks a typed card; returns the normalised card or the first Spanish message that applies. */
export function checkCard(
  input: CardInput,
  now: Date = new Date(),
): { ok: true; digits: string; brand: string; expMonth: number; expYear: number } | { ok: false; message: string; field: 'number' | 'expiry' | 'cvc' } {
  const digits = cardDigits(input.number);
  if (!digits || !luhnValid(digits)) return { ok: false, message: PAYMENTS_TEST_CARD_MESSAGES.number, field: 'number' };
  const expiry = expiryValid(input.expMonth, input.expYear, now);
  if (expiry === 'invalid') return { ok: false, message: PAYMENTS_TEST_CARD_MESSAGES.expiry, field: 'expiry' };
  if (expiry === 'expired') return { ok: false, message: PAYMENTS_TEST_CARD_MESSAGES.expired, field: 'expiry' };
  const brand = cardBrand(digits);
  if (!cvcValid(input.cvc.trim(), brand)) return { ok: false, message: PAYMENTS_TEST_CARD_MESSAGES.cvc, field: 'cvc' };
  const expYear = input.expYear < 100 ? 2000 + input.expYear : input.expYear;
  return { ok: true, digits, brand, expMonth: input.expMonth, expYear };
}
