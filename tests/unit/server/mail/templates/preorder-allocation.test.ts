import { describe, expect, it } from 'vitest';
import { preorderAllocationEmail } from '~/server/mail/templates/preorder-allocation.ts';

const orderId = '0f8fad5b-d9cb-469f-a165-70867728950e';
const base = { orderId, productName: 'Caja <Prismatic>', quantity: 2, siteUrl: 'https://shop.test/' };

describe('the e-mail of a preorder after its goods arrive', () => {
  it('tells the shopper the preorder was filled', () => {
    const mail = preorderAllocationEmail({ ...base, outcome: 'allocated' });
    expect(mail.subject).toBe('Tu preventa del pedido #28950E está asignada');
    expect(mail.text).toContain('Llegó Caja <Prismatic> y apartamos 2 unidad(es) para tu pedido #28950E.');
    expect(mail.text).toContain('Tus pedidos: https://shop.test/account?tab=orders');
  });

  it('tells the shopper the order stays on the waitlist', () => {
    const mail = preorderAllocationEmail({ ...base, outcome: 'waitlisted' });
    expect(mail.subject).toBe('Tu preventa del pedido #28950E sigue en lista de espera');
    expect(mail.text).toContain('lo conservamos en lista de espera para el siguiente envío');
  });

  it('tells how much was refunded and where: the provider or the balance', () => {
    const card = preorderAllocationEmail({ ...base, outcome: 'refunded', refund: { amount: 299_800, toCredit: false } });
    expect(card.subject).toBe('Reembolsamos tu preventa del pedido #28950E');
    expect(card.text).toContain('Te reembolsamos $2,998.00 por el mismo medio con el que pagaste');
    expect(card.text).toContain('Lamentamos no haber recibido suficientes unidades.');
    const oxxo = preorderAllocationEmail({ ...base, outcome: 'refunded', refund: { amount: 59_900, toCredit: true } });
    expect(oxxo.text).toContain('Abonamos $599.00 a tu saldo a favor');
  });

  it('writes the same in HTML, escaped', () => {
    const { html } = preorderAllocationEmail({ ...base, outcome: 'allocated', siteUrl: 'https://shop.test/?a=1&b=2' });
    expect(html).toContain('<h1>Tu preventa está asignada</h1>');
    expect(html).toContain('Caja &lt;Prismatic&gt;');
    expect(html).toContain('href="https://shop.test/?a=1&amp;b=2/account?tab=orders"');
  });
});
