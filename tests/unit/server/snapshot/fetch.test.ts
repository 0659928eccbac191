/**
 * The build reads products with their printing and offers through the REST API with the anon key,
 * as a visitor would: checked against the local stack with the shop's migrations and seed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdminClient } from '~/server/supabase.ts';
import { buildTimeClient, fetchAllRows, fetchProductRows } from '~/server/snapshot/fetch.ts';
import { parseProductRows } from '~/server/snapshot/model.ts';
import { startTestStack, type TestStack } from '../../../../packages/local-supabase/tests/helpers.ts';

let stack: TestStack;
const PRODUCT = 'op-single-test-op05-119';

beforeAll(async () => {
  stack = await startTestStack();
  const service = createAdminClient(stack.url, stack.serviceRoleKey);
  // Untyped on purpose: the rows below are the fixture, and the database checks them.
  const insert = async (table: 'products' | 'card_printings' | 'card_offers', rows: Record<string, unknown> | Record<string, unknown>[]) => {
    const { error } = await (service.from(table) as unknown as { insert(rows: unknown): PromiseLike<{ error: { message: string } | null }> }).insert(rows);
    if (error) throw new Error(`${table}: ${error.message}`);
  };
  await insert('products', {
    id: PRODUCT,
    name: 'Monkey.D.Luffy OP05-119 (prueba)',
    price: 800,
    stock: 3,
    franchise_id: 'one-piece',
    expansion_id: 'op-05',
    product_type_id: 'op-single-card',
  });
  await insert('card_printings', { product_id: PRODUCT, expansion: 'OP05', collector_number: 'OP05-119', rarity: 'SEC', name_en: 'Monkey.D.Luffy' });
  await insert('card_offers', [
    { product_id: PRODUCT, condition: 'LP', language: 'en', finish: 'parallel', price: 800, stock: 3, position: 1 },
    { product_id: PRODUCT, condition: 'NM', language: 'en', finish: 'parallel', price: 1100, stock: 0, position: 0 },
    {
      product_id: PRODUCT,
      condition: null,
      language: 'ja',
      finish: 'manga',
      price: 25000,
      stock: 1,
      grading_company: 'PSA',
      grade: 10,
      certificate_number: 'TEST-0001',
      position: 2,
    },
  ]);
}, 120_000);

afterAll(async () => {
  await stack?.stop();
});

describe('the build reads singles with their printing and offers', () => {
  it('embeds the printing and the offers in every product row, and none for sealed products', async () => {
    const client = buildTimeClient({ url: stack.url, anonKey: stack.anonKey });
    const { products, rejected } = parseProductRows(await fetchAllRows(client, 'products'));
    expect(rejected).toEqual([]);
    const single = products.find((product) => product.id === PRODUCT);
    expect(single?.printing).toMatchObject({ setCode: 'OP05', collectorNumber: 'OP05-119', rarity: 'SEC', nameEn: 'Monkey.D.Luffy' });
    expect(single?.offers.map((offer) => [offer.condition ?? offer.gradingCompany, offer.stock])).toEqual([
      ['NM', 0],
      ['LP', 3],
      ['PSA', 1],
    ]);
    const sealed = products.find((product) => product.product_type_id === 'booster-box');
    expect(sealed).toMatchObject({ printing: null, offers: [] });
  });

  it('embeds them too when a rebuild reads changed products by id', async () => {
    const client = buildTimeClient({ url: stack.url, anonKey: stack.anonKey });
    const { products } = parseProductRows(await fetchProductRows(client, [PRODUCT]));
    expect(products).toHaveLength(1);
    expect(products[0]?.offers).toHaveLength(3);
  });
});
