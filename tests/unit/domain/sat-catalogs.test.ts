/**
 * SAT's catalogues as the Datos de facturación form uses them: régimenes by persona física or
 * moral, usos del CFDI by régimen, the form's checks, and the formats of the catalogue's keys.
 */
import { describe, expect, it } from 'vitest';
import {
  cfdiUseAfterRegime,
  cfdiUseOptions,
  cfdiUsesFor,
  checkTaxProfile,
  fieldOfTaxProfileRefusal,
  isSatProductKey,
  isSatUnitKey,
  personKindOf,
  regimesFor,
  rfcVerdict,
  type TaxProfileInput,
} from '~/domain/sat-catalogs.ts';
import { SAT_CFDI_USE_NAMES, SAT_TAX_REGIME_NAMES, TAX_DATA_MESSAGES } from '~/i18n/tax-data.ts';

const codes = (list: readonly { code: string }[]) => list.map((entry) => entry.code);

describe('persona física or moral', () => {
  it('is told by the RFC’s length', () => {
    expect(personKindOf('GODE561231GR8')).toBe('fisica');
    expect(personKindOf('eku-900317-3c9')).toBe('moral');
    expect(personKindOf('GODE56')).toBeNull();
  });
});

describe('régimen fiscal', () => {
  it('offers a persona física only the régimenes SAT allows a persona física', () => {
    const fisica = codes(regimesFor('fisica'));
    expect(fisica).toEqual(['605', '606', '607', '608', '610', '611', '612', '614', '615', '616', '621', '625', '626']);
    expect(fisica).not.toContain('601');
  });

  it('offers a persona moral only the régimenes of a persona moral', () => {
    expect(codes(regimesFor('moral'))).toEqual(['601', '603', '610', '620', '622', '623', '624', '626']);
  });

  it('offers every régimen, with SAT’s name, while the RFC is not typed yet', () => {
    const all = regimesFor(null);
    expect(codes(all)).toEqual(Object.keys(SAT_TAX_REGIME_NAMES));
    expect(all.find((regime) => regime.code === '626')).toMatchObject({ name: 'Régimen Simplificado de Confianza', fisica: true, moral: true });
  });
});

describe('uso del CFDI', () => {
  it('offers G03 Gastos en general to an empresa and to a persona física con actividad empresarial', () => {
    expect(codes(cfdiUsesFor('601'))).toContain('G03');
    expect(codes(cfdiUsesFor('612'))).toEqual(expect.arrayContaining(['G01', 'G03', 'D01', 'S01']));
    expect(cfdiUsesFor('612').find((use) => use.code === 'G03')?.name).toBe(SAT_CFDI_USE_NAMES.G03);
  });

  it('offers a salaried persona física the deducciones personales and S01, never G03', () => {
    const uses = codes(cfdiUsesFor('605'));
    expect(uses).toEqual(['D01', 'D02', 'D03', 'D04', 'D05', 'D06', 'D07', 'D08', 'D09', 'D10', 'S01']);
  });

  it('offers only S01 to sin obligaciones fiscales and nothing without a régimen', () => {
    expect(codes(cfdiUsesFor('616'))).toEqual(['S01']);
    expect(cfdiUsesFor('')).toEqual([]);
  });

  it('keeps the chosen uso when the new régimen allows it, else G03, else S01', () => {
    expect(cfdiUseAfterRegime('612', 'G01')).toBe('G01');
    expect(cfdiUseAfterRegime('601', 'D01')).toBe('G03');
    expect(cfdiUseAfterRegime('605', 'G03')).toBe('S01');
  });
});

const FORM: TaxProfileInput = {
  rfc: 'GODE561231GR8',
  legalName: '  Emilio Gómez Díaz ',
  taxRegime: '612',
  taxZip: ' 06700 ',
  cfdiUse: 'G03',
  invoiceEmail: 'facturas@correo.mx',
};
const FISICA_OK = { ok: true, rfc: 'GODE561231GR8', kind: 'fisica' } as const;

describe('checkTaxProfile', () => {
  it('gives the row to save: the razón social trimmed with its case and accents kept', () => {
    expect(checkTaxProfile(FORM, FISICA_OK)).toEqual({
      ok: true,
      values: { rfc: 'GODE561231GR8', legalName: 'Emilio Gómez Díaz', taxRegime: '612', taxZip: '06700', cfdiUse: 'G03', invoiceEmail: 'facturas@correo.mx' },
    });
  });

  it('names every wrong field with its message', () => {
    const result = checkTaxProfile(
      { rfc: 'GODE561231GR9', legalName: ' ', taxRegime: '', taxZip: '441', cfdiUse: 'G03', invoiceEmail: 'sin-arroba' },
      { ok: false, error: TAX_DATA_MESSAGES.rfcCheckDigit },
    );
    expect(result).toEqual({
      ok: false,
      errors: {
        rfc: TAX_DATA_MESSAGES.rfcCheckDigit,
        legalName: TAX_DATA_MESSAGES.legalNameRequired,
        taxRegime: TAX_DATA_MESSAGES.taxRegimeRequired,
        taxZip: TAX_DATA_MESSAGES.taxZipInvalid,
        cfdiUse: TAX_DATA_MESSAGES.cfdiUseInvalid,
        invoiceEmail: TAX_DATA_MESSAGES.invoiceEmailInvalid,
      },
    });
  });

  it('refuses a régimen of a persona moral for a persona física, and a uso the régimen may not use', () => {
    expect(checkTaxProfile({ ...FORM, taxRegime: '601' }, FISICA_OK)).toEqual({ ok: false, errors: { taxRegime: TAX_DATA_MESSAGES.taxRegimeInvalid } });
    expect(checkTaxProfile({ ...FORM, taxRegime: '605', cfdiUse: 'G03' }, FISICA_OK)).toEqual({
      ok: false,
      errors: { cfdiUse: 'Uso del CFDI no válido para tu régimen' },
    });
  });
});

describe('rfcVerdict', () => {
  it('trusts the library’s check digit but checks the date to the day itself', () => {
    expect(rfcVerdict('GODE560230GR8', { isValid: true })).toEqual({ ok: false, error: TAX_DATA_MESSAGES.rfcDate });
    expect(rfcVerdict('GODE561231GR8', { isValid: false, errors: ['INVALID_VERIFICATION_DIGIT'] })).toEqual({
      ok: false,
      error: TAX_DATA_MESSAGES.rfcCheckDigit,
    });
    expect(rfcVerdict('GODE561231GR8', { isValid: false, errors: ['FORBIDDEN_WORD'] })).toEqual({ ok: false, error: TAX_DATA_MESSAGES.rfcInvalid });
  });
});

describe('the catalogue’s SAT keys', () => {
  it('are 8 digits for ClaveProdServ', () => {
    expect(isSatProductKey('60141101')).toBe(true);
    expect(isSatProductKey('6014110')).toBe(false);
    expect(isSatProductKey('6014110A')).toBe(false);
    expect(isSatProductKey('00000000')).toBe(false);
  });

  it('are 2 or 3 capitals or digits for ClaveUnidad', () => {
    expect(isSatUnitKey('H87')).toBe(true);
    expect(isSatUnitKey('E48')).toBe(true);
    expect(isSatUnitKey('h87')).toBe(false);
    expect(isSatUnitKey('PIEZA')).toBe(false);
  });
});

describe('the form’s helpers', () => {
  it('offer G03 alone until a régimen is chosen, then the régimen’s usos', () => {
    expect(codes(cfdiUseOptions(''))).toEqual(['G03']);
    expect(codes(cfdiUseOptions('616'))).toEqual(['S01']);
  });

  it('name the field a refusal of the database speaks of', () => {
    expect(fieldOfTaxProfileRefusal('new row for relation "tax_profiles" violates check constraint "tax_profiles_rfc_check"')).toBe('rfc');
    expect(fieldOfTaxProfileRefusal('violates check constraint "tax_profiles_legal_name_check"')).toBe('legalName');
    expect(fieldOfTaxProfileRefusal('violates check constraint "tax_profiles_cfdi_use_check"')).toBe('cfdiUse');
    expect(fieldOfTaxProfileRefusal('permission denied for table tax_profiles')).toBeNull();
  });
});
