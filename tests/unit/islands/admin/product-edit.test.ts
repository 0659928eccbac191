import { describe, expect, it, vi } from 'vitest';
import { ADMIN_PRODUCT_EDIT_TEXT as EDIT_MESSAGES } from '~/i18n/admin.ts';
import { DROP_ADMIN_FIELD_TEXT } from '~/i18n/drops.ts';

vi.mock('astro:env/client', () => ({ PUBLIC_SUPABASE_URL: undefined, PUBLIC_SUPABASE_ANON_KEY: undefined }));

const { validateProductEdit } = await import('~/islands/admin/product-edit.ts');
const { VALIDATION_MESSAGES: MESSAGES } = await import('~/i18n/validation.ts');

const valid = {
  price: '750',
  originalPrice: '1000',
  stock: '7',
  limitPerCustomer: '2',
  available: true,
  preorder: false,
  releaseDate: '2026-12-01',
  description: 'Caja sellada',
  images: ['products/a.svg'],
};

describe('the product edit dialog validates like the add form', () => {
  it('accepts a valid edit and parses numbers and dates', () => {
    const result = validateProductEdit(valid);
    expect(result).toEqual({
      ok: true,
      data: {
        price: 75000,
        originalPrice: 100000,
        stock: 7,
        limitPerCustomer: 2,
        available: true,
        preorder: false,
        releaseDate: '2026-12-01',
        onSaleAt: null,
        description: 'Caja sellada',
        images: ['products/a.svg'],
      },
    });
  });

  it("reads 'A la venta desde' as Mexico City time, and refuses a date that does not exist", () => {
    const drop = validateProductEdit({ ...valid, onSaleAt: '2026-12-11T10:00' });
    expect(drop.ok && drop.data.onSaleAt).toBe('2026-12-11T16:00:00.000Z');
    const bad = validateProductEdit({ ...valid, onSaleAt: '2026-02-30T10:00' });
    expect(bad.ok).toBe(false);
    if (bad.ok) return;
    expect(bad.fieldErrors.onSaleAt).toBe(DROP_ADMIN_FIELD_TEXT.invalid);
  });

  it("answers with the add form's messages", () => {
    const result = validateProductEdit({ ...valid, price: '12,5', stock: '-1', limitPerCustomer: '0', releaseDate: '2026-02-30' });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.formError).toBe(MESSAGES.reviewFields);
    expect(result.fieldErrors).toMatchObject({
      price: MESSAGES.productPrice,
      stock: MESSAGES.productStock,
      limitPerCustomer: MESSAGES.productLimit,
      releaseDate: MESSAGES.productReleaseDate,
    });
  });

  it('allows no original price, refuses one not above the price, and needs an image', () => {
    expect(validateProductEdit({ ...valid, originalPrice: '' })).toMatchObject({ ok: true, data: { originalPrice: null, releaseDate: '2026-12-01' } });
    expect(validateProductEdit({ ...valid, originalPrice: '700' })).toMatchObject({ ok: false, fieldErrors: { originalPrice: EDIT_MESSAGES.originalPrice } });
    expect(validateProductEdit({ ...valid, releaseDate: '' })).toMatchObject({ ok: true, data: { releaseDate: null } });
    expect(validateProductEdit({ ...valid, images: [] })).toMatchObject({ ok: false, fieldErrors: { images: EDIT_MESSAGES.noImages } });
  });
});

describe("the product edit dialog's SAT keys", () => {
  it('passes an 8-digit product key and a unit key in capitals, and empty ones for the defaults', async () => {
    const { ADMIN_PRODUCT_SAT_KEYS_TEXT } = await import('~/i18n/tax-data.ts');
    expect(validateProductEdit({ ...valid, satProductKey: ' 60141103 ', satUnitKey: 'xbx' })).toMatchObject({
      ok: true,
      data: { satProductKey: '60141103', satUnitKey: 'XBX' },
    });
    expect(validateProductEdit({ ...valid, satProductKey: '', satUnitKey: '' })).toMatchObject({ ok: true, data: { satProductKey: '', satUnitKey: '' } });
    expect(validateProductEdit({ ...valid, satProductKey: '6014110', satUnitKey: 'PIEZA' })).toMatchObject({
      ok: false,
      fieldErrors: { satProductKey: ADMIN_PRODUCT_SAT_KEYS_TEXT.productKeyInvalid, satUnitKey: ADMIN_PRODUCT_SAT_KEYS_TEXT.unitKeyInvalid },
    });
  });
});
