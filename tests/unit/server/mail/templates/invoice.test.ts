import { describe, expect, it } from 'vitest';
import { centavos } from '~/domain/money.ts';
import { invoiceCancelledEmail, invoiceIssuedEmail } from '~/server/mail/templates/invoice.ts';
import { receiptEmail } from '~/server/mail/templates/receipt.ts';

const ORDER = '7f1c2a9e-7d3f-4c4e-9a61-0c2f6b28950e';

describe('factura e-mails', () => {
  it('issued: the order, the folio fiscal, the test note and the Orders tab to download it', () => {
    const mail = invoiceIssuedEmail({ orderId: ORDER, cfdiUuid: 'ABC-123', siteUrl: 'https://tienda.mx/', testMode: true });
    expect(mail.subject).toBe('Tu factura del pedido #28950E');
    expect(mail.text).toContain('Folio fiscal: ABC-123');
    expect(mail.text).toContain('sin validez fiscal');
    expect(mail.text).toContain('https://tienda.mx/account?tab=orders');
    expect(mail.html).toContain('href="https://tienda.mx/account?tab=orders"');
    expect(invoiceIssuedEmail({ orderId: ORDER, cfdiUuid: null, siteUrl: 'https://tienda.mx', testMode: false }).text).not.toContain('validez');
  });

  it('cancelled: says why and which folio, escaping what it shows', () => {
    const mail = invoiceCancelledEmail({ orderId: ORDER, cfdiUuid: '<b>X</b>', siteUrl: 'https://tienda.mx' });
    expect(mail.subject).toBe('Cancelamos la factura del pedido #28950E');
    expect(mail.text).toContain('reembolsado');
    expect(mail.html).toContain('&lt;b&gt;X&lt;/b&gt;');
  });

  it("the receipt offers 'Solicitar factura' until the last day of the month it was paid in (Mexico City)", () => {
    const mail = receiptEmail({
      id: ORDER,
      subtotal: centavos(10000),
      discount: centavos(0),
      shipping: centavos(0),
      total: centavos(10000),
      lines: [],
      address: null,
      siteUrl: 'https://tienda.mx',
      // 1 December 2026 at 03:00 UTC is still 30 November in Mexico City.
      paidAtMs: Date.parse('2026-12-01T03:00:00Z'),
    });
    expect(mail.text).toContain('hasta el 30 de noviembre de 2026');
    expect(mail.html).toContain('Solicitar factura');
    expect(mail.html).toContain('href="https://tienda.mx/account?tab=orders"');
  });
});
