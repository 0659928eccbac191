import { describe, expect, it } from 'vitest';
import { receiptEmail } from '~/server/mail/templates/receipt.ts';
import { centavos } from '~/domain/money.ts';

describe('confirmation e-mail', () => {
  it('lists the products and the stored amounts in Spanish and escapes names', () => {
    const mail = receiptEmail({
      id: '0f8fad5b-d9cb-469f-a165-70867728950e',
      subtotal: centavos(135700),
      discount: centavos(13570),
      shipping: centavos(9900),
      total: centavos(132030),
      lines: [{ name: 'Caja <especial>', quantity: 2, price: centavos(59900) }],
      address: 'Av. Reforma 222, CDMX',
      siteUrl: 'http://shop.test/',
    });
    expect(mail.subject).toBe('Confirmación de tu pedido #28950E');
    expect(mail.text).toContain('Total pagado: $1,320.30');
    expect(mail.text).toContain('Caja <especial> × 2');
    expect(mail.html).toContain('Caja &lt;especial&gt;');
    expect(mail.html).toContain('http://shop.test/checkout/0f8fad5b-d9cb-469f-a165-70867728950e');
  });

  it("names a single card's offer next to its name, in the text and the HTML", () => {
    const mail = receiptEmail({
      id: '0f8fad5b-d9cb-469f-a165-70867728950e',
      subtotal: centavos(95900),
      discount: centavos(0),
      shipping: centavos(9900),
      total: centavos(105800),
      lines: [
        { name: 'Monkey.D.Luffy (OP05-119)', offerLabel: 'LP · Inglés · Parallel', quantity: 1, price: centavos(85000) },
        { name: 'Sobre OP-05', offerLabel: null, quantity: 1, price: centavos(10900) },
      ],
      address: null,
      siteUrl: 'http://shop.test',
    });
    expect(mail.text).toContain('Monkey.D.Luffy (OP05-119), LP · Inglés · Parallel × 1 — $850.00');
    expect(mail.text).toContain('Sobre OP-05 × 1 — $109.00');
    expect(mail.html).toContain('<li>Monkey.D.Luffy (OP05-119), LP · Inglés · Parallel × 1 — $850.00</li>');
  });
});
