import { describe, expect, it } from 'vitest';
import { decodeSepomex, parseSepomex, parseSepomexLine, SEPOMEX_HEADER, SepomexFileError } from '~/domain/sepomex.ts';

const NOTICE = 'El Catálogo Nacional de Códigos Postales, es elaborado por Correos de México y se proporciona en forma gratuita.';
const HEADER = SEPOMEX_HEADER.join('|');
const SAN_ANGEL = '01000|San Ángel|Colonia|Álvaro Obregón|Ciudad de México|Ciudad de México|01001|09|01001||09|010|0001|Urbano|01';
const ROMA_NORTE = '06700|Roma Norte|Colonia|Cuauhtémoc|Ciudad de México|Ciudad de México|06001|09|06001||09|015|0009|Urbano|01';
const RURAL = '72960|San Andrés Azumiatla|Pueblo|Puebla|Puebla||72001|21|72001||28|114|0140|Rural|';

/** The file's bytes as Correos de México publishes it: ISO-8859-1, one byte per character. */
function latin1(text: string): Uint8Array {
  return Uint8Array.from(text, (ch) => {
    const code = ch.charCodeAt(0);
    if (code > 0xff) throw new Error(`not Latin-1: ${ch}`);
    return code;
  });
}

describe('decodeSepomex', () => {
  it('reads the official Latin-1 bytes: Cuauhtémoc and Álvaro Obregón keep their accents', () => {
    const bytes = latin1('Cuauhtémoc|Álvaro Obregón|Peñón de los Baños|Ñuño');
    expect(bytes[6]).toBe(0xe9);
    expect(decodeSepomex(bytes)).toBe('Cuauhtémoc|Álvaro Obregón|Peñón de los Baños|Ñuño');
  });

  it('reads a copy saved again as UTF-8, with or without a BOM', () => {
    const utf8 = new TextEncoder().encode('Cuauhtémoc');
    expect(decodeSepomex(utf8)).toBe('Cuauhtémoc');
    expect(decodeSepomex(Uint8Array.from([0xef, 0xbb, 0xbf, ...utf8]))).toBe('Cuauhtémoc');
  });

  it('maps every byte to the character of its value (no windows-1252 substitutions)', () => {
    expect(decodeSepomex(Uint8Array.from([0x41, 0x80, 0x9f, 0xff]))).toBe('A\u0080\u009fÿ');
  });

  it('decodes a file larger than one chunk', () => {
    const text = `${ROMA_NORTE}\n`.repeat(2000);
    expect(decodeSepomex(latin1(text))).toBe(text);
  });
});

describe('parseSepomexLine', () => {
  it('reads the 15 fields into a typed row, empty optional fields as null', () => {
    expect(parseSepomexLine(SAN_ANGEL)).toEqual({
      row: {
        postalCode: '01000',
        settlement: 'San Ángel',
        settlementType: 'Colonia',
        municipality: 'Álvaro Obregón',
        state: 'Ciudad de México',
        city: 'Ciudad de México',
        officeCode: '01001',
        stateKey: '09',
        settlementTypeKey: '09',
        municipalityKey: '010',
        settlementKey: '0001',
        zone: 'Urbano',
        cityKey: '01',
      },
    });
    expect(parseSepomexLine(RURAL)).toMatchObject({ row: { city: null, cityKey: null, zone: 'Rural', settlementType: 'Pueblo' } });
  });

  it('gives the reason a line is not a settlement', () => {
    expect(parseSepomexLine('06700|Roma Norte|Colonia')).toEqual({ reason: "tiene 3 campos separados por '|'; se esperan 15" });
    expect(parseSepomexLine(ROMA_NORTE.replace('06700', '6700'))).toEqual({ reason: "el campo d_codigo no es válido: '6700'" });
    expect(parseSepomexLine(ROMA_NORTE.replace('Roma Norte', ' '))).toEqual({ reason: 'el campo d_asenta está vacío' });
    expect(parseSepomexLine(ROMA_NORTE.replace('|015|', '|15|'))).toEqual({ reason: "el campo c_mnpio no es válido: '15'" });
  });
});

describe('parseSepomex', () => {
  it('skips the notice, checks the header and reads every settlement (CRLF lines)', () => {
    const parsed = parseSepomex([NOTICE, HEADER, SAN_ANGEL, ROMA_NORTE, RURAL, ''].join('\r\n'));
    expect(parsed.errors).toEqual([]);
    expect(parsed.rows.map((r) => [r.postalCode, r.settlement, r.municipality])).toEqual([
      ['01000', 'San Ángel', 'Álvaro Obregón'],
      ['06700', 'Roma Norte', 'Cuauhtémoc'],
      ['72960', 'San Andrés Azumiatla', 'Puebla'],
    ]);
    expect(parsed.postalCodes).toBe(3);
  });

  it('counts a postal code with several settlements once', () => {
    const second = ROMA_NORTE.replace('Roma Norte', 'Roma Norte II').replace('|0009|', '|0010|');
    const parsed = parseSepomex([NOTICE, HEADER, ROMA_NORTE, second].join('\n'));
    expect(parsed.rows).toHaveLength(2);
    expect(parsed.postalCodes).toBe(1);
  });

  it('reports each malformed line with its number and reads the others', () => {
    const text = [NOTICE, HEADER, SAN_ANGEL, '06700|Roma Norte|Colonia', ROMA_NORTE, '', ROMA_NORTE.replace('|09|06001', '|9|06001')].join('\n');
    const parsed = parseSepomex(text);
    expect(parsed.rows.map((r) => r.postalCode)).toEqual(['01000', '06700']);
    expect(parsed.errors).toEqual([
      { line: 4, message: "Línea 4: tiene 3 campos separados por '|'; se esperan 15." },
      { line: 7, message: "Línea 7: el campo c_estado no es válido: '9'." },
    ]);
  });

  it('accepts a copy whose notice line was removed', () => {
    expect(parseSepomex([HEADER, ROMA_NORTE].join('\n')).rows).toHaveLength(1);
  });

  it('refuses a file without the SEPOMEX header, and an empty one', () => {
    expect(() => parseSepomex([NOTICE, 'codigo|colonia|municipio', ROMA_NORTE].join('\n'))).toThrow(SepomexFileError);
    expect(() => parseSepomex([NOTICE, 'codigo|colonia|municipio'].join('\n'))).toThrow(/encabezado de SEPOMEX/);
    expect(() => parseSepomex('\r\n')).toThrow('El archivo está vacío.');
  });

  it('reads the official notice and header of a Latin-1 file end to end', () => {
    const parsed = parseSepomex(decodeSepomex(latin1([NOTICE, HEADER, SAN_ANGEL].join('\r\n'))));
    expect(parsed.rows[0]).toMatchObject({ settlement: 'San Ángel', municipality: 'Álvaro Obregón' });
  });
});
