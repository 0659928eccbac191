/**
 * The demo orders of the seed (scripts/seed/build.ts): the shop shows an order as '#' + the last
 * six characters of its id, so no two demo orders may share them.
 */
import { describe, expect, it } from 'vitest';
import { orderDisplayId } from '~/domain/orders.ts';
import { buildSeed, customerOrders, demoOrders } from '../../../scripts/seed/build.ts';
import { demoProducts } from '../../../scripts/seed/products.ts';
import { DEMO_CUSTOMER_ORDER_COUNT, DEMO_ORDER_COUNT } from '../../../scripts/seed/constants.ts';

const products = demoProducts();
const orders = [...demoOrders(products), ...customerOrders(products)];

describe('demo orders', () => {
  it('are every order of both demo accounts', () => {
    expect(orders).toHaveLength(DEMO_ORDER_COUNT + DEMO_CUSTOMER_ORDER_COUNT);
    expect(new Set(orders.map((o) => o.id)).size).toBe(orders.length);
  });

  it('have ids whose last six characters differ, so their numbers on screen never repeat', () => {
    const lastSix = orders.map((o) => o.id.slice(-6));
    expect(new Set(lastSix).size).toBe(orders.length);
    expect(new Set(orders.map((o) => orderDisplayId(o.id))).size).toBe(orders.length);
  });

  it('are the orders the demo accounts file inserts', () => {
    const { demoSql } = buildSeed();
    for (const order of orders) expect(demoSql).toContain(`'${order.id}'`);
  });
});
