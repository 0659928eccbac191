import { describe, expect, it } from 'vitest';
import { statusEmail } from '~/server/mail/templates/order-status.ts';
import { centavos } from '~/domain/money.ts';

describe('status e-mails', () => {
  const order = { id: '00000000-0000-4000-c000-0000000abc02', total: centavos(129950), carrier: 'DHL', tracking_number: '<123>' };

  it('tells the shopper the carrier and the tracking number, escaped', () => {
    const mail = statusEmail('Enviado', order, 'https://tienda.mx/')!;
    expect(mail.subject).toBe('Tu pedido #0ABC02 fue enviado');
    expect(mail.text).toContain('Paquetería: DHL');
    expect(mail.text).toContain('Número de guía: <123>');
    expect(mail.text).toContain('https://www.dhl.com/');
    expect(mail.html).toContain('&lt;123&gt;');
    expect(mail.html).not.toContain('<123>');
  });

  it('has completed, cancelled and refunded e-mails, and none for other statuses', () => {
    expect(statusEmail('Completado', order, 'https://tienda.mx')!.subject).toBe('Tu pedido #0ABC02 fue completado');
    expect(statusEmail('Cancelado', order, 'https://tienda.mx')!.subject).toBe('Tu pedido #0ABC02 fue cancelado');
    const refunded = statusEmail('Reembolsado', order, 'https://tienda.mx')!;
    expect(refunded.subject).toBe('Tu pedido #0ABC02 fue reembolsado');
    expect(refunded.text).toContain('$1,299.50');
    expect(statusEmail('Procesando', order, 'https://tienda.mx')).toBeNull();
  });
});
