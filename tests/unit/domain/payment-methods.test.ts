import { describe, expect, it } from 'vitest';
import { orderEventNote, paymentMethodLabel } from '~/domain/payment-methods.ts';
import { PAYMENT_METHOD_LABELS } from '~/i18n/orders.ts';
import { receiptEmail } from '~/server/mail/templates/receipt.ts';
import { centavos } from '~/domain/money.ts';

const PROVIDERS = ['stripe', 'paypal', 'simulated-card', 'simulated-paypal'];

describe('paymentMethodLabel', () => {
  it('names every way to pay an order', () => {
    expect(paymentMethodLabel({ method: 'card', installments: null, provider: 'stripe' })).toBe('Tarjeta');
    expect(paymentMethodLabel({ method: 'card', installments: 6, provider: 'stripe' })).toBe('Meses sin intereses');
    expect(paymentMethodLabel({ method: 'oxxo', installments: null, provider: 'stripe' })).toBe('Efectivo en OXXO');
    expect(paymentMethodLabel({ method: 'paypal', installments: null, provider: 'paypal' })).toBe('PayPal');
    expect(paymentMethodLabel({ method: 'store_credit', installments: null, provider: null })).toBe('Saldo a favor');
  });

  it('says the months of a plan when asked, and a single payment is a plain card payment', () => {
    expect(paymentMethodLabel({ method: 'card', installments: 12, provider: 'simulated-card' }, { months: true })).toBe('Meses sin intereses (12 meses)');
    expect(paymentMethodLabel({ method: 'card', installments: null, provider: 'simulated-card' }, { months: true })).toBe('Tarjeta');
    expect(paymentMethodLabel({ method: 'card', installments: 1, provider: 'stripe' })).toBe('Tarjeta');
    expect(paymentMethodLabel({ method: 'card', installments: 0, provider: 'stripe' })).toBe('Tarjeta');
    // Months belong to cards only.
    expect(paymentMethodLabel({ method: 'oxxo', installments: 6, provider: 'stripe' })).toBe('Efectivo en OXXO');
    expect(paymentMethodLabel({ method: 'paypal', installments: 6, provider: 'paypal' }, { months: true })).toBe('PayPal');
  });

  it('falls back on the provider when the order records no method', () => {
    expect(paymentMethodLabel({ method: null, installments: null, provider: 'stripe' })).toBe('Tarjeta');
    expect(paymentMethodLabel({ method: null, installments: null, provider: 'simulated-card' })).toBe('Tarjeta');
    expect(paymentMethodLabel({ method: null, installments: null, provider: 'paypal' })).toBe('PayPal');
    expect(paymentMethodLabel({ method: null, installments: null, provider: 'simulated-paypal' })).toBe('PayPal');
    expect(paymentMethodLabel({ method: undefined, installments: 6, provider: 'stripe' })).toBe('Meses sin intereses');
    expect(paymentMethodLabel({ provider: 'simulated-card' })).toBe('Tarjeta');
    expect(paymentMethodLabel({ method: null, provider: 'store_credit' })).toBe('Saldo a favor');
  });

  it('never shows a provider name, and names nothing it does not know', () => {
    expect(paymentMethodLabel({ method: null, installments: null, provider: null })).toBeNull();
    expect(paymentMethodLabel({})).toBeNull();
    expect(paymentMethodLabel({ method: null, provider: 'otro-proveedor' })).toBeNull();
    // An unknown method is not guessed from the provider.
    expect(paymentMethodLabel({ method: 'spei', provider: 'stripe' })).toBeNull();
    for (const provider of PROVIDERS) {
      for (const method of [null, 'card', 'oxxo', 'paypal', 'store_credit', 'desconocido']) {
        for (const installments of [null, 3]) {
          for (const options of [{}, { months: true }, { inSentence: true }]) {
            const label = paymentMethodLabel({ method, installments, provider }, options) ?? '';
            expect(label.toLowerCase(), `${method}/${provider}`).not.toContain('simulated');
            expect(label.toLowerCase()).not.toContain('stripe');
            expect(label).not.toBe(provider);
          }
        }
      }
    }
  });

  it('has a lower-case form for the middle of a sentence that keeps the brand names', () => {
    expect(paymentMethodLabel({ method: 'card' }, { inSentence: true })).toBe('tarjeta');
    expect(paymentMethodLabel({ method: 'card', installments: 6 }, { inSentence: true, months: true })).toBe('meses sin intereses (6 meses)');
    expect(paymentMethodLabel({ method: 'oxxo' }, { inSentence: true })).toBe('efectivo en OXXO');
    expect(paymentMethodLabel({ method: 'paypal' }, { inSentence: true })).toBe('PayPal');
    expect(paymentMethodLabel({ method: 'store_credit' }, { inSentence: true })).toBe('saldo a favor');
    for (const { label, inSentence } of Object.values(PAYMENT_METHOD_LABELS)) {
      expect(inSentence.toLowerCase()).toBe(label.toLowerCase());
    }
  });
});

describe('orderEventNote', () => {
  it("reads the payment's confirmation without the provider's internal name", () => {
    for (const provider of [...PROVIDERS, 'store_credit']) expect(orderEventNote(`Pago confirmado por ${provider}`)).toBe('Pago confirmado');
  });

  it('keeps every other note as it is', () => {
    expect(orderEventNote('Enviado por DHL, guía JD014600006281')).toBe('Enviado por DHL, guía JD014600006281');
    expect(orderEventNote('Reembolsado por la tienda')).toBe('Reembolsado por la tienda');
    expect(orderEventNote(null)).toBeNull();
  });
});

describe('the receipt e-mail names the method with it', () => {
  const order = {
    id: '0f8fad5b-d9cb-469f-a165-70867728950e',
    subtotal: centavos(350000),
    discount: centavos(0),
    shipping: centavos(0),
    total: centavos(350000),
    lines: [{ name: 'Caja', quantity: 1, price: centavos(350000) }],
    address: null,
    siteUrl: 'http://shop.test',
  };
  const line = (payment: { method?: string | null; installments?: number | null; payment_provider?: string | null }) =>
    receiptEmail({ ...order, ...payment })
      .text.split('\n')
      .find((l) => l.startsWith('Forma de pago')) ?? null;

  it('says how the order was paid, never the provider', () => {
    expect(line({ method: 'card', payment_provider: 'simulated-card' })).toBe('Forma de pago: tarjeta');
    expect(line({ method: 'card', installments: 6, payment_provider: 'stripe' })).toBe('Forma de pago: 6 meses sin intereses de $583.33');
    expect(line({ method: 'oxxo', payment_provider: 'stripe' })).toBe('Forma de pago: efectivo en OXXO');
    expect(line({ method: 'paypal', payment_provider: 'simulated-paypal' })).toBe('Forma de pago: PayPal');
    expect(line({ method: 'store_credit' })).toBe('Forma de pago: saldo a favor');
    expect(line({ method: null, payment_provider: 'simulated-card' })).toBe('Forma de pago: tarjeta');
    expect(line({})).toBeNull();
    const mail = receiptEmail({ ...order, method: null, payment_provider: 'simulated-paypal' });
    expect(`${mail.text}${mail.html}`).not.toContain('simulated');
  });
});
