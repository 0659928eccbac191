import { describe, expect, it } from 'vitest';
import { saleLineLabel } from '~/islands/buylist/sale-line.ts';
import { PRODUCT_FINISH_TEXT, PRODUCT_LANGUAGE_TEXT } from '~/i18n/product.ts';

const line = { name: 'Monkey.D.Luffy', collectorNumber: 'OP05-119', condition: 'LP', language: 'en', finish: 'parallel' } as const;

describe('saleLineLabel', () => {
  it('names the printing by its collector number, with the condition, language and finish', () => {
    expect(saleLineLabel(line)).toBe(`Monkey.D.Luffy (OP05-119) · LP · ${PRODUCT_LANGUAGE_TEXT.en} · ${PRODUCT_FINISH_TEXT.parallel}`);
  });

  it('does not repeat a collector number the name already carries', () => {
    expect(saleLineLabel({ ...line, name: 'Monkey.D.Luffy (OP05-119)' }).startsWith('Monkey.D.Luffy (OP05-119) · LP')).toBe(true);
  });

  it('keeps the name alone when the printing has no collector number', () => {
    expect(saleLineLabel({ ...line, collectorNumber: '' }).startsWith('Monkey.D.Luffy · LP')).toBe(true);
  });
});
