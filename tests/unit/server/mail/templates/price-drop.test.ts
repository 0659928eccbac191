import { describe, expect, it } from 'vitest';
import { centavos } from '~/domain/money.ts';
import { priceDropEmail } from '~/server/mail/templates/price-drop.ts';

describe('price drop e-mail', () => {
  it('says the price it had and the one it has, in pesos, with links to the product and the settings', () => {
    const mail = priceDropEmail(
      { productId: 'etb', productName: 'ETB <Destined>', offerLabel: null, before: centavos(129900), now: centavos(99950) },
      'https://tienda.mx',
    );
    expect(mail.subject).toBe('Bajó de precio: ETB <Destined>');
    expect(mail.text).toContain('bajó de $1,299.00 a $999.50');
    expect(mail.text).toContain('https://tienda.mx/product/etb');
    expect(mail.text).toContain('https://tienda.mx/account?tab=settings');
    expect(mail.html).toContain('ETB &lt;Destined&gt;');
    expect(mail.html).not.toContain('<Destined>');
  });
});

describe("price drop e-mail's cancel link", () => {
  it('links to the page that turns the alert off without signing in, when the favorite has its token', () => {
    const token = 'ab'.repeat(32);
    const mail = priceDropEmail(
      { productId: 'etb', productName: 'ETB', offerLabel: null, before: centavos(129900), now: centavos(99950), cancelToken: token },
      'https://tienda.mx/',
    );
    expect(mail.text).toContain(`¿Ya no quieres avisos de precio de este producto? https://tienda.mx/avisos/cancelar?t=${token}`);
    expect(mail.html).toContain(`<a href="https://tienda.mx/avisos/cancelar?t=${token}">Cancelar este aviso</a>`);
    const without = priceDropEmail(
      { productId: 'etb', productName: 'ETB', offerLabel: null, before: centavos(129900), now: centavos(99950) },
      'https://tienda.mx',
    );
    expect(without.text).not.toContain('/avisos/cancelar');
  });
});
