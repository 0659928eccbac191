/**
 * The SEPOMEX postal-code catalogue as Correos de México publishes it (CPdescarga.txt): Latin-1
 * text, a notice on line 1, the 15-field header on line 2, then one settlement (asentamiento) per
 * line, fields separated by '|'. This module decodes the bytes and reads each line into a typed
 * row, reporting every line it cannot read with its number (1-based, as an editor shows it).
 */
import { SEPOMEX_PARSE_TEXT as T } from '../i18n/sepomex.ts';

/** The header line's fields, in the file's order and spelling. */
export const SEPOMEX_HEADER = [
  'd_codigo',
  'd_asenta',
  'd_tipo_asenta',
  'D_mnpio',
  'd_estado',
  'd_ciudad',
  'd_CP',
  'c_estado',
  'c_oficina',
  'c_CP',
  'c_tipo_asenta',
  'c_mnpio',
  'id_asenta_cpcons',
  'd_zona',
  'c_cve_ciudad',
] as const;

/** One settlement of the catalogue; an empty optional field is null. */
export interface SepomexRow {
  /** d_codigo: 5 digits, leading zeros kept. */
  postalCode: string;
  /** d_asenta: the colonia, barrio, fraccionamiento… */
  settlement: string;
  /** d_tipo_asenta: 'Colonia', 'Barrio', 'Pueblo', … */
  settlementType: string;
  /** D_mnpio: the municipality (alcaldía in Mexico City). */
  municipality: string;
  /** d_estado */
  state: string;
  /** d_ciudad: empty for many rural settlements. */
  city: string | null;
  /** d_CP: the delivering office's postal code. */
  officeCode: string | null;
  /** c_estado: INEGI's 2-digit state key. */
  stateKey: string;
  /** c_tipo_asenta */
  settlementTypeKey: string | null;
  /** c_mnpio: INEGI's 3-digit municipality key within the state. */
  municipalityKey: string;
  /** id_asenta_cpcons: the settlement's id within its municipality. */
  settlementKey: string;
  /** d_zona: 'Urbano', 'Rural' or 'Semiurbano'. */
  zone: string | null;
  /** c_cve_ciudad: empty where d_ciudad is. */
  cityKey: string | null;
}

/** A line that could not be read. */
export interface SepomexLineError {
  line: number;
  message: string;
}

export interface SepomexParse {
  rows: SepomexRow[];
  errors: SepomexLineError[];
  /** How many distinct postal codes the rows have. */
  postalCodes: number;
}

/** The file cannot be read at all (empty, or no SEPOMEX header). */
export class SepomexFileError extends Error {
  override name = 'SepomexFileError';
}

const UTF8_BOM = [0xef, 0xbb, 0xbf];

function hasHighBytes(bytes: Uint8Array): boolean {
  for (const byte of bytes) if (byte > 0x7f) return true;
  return false;
}

/**
 * The file's text. The official file is ISO-8859-1, each byte one character; a copy someone saved
 * again as UTF-8 (a BOM, or valid UTF-8 throughout) is read as UTF-8 so its accents survive too.
 */
export function decodeSepomex(bytes: Uint8Array): string {
  if (UTF8_BOM.every((b, i) => bytes[i] === b)) return new TextDecoder('utf-8').decode(bytes.subarray(3));
  if (hasHighBytes(bytes)) {
    try {
      return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    } catch {
      // Not UTF-8: the official Latin-1.
    }
  }
  // TextDecoder's 'latin1' is windows-1252; ISO-8859-1 maps each byte to the code point of its value.
  const parts: string[] = [];
  const CHUNK = 0x8000;
  for (let i = 0; i < bytes.length; i += CHUNK) parts.push(String.fromCharCode(...bytes.subarray(i, i + CHUNK)));
  return parts.join('');
}

const HEADER_LINE = SEPOMEX_HEADER.join('|');
const FIVE_DIGITS = /^[0-9]{5}$/;

type Checked = { ok: true; value: string | null } | { ok: false; reason: string };

/** A field's trimmed value: required ones must not be empty, and a pattern must match when given. */
function field(values: string[], index: number, required: boolean, pattern?: RegExp): Checked {
  const name = SEPOMEX_HEADER[index]!;
  const value = (values[index] ?? '').trim();
  if (value === '') return required ? { ok: false, reason: T.required(name) } : { ok: true, value: null };
  if (pattern && !pattern.test(value)) return { ok: false, reason: T.badValue(name, value) };
  return { ok: true, value };
}

/** One data line as a row, or the reason it is not one. */
export function parseSepomexLine(line: string): { row: SepomexRow } | { reason: string } {
  const values = line.split('|');
  if (values.length !== SEPOMEX_HEADER.length) return { reason: T.fieldCount(values.length) };
  const checks = {
    postalCode: field(values, 0, true, FIVE_DIGITS),
    settlement: field(values, 1, true),
    settlementType: field(values, 2, true),
    municipality: field(values, 3, true),
    state: field(values, 4, true),
    city: field(values, 5, false),
    officeCode: field(values, 6, false, FIVE_DIGITS),
    stateKey: field(values, 7, true, /^[0-9]{2}$/),
    settlementTypeKey: field(values, 10, false, /^[0-9]{1,3}$/),
    municipalityKey: field(values, 11, true, /^[0-9]{3}$/),
    settlementKey: field(values, 12, true, /^[0-9]{1,6}$/),
    zone: field(values, 13, false),
    cityKey: field(values, 14, false, /^[0-9]{1,3}$/),
  };
  const row: Record<string, string | null> = {};
  for (const [key, check] of Object.entries(checks)) {
    if (!check.ok) return { reason: check.reason };
    row[key] = check.value;
  }
  return { row: row as unknown as SepomexRow };
}

/**
 * Reads the whole file's text: skips the notice line, checks the header, and reads every other
 * non-blank line. Throws SepomexFileError when there is no header on line 1 or 2.
 */
export function parseSepomex(text: string): SepomexParse {
  const lines = text.split(/\r?\n/);
  if (lines.every((line) => line.trim() === '')) throw new SepomexFileError(T.empty);
  // The official file has its notice on line 1 and the header on line 2; a copy without the notice
  // has the header first.
  const headerIndex = [0, 1].find((i) => lines[i]?.trim() === HEADER_LINE);
  if (headerIndex === undefined) throw new SepomexFileError(T.noHeader(HEADER_LINE));
  const rows: SepomexRow[] = [];
  const errors: SepomexLineError[] = [];
  const codes = new Set<string>();
  for (let i = headerIndex + 1; i < lines.length; i += 1) {
    const line = lines[i]!;
    if (line.trim() === '') continue;
    const parsed = parseSepomexLine(line);
    if ('reason' in parsed) {
      errors.push({ line: i + 1, message: T.line(i + 1, parsed.reason) });
      continue;
    }
    rows.push(parsed.row);
    codes.add(parsed.row.postalCode);
  }
  return { rows, errors, postalCodes: codes.size };
}
