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
