import { describe, expect, it } from 'vitest';
import type { Centavos } from '~/domain/money.ts';
import { oxxoCreditedMessage, storeCreditReasonLabel, storeCreditSummary } from '~/domain/store-credit.ts';
import { STORE_CREDIT_REASON_LABELS } from '~/i18n/orders.ts';

const centavos = (value: number) => value as Centavos;

describe('saldo a favor', () => {
  it('names each reason of a movement, and any other reason as a plain movement', () => {
    expect(storeCreditReasonLabel('refund')).toBe('Reembolso a tu saldo');
    expect(storeCreditReasonLabel('oxxo_payment')).toBe('Pago en OXXO abonado a tu saldo');
    expect(storeCreditReasonLabel('points')).toBe('Canje de puntos');
    expect(storeCreditReasonLabel('buylist_sale')).toBe('Venta de cartas a la tienda');
    for (const [reason, label] of Object.entries(STORE_CREDIT_REASON_LABELS)) expect(storeCreditReasonLabel(reason)).toBe(label);
    expect(storeCreditReasonLabel('gift')).toBe('Movimiento');
    expect(storeCreditReasonLabel('toString')).toBe('Movimiento');
  });

  it('speaks of amounts in pesos, from centavos', () => {
    expect(storeCreditSummary(centavos(35_000))).toBe('Saldo a favor: $350.00');
    expect(storeCreditSummary(centavos(0))).toBe('Saldo a favor: $0.00');
    expect(oxxoCreditedMessage(centavos(129_950))).toBe('Recibimos tu pago en OXXO de $1,299.50; lo abonamos a tu saldo a favor.');
  });
});
