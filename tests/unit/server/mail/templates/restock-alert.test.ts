import { describe, expect, it } from 'vitest';
import { alertCancelUrl, restockAlertEmail } from '~/server/mail/templates/restock-alert.ts';

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
