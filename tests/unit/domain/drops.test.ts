/**
 * Timed drops' time logic: the instant said in Mexico City time whatever the machine's zone, the
 * admin's datetime-local value read as Mexico City time, the countdown's parts and text, the clock
 * offset from one server reading, and the held buttons and countdowns of a prebuilt page.
 */
import { describe, expect, it } from 'vitest';
import { cardDrop, clockOffset, countdownParts, dropTimeParts, fromShopLocal, isDropLocked, toShopLocal } from '~/domain/drops.ts';
import { newProductSchema } from '~/domain/validation/product.ts';
import { DROP_ADMIN_FIELD_TEXT, DROP_PRODUCT_TEXT } from '~/i18n/drops.ts';
import { countdownText, updateDrops } from '~/scripts/drops.ts';

// Friday 11 December 2026, 10:00 in Mexico City (UTC−6): 16:00 UTC.
const DROP = Date.UTC(2026, 11, 11, 16, 0);

describe('the drop time, in Mexico City', () => {
  it("says 'A la venta el viernes 11 de diciembre a las 10:00' with a 24-hour time", () => {
    expect(DROP_PRODUCT_TEXT.onSaleAt(dropTimeParts(DROP))).toBe('A la venta el viernes 11 de diciembre a las 10:00');
    expect(dropTimeParts(Date.UTC(2026, 11, 12, 5, 7))).toEqual({ weekday: 'viernes', day: '11', month: 'diciembre', time: '23:07' });
    expect(dropTimeParts(Date.UTC(2027, 0, 1, 6, 0))).toEqual({ weekday: 'viernes', day: '1', month: 'enero', time: '00:00' });
  });

  it("reads the admin's date and time as Mexico City's, and writes it back the same", () => {
    expect(fromShopLocal('2026-12-11T10:00')).toBe(DROP);
    expect(toShopLocal(DROP)).toBe('2026-12-11T10:00');
    // Summer time still applied in 2021: 10:00 was 15:00 UTC on 1 July.
    expect(fromShopLocal('2021-07-01T10:00')).toBe(Date.UTC(2021, 6, 1, 15, 0));
    for (const local of ['2026-12-31T23:59', '2027-01-01T00:00', '2026-03-08T02:30']) {
      expect(toShopLocal(fromShopLocal(local)!)).toBe(local);
    }
  });

  it('refuses what is no real date and time', () => {
    for (const bad of ['', '2026-02-30T10:00', '2026-13-01T10:00', '2026-12-11T24:00', '2026-12-11 10:00', '11/12/2026 10:00', '2026-12-11T10:60']) {
      expect(fromShopLocal(bad), bad).toBeNull();
    }
  });
});

describe("the back office's 'A la venta desde'", () => {
  const field = newProductSchema.shape.onSaleAt;

  it('stores the Mexico City date and time as an instant, and empty as on sale now', () => {
    expect(field.parse('2026-12-11T10:00')).toBe('2026-12-11T16:00:00.000Z');
    expect(field.parse(' ')).toBeNull();
    expect(field.parse(undefined)).toBeNull();
  });

  it('refuses anything else with its Spanish message', () => {
    const refused = field.safeParse('2026-02-30T10:00');
    expect(refused.success).toBe(false);
    expect(refused.error?.issues[0]?.message).toBe(DROP_ADMIN_FIELD_TEXT.invalid);
  });
});

describe('holding a drop', () => {
  it('holds a product only before its instant', () => {
    expect(isDropLocked(new Date(DROP).toISOString(), DROP - 1)).toBe(true);
    expect(isDropLocked(new Date(DROP).toISOString(), DROP)).toBe(false);
    expect(isDropLocked(null, DROP)).toBe(false);
    expect(isDropLocked('no es fecha', DROP)).toBe(false);
  });

  it('gives a card its drop while it is ahead, with the instant as ISO and how it is said', () => {
    expect(cardDrop('2026-12-11T16:00:00+00:00', DROP - 60_000)).toEqual({
      at: '2026-12-11T16:00:00.000Z',
      when: { weekday: 'viernes', day: '11', month: 'diciembre', time: '10:00' },
    });
    expect(cardDrop('2026-12-11T16:00:00+00:00', DROP)).toBeNull();
    expect(cardDrop(null, DROP)).toBeNull();
  });
});

describe('the countdown', () => {
  it('splits what is left into days, hours, minutes and seconds, rounding up to the next second', () => {
    expect(countdownParts(((2 * 24 + 3) * 3600 + 4 * 60 + 5) * 1000)).toEqual({ days: 2, hours: 3, minutes: 4, seconds: 5 });
    expect(countdownParts(1)).toEqual({ days: 0, hours: 0, minutes: 0, seconds: 1 });
    expect(countdownParts(-5000)).toEqual({ days: 0, hours: 0, minutes: 0, seconds: 0 });
  });

  it('reads as Spanish with a two-digit clock', () => {
    expect(countdownText(((2 * 24 + 3) * 3600 + 4 * 60 + 5) * 1000)).toBe('Faltan 2 días 03:04:05');
    expect(countdownText((24 * 3600 + 9) * 1000)).toBe('Falta 1 día 00:00:09');
    expect(countdownText(59_500)).toBe('Faltan 00:01:00');
  });

  it("takes the shop's clock from one server reading, half-way through the request", () => {
    // The phone believes it is an hour earlier; the request took 200 ms.
    expect(clockOffset(DROP, DROP - 3_600_100, DROP - 3_599_900)).toBe(3_600_000);
  });
});

/** The little of the DOM updateDrops touches: elements with dataset, attributes, text and closest(). */
class FakeElement {
  dataset: Record<string, string | undefined> = {};
  textContent = '';
  disabled = false;
  attributes = new Map<string, string>();
  children: FakeElement[] = [];
  soldOut = false;
  constructor(readonly kind: 'notice' | 'countdown' | 'button') {}
  getAttribute(name: string) {
    return this.attributes.get(name) ?? null;
  }
  setAttribute(name: string, value: string) {
    this.attributes.set(name, value);
  }
  querySelector() {
    return this.children[0] ?? null;
  }
  closest() {
    return this.soldOut ? this : null;
  }
}

function page(...elements: FakeElement[]) {
  return {
    querySelectorAll: (selector: string) => elements.filter((el) => (selector.startsWith('button') ? el.kind === 'button' : el.kind === 'notice')),
  } as unknown as ParentNode;
}

describe('a prebuilt page with a drop', () => {
  const at = new Date(DROP).toISOString();

  function cardButton(): FakeElement {
    const button = new FakeElement('button');
    button.dataset = { dropAt: at, dropOpenText: 'Agregar', dropOpenLabel: 'Agregar Caja al carrito' };
    button.textContent = 'Próximamente';
    button.disabled = true;
    button.setAttribute('aria-label', 'Caja: A la venta el viernes 11 de diciembre a las 10:00');
    return button;
  }

  it('counts down, keeps the buttons held (whatever another script did to them), and turns them on at the instant', () => {
    const notice = new FakeElement('notice');
    notice.dataset = { dropAt: at };
    const countdown = new FakeElement('countdown');
    notice.children = [countdown];
    const card = cardButton();
    const buyBox = new FakeElement('button');
    buyBox.dataset = { dropAt: at };
    buyBox.textContent = 'Agregar al carrito';
    const root = page(notice, card, buyBox);

    expect(updateDrops(root, DROP - 65_000)).toBe(true);
    expect(countdown.textContent).toBe('Faltan 00:01:05');
    expect([card.disabled, buyBox.disabled]).toEqual([true, true]);

    // The live stock script rewrote the card's button meanwhile.
    card.disabled = false;
    card.textContent = 'Agregar';
    expect(updateDrops(root, DROP - 1_000)).toBe(true);
    expect(countdown.textContent).toBe('Faltan 00:00:01');
    expect(card.disabled).toBe(true);
    expect(card.textContent).toBe('Próximamente');

    expect(updateDrops(root, DROP)).toBe(false);
    expect(countdown.textContent).toBe('¡Ya está a la venta!');
    expect(card.disabled).toBe(false);
    expect(card.textContent).toBe('Agregar');
    expect(card.getAttribute('aria-label')).toBe('Agregar Caja al carrito');
    expect(buyBox.disabled).toBe(false);
    expect(buyBox.textContent).toBe('Agregar al carrito');
  });

  it('leaves a product sold out meanwhile disabled at the instant', () => {
    const card = cardButton();
    card.soldOut = true;
    const root = page(card);
    updateDrops(root, DROP - 1);
    expect(updateDrops(root, DROP + 1)).toBe(false);
    expect(card.disabled).toBe(true);
    expect(card.textContent).toBe('Agotado');
  });
});
