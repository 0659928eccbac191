import { describe, expect, it } from 'vitest';
import { oxxoCreditEmail } from '~/server/mail/templates/oxxo-credit.ts';

const orderId = '0f8fad5b-d9cb-469f-a165-70867728950e';

describe('the e-mail of cash credited to the balance', () => {
  it('gives the amount credited, the new balance, the order and the link to the account', () => {
    const mail = oxxoCreditEmail({ orderId, amount: 59_900, balance: 75_000, siteUrl: 'https://shop.test/' });
    expect(mail.subject).toBe('Abonamos $599.00 a tu saldo a favor');
    expect(mail.text).toContain('Recibimos tu pago en OXXO de $599.00; lo abonamos a tu saldo a favor.');
    expect(mail.text).toContain('Tu saldo a favor ahora es de $750.00.');
    expect(mail.text).toContain('El pedido #28950E ya no podía recibir este pago.');
    expect(mail.text).toContain('los pagos en efectivo en OXXO no se pueden devolver en efectivo');
    expect(mail.text).toContain('Tu cuenta: https://shop.test/account');
  });

  it('writes the same in HTML, escaped', () => {
    const { html } = oxxoCreditEmail({ orderId, amount: 100, balance: 100, siteUrl: 'https://shop.test/?a=1&b=2' });
    expect(html).toContain('<strong>Tu saldo a favor ahora es de $1.00.</strong>');
    expect(html).toContain('href="https://shop.test/?a=1&amp;b=2/account"');
  });
});
