/**
 * Credit notes (CFDI de egreso) against the factura global: when a sale the global covered is
 * refunded, the shop credits the refunded amount with one concept, its IVA broken out the same
 * way as every factura's (`splitIva`: prices include 16% IVA, base rounded half up to the
 * centavo, IVA = amount − base), so the note adds up to exactly what was refunded.
 *
 * SAT keys: 84111506 (servicios de facturación) with unit ACT (actividad), the keys the SAT's
 * filling guide gives a CFDI de egreso for returns, discounts and bonuses.
 */
import { splitIva, type InvoiceConcept } from './invoices.ts';
import { centavos, type Centavos } from './money.ts';

const CREDIT_NOTE_PRODUCT_KEY = '84111506';
const CREDIT_NOTE_UNIT_KEY = 'ACT';

/** The concept of a credit note for `amount` refunded (IVA included), described as `description`. */
export function creditNoteConcepts(amount: Centavos, description: string, reference: string | null = null): InvoiceConcept[] {
  if (!Number.isInteger(amount) || amount <= 0) throw new RangeError('amount must be a positive number of centavos');
  return [
    {
      description,
      quantity: 1,
      productKey: CREDIT_NOTE_PRODUCT_KEY,
      unitKey: CREDIT_NOTE_UNIT_KEY,
      sku: reference,
      amount,
      discount: centavos(0),
      ...splitIva(amount),
    },
  ];
}
