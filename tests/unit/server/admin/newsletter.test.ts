import { describe, expect, it } from 'vitest';
import { csvField, toCsv } from '~/server/admin/newsletter.ts';

describe('CSV (RFC 4180)', () => {
  it('quotes fields with commas, quotes and line breaks, doubling the quotes', () => {
    expect(csvField('a@b.mx')).toBe('a@b.mx');
    expect(csvField('uno,dos')).toBe('"uno,dos"');
    expect(csvField('di "hola"')).toBe('"di ""hola"""');
    expect(csvField('línea\nnueva')).toBe('"línea\nnueva"');
    expect(csvField(null)).toBe('');
  });

  it('never lets a field run as a spreadsheet formula', () => {
    expect(csvField('=HYPERLINK("x")')).toBe('"\'=HYPERLINK(""x"")"');
    expect(csvField('+52')).toBe("'+52");
  });

  it('writes a header row and CRLF line ends', () => {
    expect(
      toCsv(
        ['correo', 'fecha'],
        [
          ['a@b.mx', '2026-11-01'],
          ['c,d@e.mx', 'x'],
        ],
      ),
    ).toBe('correo,fecha\r\na@b.mx,2026-11-01\r\n"c,d@e.mx",x\r\n');
  });
});
