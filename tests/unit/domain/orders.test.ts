import { describe, expect, it } from 'vitest';
import { CARRIERS, formatOrderAmount, formatOrderDate, ORDER_STATUS, orderActions, orderDisplayId, paginate, statusColor, trackingUrl } from '~/domain/orders';
import { centavos } from '~/domain/money';

describe('orderDisplayId', () => {
  it("is '#' and the last 6 characters upper-cased", () => {
    expect(orderDisplayId('5f3c2a10-8b7e-4d2a-9c1b-00aa11bb22cc')).toBe('#BB22CC');
    expect(orderDisplayId('abc')).toBe('#ABC');
  });

  it("is '-' without an id", () => {
    expect(orderDisplayId('')).toBe('-');
    expect(orderDisplayId(null)).toBe('-');
    expect(orderDisplayId(undefined)).toBe('-');
    expect(orderDisplayId(12345678)).toBe('-');
  });
});

describe('formatOrderDate', () => {
  it('shows the short Mexican date in Mexico City time', () => {
    expect(formatOrderDate('2026-11-22T15:00:00Z')).toBe('22/11/26');
    // 03:00 UTC on the 22nd is still the 21st in Mexico City (UTC−6).
    expect(formatOrderDate('2026-11-22T03:00:00Z')).toBe('21/11/26');
    expect(formatOrderDate(new Date(Date.UTC(2025, 0, 5, 18)))).toBe('05/01/25');
    expect(formatOrderDate('2026-11-22T03:00:00Z', 'UTC')).toBe('22/11/26');
  });

  it("is '-' for missing or invalid dates", () => {
    expect(formatOrderDate(null)).toBe('-');
    expect(formatOrderDate('')).toBe('-');
    expect(formatOrderDate('ayer')).toBe('-');
    expect(formatOrderDate({})).toBe('-');
  });
});

describe('formatOrderAmount', () => {
  it("formats an order's amount in centavos in MXN, '-' when the order has none", () => {
    expect(formatOrderAmount(centavos(274729))).toBe('$2,747.29');
    expect(formatOrderAmount(centavos(0))).toBe('$0.00');
    expect(formatOrderAmount(null)).toBe('-');
  });
});

describe('statusColor', () => {
  it('groups statuses case-insensitively', () => {
    expect(statusColor('Enviado')).toBe('green');
    expect(statusColor('COMPLETADO')).toBe('green');
    expect(statusColor('pendiente')).toBe('yellow');
    expect(statusColor(' Procesando ')).toBe('yellow');
    expect(statusColor('Cancelado')).toBe('red');
    expect(statusColor('fallido')).toBe('red');
    expect(statusColor('Pagado')).toBe('blue');
    expect(statusColor(undefined)).toBe('blue');
  });

  it('names the statuses checkout sets', () => {
    expect(ORDER_STATUS.pending).toBe('Pendiente');
    expect(ORDER_STATUS.paid).toBe('Pagado');
    expect(ORDER_STATUS.cancelled).toBe('Cancelado');
  });
});

describe('paginate', () => {
  const orders = Array.from({ length: 11 }, (_, index) => index + 1);

  it('shows 8 per page with the page label', () => {
    const first = paginate(orders, 1);
    expect(first.items).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(first).toMatchObject({ page: 1, totalPages: 2, hasPrevious: false, hasNext: true, label: 'Página 1 de 2', showPager: true });
    const second = paginate(orders, 2);
    expect(second.items).toEqual([9, 10, 11]);
    expect(second).toMatchObject({ hasPrevious: true, hasNext: false, label: 'Página 2 de 2' });
  });

  it('clamps the page number', () => {
    expect(paginate(orders, 9).page).toBe(2);
    expect(paginate(orders, 0).page).toBe(1);
    expect(paginate(orders, Number.NaN).page).toBe(1);
  });

  it('hides the pager with 8 or fewer orders', () => {
    expect(paginate(orders.slice(0, 8), 1)).toMatchObject({ showPager: false, totalPages: 1, label: 'Página 1 de 1' });
    expect(paginate([], 1)).toMatchObject({ items: [], showPager: false, totalPages: 1 });
  });
});

describe('tracking links', () => {
  it('links the known carriers and not "Otra"', () => {
    expect(CARRIERS).toEqual(['Estafeta', 'DHL', 'FedEx', 'Redpack', 'Paquetexpress', '99minutos', 'Otra']);
    for (const carrier of CARRIERS.filter((c) => c !== 'Otra')) {
      expect(trackingUrl(carrier, ' 12 34 ')).toMatch(/^https:\/\/.+12%2034/);
    }
    expect(trackingUrl('Otra', '123')).toBeNull();
    expect(trackingUrl('DHL', '  ')).toBeNull();
    expect(trackingUrl(null, '1')).toBeNull();
  });
});

describe('order actions', () => {
  it('follows the database state machine', () => {
    expect(orderActions('Pendiente')).toEqual({ ship: false, complete: false, refund: false, cancel: true });
    expect(orderActions('Pagado')).toEqual({ ship: true, complete: false, refund: true, cancel: false });
    expect(orderActions('Procesando')).toEqual({ ship: true, complete: false, refund: true, cancel: false });
    expect(orderActions('Enviado')).toEqual({ ship: false, complete: true, refund: true, cancel: false });
    for (const done of ['Completado', 'Cancelado', 'Reembolsado', 'Fallido']) {
      expect(Object.values(orderActions(done)).some(Boolean)).toBe(false);
    }
  });
});
