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
  // TextDecoder's 'latin1' is windows-1252, which differs for 0x80–0x9F; widening each byte to a
  // UTF-16 code unit gives ISO-8859-1 exactly (each byte the code point of its value).
  return new TextDecoder('utf-16le').decode(Uint16Array.from(bytes));
}

const HEADER_LINE = SEPOMEX_HEADER.join('|');
const FIVE_DIGITS = /^[0-9]{5}$/;

/** How each field is read: where it is, whether it may be empty, and the shape it must have. */
const FIELDS: { key: keyof SepomexRow; index: number; required: boolean; pattern?: RegExp }[] = [
  { key: 'postalCode', index: 0, required: true, pattern: FIVE_DIGITS },
  { key: 'settlement', index: 1, required: true },
  { key: 'settlementType', index: 2, required: true },
  { key: 'municipality', index: 3, required: true },
  { key: 'state', index: 4, required: true },
  { key: 'city', index: 5, required: false },
  { key: 'officeCode', index: 6, required: false, pattern: FIVE_DIGITS },
  { key: 'stateKey', index: 7, required: true, pattern: /^[0-9]{2}$/ },
  { key: 'settlementTypeKey', index: 10, required: false, pattern: /^[0-9]{1,3}$/ },
  { key: 'municipalityKey', index: 11, required: true, pattern: /^[0-9]{3}$/ },
  { key: 'settlementKey', index: 12, required: true, pattern: /^[0-9]{1,6}$/ },
  { key: 'zone', index: 13, required: false },
  { key: 'cityKey', index: 14, required: false, pattern: /^[0-9]{1,3}$/ },
];

/** One data line as a row, or the reason it is not one. */
export function parseSepomexLine(line: string): { row: SepomexRow } | { reason: string } {
  const values = line.split('|');
  if (values.length !== SEPOMEX_HEADER.length) return { reason: T.fieldCount(values.length) };
  const row: Partial<Record<keyof SepomexRow, string | null>> = {};
  for (const { key, index, required, pattern } of FIELDS) {
    const value = values[index]!.trim();
    if (value === '') {
      if (required) return { reason: T.required(SEPOMEX_HEADER[index]!) };
      row[key] = null;
    } else if (pattern && !pattern.test(value)) {
      return { reason: T.badValue(SEPOMEX_HEADER[index]!, value) };
    } else {
      row[key] = value;
    }
  }
  return { row: row as SepomexRow };
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
