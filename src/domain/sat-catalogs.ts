/**
 * What a factura (CFDI 4.0) asks of a shopper and of the catalogue, as SAT's catalogues define it:
 *
 * - c_RegimenFiscal: each régimen fiscal and whether a persona física, a persona moral or both may
 *   have it;
 * - c_UsoCFDI: the usos a purchase may carry and which régimenes may use each (CP01 Pagos and CN01
 *   Nómina are left out: a sale is never invoiced with them);
 * - the persona física / moral rule of the RFC (13 characters física, 12 moral) and the generic RFCs,
 *   valid only in the factura global;
 * - the formats of c_ClaveProdServ (8 digits) and c_ClaveUnidad (2 or 3 capitals or digits).
 *
 * The database holds the same rules (supabase/migrations/20261129008000_tax_profiles_sat_keys.sql:
 * sat_tax_regime_allowed, sat_cfdi_use_allowed, rfc_is_valid), so what this module accepts is what
 * it stores. The RFC's check digit is computed by the validate-rfc library (src/data/rfc.ts); this
 * module judges its answer with the shop's own rules (`rfcVerdict`).
 */
import { SAT_CFDI_USE_NAMES, SAT_TAX_REGIME_NAMES, TAX_DATA_MESSAGES } from '../i18n/tax-data.ts';

export type PersonKind = 'fisica' | 'moral';
export type TaxRegimeCode = keyof typeof SAT_TAX_REGIME_NAMES;
export type CfdiUseCode = keyof typeof SAT_CFDI_USE_NAMES;

interface TaxRegime {
  code: TaxRegimeCode;
  name: string;
  fisica: boolean;
  moral: boolean;
}

interface CfdiUse {
  code: CfdiUseCode;
  name: string;
  regimes: readonly TaxRegimeCode[];
}

const FISICA_REGIMES: readonly TaxRegimeCode[] = ['605', '606', '607', '608', '610', '611', '612', '614', '615', '616', '621', '625', '626'];
const MORAL_REGIMES: readonly TaxRegimeCode[] = ['601', '603', '610', '620', '622', '623', '624', '626'];

/** c_RegimenFiscal, in SAT's order. */
const TAX_REGIMES: readonly TaxRegime[] = (Object.keys(SAT_TAX_REGIME_NAMES) as TaxRegimeCode[]).map((code) => ({
  code,
  name: SAT_TAX_REGIME_NAMES[code],
  fisica: FISICA_REGIMES.includes(code),
  moral: MORAL_REGIMES.includes(code),
}));

/** Régimenes that may use G01–G03 and I01–I08 (SAT's c_UsoCFDI). */
const BUSINESS_REGIMES: readonly TaxRegimeCode[] = ['601', '603', '606', '612', '620', '621', '622', '623', '624', '625', '626'];
/** Régimenes that may use the deducciones personales D01–D10. */
const PERSONAL_REGIMES: readonly TaxRegimeCode[] = ['605', '606', '607', '608', '611', '612', '614', '615', '625'];
/** Every régimen: S01 Sin efectos fiscales. */
const ALL_REGIMES: readonly TaxRegimeCode[] = TAX_REGIMES.map((regime) => regime.code);

function regimesOfUse(code: CfdiUseCode): readonly TaxRegimeCode[] {
  if (code === 'S01') return ALL_REGIMES;
  return code.startsWith('D') ? PERSONAL_REGIMES : BUSINESS_REGIMES;
}

/** c_UsoCFDI, in SAT's order. */
const CFDI_USES: readonly CfdiUse[] = (Object.keys(SAT_CFDI_USE_NAMES) as CfdiUseCode[]).map((code) => ({
  code,
  name: SAT_CFDI_USE_NAMES[code],
  regimes: regimesOfUse(code),
}));

/** The uso del CFDI a purchase is invoiced with unless the shopper chooses another. */
export const DEFAULT_CFDI_USE: CfdiUseCode = 'G03';

/** The generic RFCs: público en general and extranjero, for the factura global only. */
const GENERIC_RFCS: ReadonlySet<string> = new Set(['XAXX010101000', 'XEXX010101000']);

/** An RFC as SAT writes it: capitals, no spaces or dashes. */
export function normaliseRfc(input: string): string {
  return input.toUpperCase().replace(/[\s-]/g, '');
}

/** Persona física (13 characters) or moral (12), from an RFC's length; null for any other length. */
export function personKindOf(rfc: string): PersonKind | null {
  const length = [...normaliseRfc(rfc)].length;
  if (length === 13) return 'fisica';
  if (length === 12) return 'moral';
  return null;
}

/** The régimenes a persona física or moral may have (every one when the kind is not known yet). */
export function regimesFor(kind: PersonKind | null): readonly TaxRegime[] {
  return kind === null ? TAX_REGIMES : TAX_REGIMES.filter((regime) => regime[kind]);
}

/** The usos del CFDI a régimen may use (none when no régimen is chosen). */
export function cfdiUsesFor(regime: string): readonly CfdiUse[] {
  return CFDI_USES.filter((use) => (use.regimes as readonly string[]).includes(regime));
}

/** The usos the form offers: the régimen's, or G03 alone until a régimen is chosen. */
export function cfdiUseOptions(regime: string): readonly CfdiUse[] {
  const uses = cfdiUsesFor(regime);
  return uses.length > 0 ? uses : CFDI_USES.filter((use) => use.code === DEFAULT_CFDI_USE);
}

/** The field a check of the tax_profiles table speaks of (its constraint named in the refusal). */
export function fieldOfTaxProfileRefusal(message: string): keyof TaxProfileInput | null {
  const match = /tax_profiles_(rfc|legal_name|tax_regime|tax_zip|cfdi_use|invoice_email)_check/.exec(message);
  if (!match) return null;
  const fields: Record<string, keyof TaxProfileInput> = {
    rfc: 'rfc',
    legal_name: 'legalName',
    tax_regime: 'taxRegime',
    tax_zip: 'taxZip',
    cfdi_use: 'cfdiUse',
    invoice_email: 'invoiceEmail',
  };
  return fields[match[1]!] ?? null;
}

/** The uso to offer when the régimen changes: the one chosen if still allowed, else G03 if allowed, else S01. */
export function cfdiUseAfterRegime(regime: string, chosen: string): CfdiUseCode {
  const allowed = cfdiUsesFor(regime).map((use) => use.code);
  if ((allowed as string[]).includes(chosen)) return chosen as CfdiUseCode;
  return allowed.includes(DEFAULT_CFDI_USE) ? DEFAULT_CFDI_USE : 'S01';
}

/** What the validate-rfc library answers for an RFC (its own answer's shape). */
export interface RfcLibraryAnswer {
  isValid: boolean;
  errors?: readonly string[];
}

/** Whether YYMMDD is a date that exists (in the 1900s or the 2000s: an RFC does not say which). */
function rfcDateExists(yymmdd: string): boolean {
  const year = 2000 + Number(yymmdd.slice(0, 2));
  const month = Number(yymmdd.slice(2, 4));
  const day = Number(yymmdd.slice(4, 6));
  if (month < 1 || month > 12 || day < 1) return false;
  // Read in the 2000s, as the database does (rfc_is_valid); day 0 of the next month is this month's last.
  return day <= new Date(Date.UTC(year, month, 0)).getUTCDate();
}

const RFC_SHAPE = /^([A-ZÑ&]{3,4})(\d{6})([A-Z0-9]{3})$/u;

/**
 * A shopper's RFC judged: the library's answer (format, check digit), the date checked to the day
 * (the library lets 30 February through), and the generic RFCs refused. `kind` is persona física or
 * moral; `error` the message to show.
 */
export function rfcVerdict(input: string, answer: RfcLibraryAnswer): { ok: true; rfc: string; kind: PersonKind } | { ok: false; error: string } {
  const rfc = normaliseRfc(input);
  if (rfc === '') return { ok: false, error: TAX_DATA_MESSAGES.rfcRequired };
  if (GENERIC_RFCS.has(rfc)) return { ok: false, error: TAX_DATA_MESSAGES.rfcGeneric };
  const shape = RFC_SHAPE.exec(rfc);
  if (!shape) return { ok: false, error: TAX_DATA_MESSAGES.rfcInvalid };
  if (!rfcDateExists(shape[2]!) || answer.errors?.includes('INVALID_DATE')) return { ok: false, error: TAX_DATA_MESSAGES.rfcDate };
  if (!answer.isValid) {
    const onlyDigit = answer.errors?.length === 1 && answer.errors[0] === 'INVALID_VERIFICATION_DIGIT';
    return { ok: false, error: onlyDigit ? TAX_DATA_MESSAGES.rfcCheckDigit : TAX_DATA_MESSAGES.rfcInvalid };
  }
  return { ok: true, rfc, kind: personKindOf(rfc)! };
}

/** The Datos de facturación form as typed. */
export interface TaxProfileInput {
  rfc: string;
  legalName: string;
  taxRegime: string;
  taxZip: string;
  cfdiUse: string;
  invoiceEmail: string;
}

/** The row to save: RFC in capitals, razón social trimmed only (its case and accents kept). */
export interface TaxProfileValues {
  rfc: string;
  legalName: string;
  taxRegime: TaxRegimeCode;
  taxZip: string;
  cfdiUse: CfdiUseCode;
  invoiceEmail: string;
}

export type TaxProfileErrors = Partial<Record<keyof TaxProfileInput, string>>;

const EMAIL = /^[^@\s]+@[^@\s]+\.[^@\s]+$/;
const LEGAL_NAME_MAX = 300;

function regimeError(regime: string, kind: PersonKind | null): string | undefined {
  if (regime === '') return TAX_DATA_MESSAGES.taxRegimeRequired;
  const known = TAX_REGIMES.find((entry) => entry.code === regime);
  if (!known || (kind !== null && !known[kind])) return TAX_DATA_MESSAGES.taxRegimeInvalid;
  return undefined;
}

function legalNameError(name: string): string | undefined {
  if (name === '') return TAX_DATA_MESSAGES.legalNameRequired;
  return name.length > LEGAL_NAME_MAX ? TAX_DATA_MESSAGES.legalNameTooLong : undefined;
}

/**
 * The form checked field by field, with the RFC's verdict from `rfcVerdict`; the values to save
 * when nothing is wrong. Every rule is one the database checks again.
 */
export function checkTaxProfile(
  input: TaxProfileInput,
  rfc: ReturnType<typeof rfcVerdict>,
): { ok: true; values: TaxProfileValues } | { ok: false; errors: TaxProfileErrors } {
  const legalName = input.legalName.trim();
  const taxZip = input.taxZip.trim();
  const invoiceEmail = input.invoiceEmail.trim();
  const kind = rfc.ok ? rfc.kind : personKindOf(input.rfc);
  const errors: TaxProfileErrors = {
    rfc: rfc.ok ? undefined : rfc.error,
    legalName: legalNameError(legalName),
    taxRegime: regimeError(input.taxRegime, kind),
    taxZip: /^\d{5}$/.test(taxZip) ? undefined : TAX_DATA_MESSAGES.taxZipInvalid,
    cfdiUse: cfdiUsesFor(input.taxRegime).some((use) => use.code === input.cfdiUse) ? undefined : TAX_DATA_MESSAGES.cfdiUseInvalid,
    invoiceEmail: invoiceEmail.length <= 254 && EMAIL.test(invoiceEmail) ? undefined : TAX_DATA_MESSAGES.invoiceEmailInvalid,
  };
  const wrong = Object.fromEntries(Object.entries(errors).filter(([, message]) => message !== undefined)) as TaxProfileErrors;
  if (Object.keys(wrong).length > 0 || !rfc.ok) return { ok: false, errors: wrong };
  return {
    ok: true,
    values: { rfc: rfc.rfc, legalName, taxRegime: input.taxRegime as TaxRegimeCode, taxZip, cfdiUse: input.cfdiUse as CfdiUseCode, invoiceEmail },
  };
}

/** c_ClaveProdServ's format: 8 digits (never 00000000). */
export function isSatProductKey(key: string): boolean {
  return /^\d{8}$/.test(key) && key !== '00000000';
}

/** c_ClaveUnidad's format: 2 or 3 capitals or digits ('H87' pieza, 'E48' unidad de servicio). */
export function isSatUnitKey(key: string): boolean {
  return /^[A-Z0-9]{2,3}$/.test(key);
}
