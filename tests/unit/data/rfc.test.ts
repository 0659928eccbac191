/**
 * A shopper's RFC through validate-rfc and the shop's rules: a persona física's and a persona
 * moral's RFC pass and say which they are; a wrong check digit, a date that does not exist and the
 * generic RFCs of the factura global are refused with their Spanish message.
 */
import { describe, expect, it } from 'vitest';
import { checkRfc } from '~/data/rfc.ts';
import { TAX_DATA_MESSAGES } from '~/i18n/tax-data.ts';

describe('checkRfc', () => {
  it('accepts a persona física’s RFC (13 characters), typed in lower case with spaces', () => {
    expect(checkRfc(' gode 561231 gr8 ')).toEqual({ ok: true, rfc: 'GODE561231GR8', kind: 'fisica' });
  });

  it('accepts a persona moral’s RFC (12 characters)', () => {
    expect(checkRfc('EKU9003173C9')).toEqual({ ok: true, rfc: 'EKU9003173C9', kind: 'moral' });
  });

  it('accepts an RFC with Ñ and & as SAT writes them', () => {
    expect(checkRfc('MUÑO800101AB3')).toMatchObject({ ok: true, kind: 'fisica' });
  });

  it('refuses a wrong check digit', () => {
    expect(checkRfc('GODE561231GR9')).toEqual({ ok: false, error: TAX_DATA_MESSAGES.rfcCheckDigit });
    expect(checkRfc('EKU9003173C8')).toEqual({ ok: false, error: TAX_DATA_MESSAGES.rfcCheckDigit });
  });

  it('refuses a date that does not exist, the 30th of February included (which the library lets through)', () => {
    // Both end in the check digit their first 12 characters give, so only the date is wrong.
    expect(checkRfc('GODE561331GR2')).toEqual({ ok: false, error: TAX_DATA_MESSAGES.rfcDate });
    expect(checkRfc('GODE560230GR8')).toEqual({ ok: false, error: TAX_DATA_MESSAGES.rfcDate });
  });

  it('refuses the generic RFCs as a shopper’s tax data', () => {
    expect(checkRfc('XAXX010101000')).toEqual({ ok: false, error: TAX_DATA_MESSAGES.rfcGeneric });
    expect(checkRfc('xexx010101000')).toEqual({ ok: false, error: TAX_DATA_MESSAGES.rfcGeneric });
  });

  it('refuses a bad format and an empty RFC', () => {
    expect(checkRfc('GODE5612')).toEqual({ ok: false, error: TAX_DATA_MESSAGES.rfcInvalid });
    expect(checkRfc('G0DE561231GR8')).toEqual({ ok: false, error: TAX_DATA_MESSAGES.rfcInvalid });
    expect(checkRfc('  ')).toEqual({ ok: false, error: TAX_DATA_MESSAGES.rfcRequired });
  });
});
