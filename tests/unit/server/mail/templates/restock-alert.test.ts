import { describe, expect, it } from 'vitest';
import { alertCancelUrl, restockAlertEmail } from '~/server/mail/templates/restock-alert.ts';
import { priceDropEmail } from '~/server/mail/templates/price-drop.ts';
import { centavos } from '~/domain/money.ts';

const TOKEN = 'a'.repeat(64);

describe('restock alert e-mail', () => {
  it('names the product and offer, links to its page and to the cancel page, escaped', () => {
    const mail = restockAlertEmail(
      { productId: 'pk-<caja>', productName: 'Caja <Élite>', offerLabel: 'NM · Español · Holo', units: 3, cancelToken: TOKEN },
      'https://tienda.mx/',
    );
    expect(mail.subject).toBe('Ya llegó: Caja <Élite> (NM · Español · Holo)');
    expect(mail.text).toContain('Caja <Élite> (NM · Español · Holo) volvió a estar disponible en la tienda.');
    expect(mail.text).toContain('Llegaron 3 piezas');
    expect(mail.text).toContain('Ver producto: https://tienda.mx/product/pk-%3Ccaja%3E');
    expect(mail.text).toContain(`https://tienda.mx/avisos/cancelar?t=${TOKEN}`);
    expect(mail.html).toContain('Caja &lt;Élite&gt;');
    expect(mail.html).not.toContain('<Élite>');
    expect(mail.html).toContain(`href="https://tienda.mx/avisos/cancelar?t=${TOKEN}"`);
  });

  it('says one unit in the singular, and builds the cancel address from any site address', () => {
    const mail = restockAlertEmail({ productId: 'p', productName: 'Sobre', offerLabel: null, units: 1, cancelToken: TOKEN }, 'http://localhost:4321');
    expect(mail.subject).toBe('Ya llegó: Sobre');
    expect(mail.text).toContain('Llegó 1 pieza');
    expect(alertCancelUrl('https://tienda.mx///', 'x y')).toBe('https://tienda.mx/avisos/cancelar?t=x%20y');
  });
});

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
