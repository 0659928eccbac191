import { describe, expect, it } from 'vitest';
import {
  cardBrand,
  cardDigits,
  checkCard,
  cvcValid,
  expiryValid,
  luhnValid,
  testCardFunding,
  testCardOutcome,
} from '~/server/payments/providers/test-cards.ts';
import { PAYMENTS_TEST_CARD_MESSAGES as TEST_CARD_MESSAGES } from '~/i18n/payments.ts';

const NOW = new Date('2026-11-22T03:00:00Z');

describe('card rules of the simulated provider', () => {
  it('accepts Stripe’s test numbers by Luhn and rejects a changed digit', () => {
    for (const n of ['4242424242424242', '4000000000000002', '4000000000009995', '4000002760003184', '5555555555554444', '378282246310005']) {
      expect(luhnValid(n)).toBe(true);
    }
    expect(luhnValid('4242424242424241')).toBe(false);
    expect(luhnValid('4242a24242424242')).toBe(false);
  });

  it('reads typed numbers with spaces and hyphens only', () => {
    expect(cardDigits('4242 4242-4242 4242')).toBe('4242424242424242');
    expect(cardDigits('4242.4242.4242.4242')).toBeNull();
    expect(cardDigits('4242')).toBeNull();
  });

  it('knows the brands', () => {
    expect(cardBrand('4242424242424242')).toBe('visa');
    expect(cardBrand('5555555555554444')).toBe('mastercard');
    expect(cardBrand('2223003122003222')).toBe('mastercard');
    expect(cardBrand('378282246310005')).toBe('amex');
    expect(cardBrand('9999999999999995')).toBe('unknown');
  });

  it('checks expiry: the current month is still valid, the previous one is expired', () => {
    expect(expiryValid(11, 26, NOW)).toBe('ok');
    expect(expiryValid(10, 2026, NOW)).toBe('expired');
    expect(expiryValid(13, 2030, NOW)).toBe('invalid');
    expect(expiryValid(0, 2030, NOW)).toBe('invalid');
    expect(expiryValid(1, 2090, NOW)).toBe('invalid');
  });

  it('wants 3 CVC digits, 4 for American Express', () => {
    expect(cvcValid('123', 'visa')).toBe(true);
    expect(cvcValid('1234', 'visa')).toBe(false);
    expect(cvcValid('1234', 'amex')).toBe(true);
    expect(cvcValid('12a', 'visa')).toBe(false);
  });

  it('maps each test card to its outcome; other valid numbers are declined as in test mode', () => {
    expect(testCardOutcome('4242424242424242')).toEqual({ kind: 'succeeded' });
    expect(testCardOutcome('4000000000000002')).toMatchObject({ kind: 'declined', code: 'card_declined', message: TEST_CARD_MESSAGES.declined });
    expect(testCardOutcome('4000000000009995')).toMatchObject({ kind: 'declined', code: 'insufficient_funds', message: TEST_CARD_MESSAGES.insufficientFunds });
    expect(testCardOutcome('4000002760003184')).toEqual({ kind: 'requires_action' });
    expect(testCardOutcome('4111111111111111')).toMatchObject({ kind: 'declined', message: TEST_CARD_MESSAGES.notTestCard });
  });

  it("gives each test card Stripe's funding: the debit and prepaid cards of Stripe's list, every other card credit", () => {
    for (const debit of ['4000056655665556', '5200828282828210', '6011981111111113']) {
      expect(luhnValid(debit)).toBe(true);
      expect(testCardOutcome(debit)).toEqual({ kind: 'succeeded' });
      expect(testCardFunding(debit)).toBe('debit');
    }
    expect(testCardOutcome('5105105105105100')).toEqual({ kind: 'succeeded' });
    expect(testCardFunding('5105105105105100')).toBe('prepaid');
    expect(testCardFunding('4242424242424242')).toBe('credit');
    expect(testCardFunding('4000004840008001')).toBe('credit');
  });

  it('reports the first problem of a typed card in Spanish', () => {
    expect(checkCard({ number: '4242 4242 4242 4241', expMonth: 1, expYear: 30, cvc: '123' }, NOW)).toMatchObject({
      ok: false,
      field: 'number',
      message: TEST_CARD_MESSAGES.number,
    });
    expect(checkCard({ number: '4242424242424242', expMonth: 1, expYear: 2020, cvc: '123' }, NOW)).toMatchObject({
      ok: false,
      field: 'expiry',
      message: TEST_CARD_MESSAGES.expired,
    });
    expect(checkCard({ number: '4242424242424242', expMonth: 1, expYear: 30, cvc: '12' }, NOW)).toMatchObject({ ok: false, field: 'cvc' });
    expect(checkCard({ number: '4242 4242 4242 4242', expMonth: 1, expYear: 30, cvc: ' 123 ' }, NOW)).toEqual({
      ok: true,
      digits: '4242424242424242',
      brand: 'visa',
      expMonth: 1,
      expYear: 2030,
    });
  });
});
