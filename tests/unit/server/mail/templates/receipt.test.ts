import { describe, expect, it } from 'vitest';
import { receiptEmail } from '~/server/mail/templates/receipt.ts';
import { addressLines } from '~/domain/address-copy.ts';
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
      address: { street: 'Av. Reforma', exterior_number: '222', city: 'CDMX', state: 'CDMX', zip: '06600', country: 'México' },
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

  it('writes where it ships on several lines, in the order a courier reads it, with who receives it, in the text and the HTML', () => {
    const address = {
      label: 'Casa',
      street: 'Av. Chapultepec',
      exterior_number: '480',
      interior_number: '12B',
      neighborhood: 'Roma Norte',
      municipality: 'Cuauhtémoc',
      city: 'Ciudad de México',
      state: 'Ciudad de México',
      zip: '06700',
      country: 'México',
      references: 'Portón <negro>',
      phone: '5512345678',
    };
    const mail = receiptEmail({
      id: '0f8fad5b-d9cb-469f-a165-70867728950e',
      subtotal: centavos(10000),
      discount: centavos(0),
      shipping: centavos(0),
      total: centavos(10000),
      lines: [{ name: 'Sobre', quantity: 1, price: centavos(10000) }],
      address,
      recipient: 'Lucía Pérez',
      siteUrl: 'http://shop.test',
    });
    const expected = [
      'Lucía Pérez · Tel. 55 1234 5678',
      'Av. Chapultepec 480, Int. 12B',
      'Col. Roma Norte',
      'C.P. 06700, Cuauhtémoc, Ciudad de México',
      'Ciudad de México, México',
      'Referencias: Portón <negro>',
    ];
    // The same lines the back office and the confirmation page write.
    expect(addressLines(address, { name: 'Lucía Pérez' })).toEqual(expected);
    const text = mail.text.split('\n');
    const start = text.indexOf('Envío a:');
    expect(start).toBeGreaterThan(0);
    expect(text.slice(start + 1, start + 1 + expected.length)).toEqual(expected);
    expect(mail.html).toContain(
      '<p><strong>Envío a:</strong><br>Lucía Pérez · Tel. 55 1234 5678<br>Av. Chapultepec 480, Int. 12B<br>Col. Roma Norte<br>C.P. 06700, Cuauhtémoc, Ciudad de México<br>Ciudad de México, México<br>Referencias: Portón &lt;negro&gt;</p>',
    );
  });

  it('leaves the block out when the order has no address copy, and the name out when the account has none', () => {
    const base = {
      id: '0f8fad5b-d9cb-469f-a165-70867728950e',
      subtotal: centavos(10000),
      discount: centavos(0),
      shipping: centavos(0),
      total: centavos(10000),
      lines: [],
      siteUrl: 'http://shop.test',
    };
    expect(receiptEmail({ ...base, address: null }).text).not.toContain('Envío a:');
    const unnamed = receiptEmail({ ...base, address: { street: 'Calle 2', zip: '01000', country: 'México' }, recipient: null }).text.split('\n');
    const start = unnamed.indexOf('Envío a:');
    expect(unnamed.slice(start + 1, start + 4)).toEqual(['Calle 2', 'C.P. 01000', 'México']);
  });
});
