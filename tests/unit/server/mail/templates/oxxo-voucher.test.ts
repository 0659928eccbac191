import { describe, expect, it } from 'vitest';
import { oxxoVoucherEmail } from '~/server/mail/templates/oxxo-voucher.ts';

const orderId = '0f8fad5b-d9cb-469f-a165-70867728950e';
const voucher = { reference: '12345678901234', expiresAt: '2026-12-03T05:59:59.000Z', amount: 129_950, hostedVoucherUrl: 'https://pay.test/v?a=1&b=<2>' };

describe('the OXXO voucher e-mail', () => {
  it('gives the order, the amount in pesos, the reference in groups of four and the deadline', () => {
    const mail = oxxoVoucherEmail({ orderId, voucher, siteUrl: 'https://shop.test/' });
    expect(mail.subject).toBe('Ficha de pago OXXO de tu pedido #28950E');
    expect(mail.text).toContain('Monto a pagar: $1,299.50');
    expect(mail.text).toContain('Referencia: 1234 5678 9012 34');
    expect(mail.text).toMatch(/Paga en cualquier tienda OXXO antes del 2 de diciembre de 2026/);
    expect(mail.text).toContain(`Tu pedido: https://shop.test/checkout/${orderId}`);
    expect(mail.text).toContain('Ver e imprimir la ficha de pago: https://pay.test/v?a=1&b=<2>');
  });

  it('escapes every value in the HTML part', () => {
    const { html } = oxxoVoucherEmail({ orderId, voucher, siteUrl: 'https://shop.test' });
    expect(html).toContain('href="https://pay.test/v?a=1&amp;b=&lt;2&gt;"');
    expect(html).not.toContain('<2>');
    expect(html).toContain(`<a href="https://shop.test/checkout/${orderId}">Ver tu pedido</a>`);
  });

  it('says when the voucher is the simulated one, and leaves the link out when there is none', () => {
    const simulated = oxxoVoucherEmail({
      orderId,
      voucher: { ...voucher, hostedVoucherUrl: 'http://localhost:4321/api/payments/simulated/oxxo/pi_1' },
      siteUrl: 'http://localhost:4321',
    });
    expect(simulated.text).toContain('Ver la ficha y simular pago en OXXO (modo de prueba)');
    const none = oxxoVoucherEmail({ orderId, voucher: { ...voucher, hostedVoucherUrl: null }, siteUrl: 'https://shop.test' });
    expect(none.text).not.toContain('ficha de pago:');
    expect(none.html).not.toContain('Ver e imprimir');
  });
});
