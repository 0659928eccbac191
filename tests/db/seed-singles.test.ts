/**
 * The singles of the demo seed as the database holds them: supabase/seed.sql packs each single's
 * printing and offers into one row (scripts/seed/build.ts), and the statement that unpacks them
 * must give exactly the printings and offers scripts/seed/singles.ts made, ids included.
 */
import type { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { offerLabel } from '~/domain/singles.ts';
import { demoProducts } from '../../scripts/seed/products.ts';
import { migratedPglite } from './support.ts';

const singles = demoProducts().filter((p) => p.printing);
/** One of the demo's photos, by its stored name (scripts/seed/photos.ts). */
const DEMO_PHOTO = /^products\/demo-foto-[1-4]\.1500x2100\.jpg$/;
let db: PGlite;

beforeAll(async () => {
  db = await migratedPglite({ seed: true });
}, 120_000);

afterAll(async () => {
  await db?.close();
});

describe('the demo seed in the database', () => {
  it('holds every printing as scripts/seed made it', async () => {
    const { rows } = await db.query<Record<string, string | null>>(
      'select product_id, franchise, expansion, collector_number, collector_key, rarity, name_en, name_es from public.card_printings order by product_id',
    );
    const expected = singles
      .map((p) => ({
        product_id: p.id,
        franchise: p.franchiseId,
        expansion: p.printing!.setCode,
        collector_number: p.printing!.collectorNumber,
        collector_key: p.printing!.collectorNumber.replace(/[^A-Za-z0-9]/g, '').toLowerCase(),
        rarity: p.printing!.rarity,
        name_en: p.printing!.nameEn,
        name_es: p.printing!.nameEs,
      }))
      .sort((a, b) => (a.product_id < b.product_id ? -1 : 1));
    expect(rows).toEqual(expected);
  });

  it('holds every offer with the id, price, stock, slab and position scripts/seed gave it', async () => {
    const { rows } = await db.query<Record<string, unknown>>(
      `select id::text, product_id, condition::text, language, finish, price::float8 as price, original_price::float8 as original_price, stock,
         grading_company::text, grade::float8 as grade, certificate_number, images, position
       from public.card_offers order by product_id, position`,
    );
    const expected = singles
      .flatMap((p) =>
        p.offers!.map((o) => ({
          id: o.id,
          product_id: p.id,
          condition: o.condition,
          language: o.language,
          finish: o.finish,
          price: o.price,
          original_price: o.originalPrice,
          stock: o.stock,
          grading_company: o.gradingCompany,
          grade: o.grade,
          certificate_number: o.certificateNumber,
          // A slab shows a front and a back demo photo instead (supabase/local/seed/demo_photos.sql).
          images: o.gradingCompany ? [expect.stringMatching(DEMO_PHOTO), expect.stringMatching(DEMO_PHOTO)] : o.images,
          position: o.position,
        })),
      )
      .sort((a, b) => (a.product_id < b.product_id ? -1 : a.product_id > b.product_id ? 1 : a.position - b.position));
    expect(rows).toEqual(expected);
    for (const row of rows.filter((r) => r.grading_company !== null)) expect(new Set(row.images as string[]).size, String(row.id)).toBe(2);
  });

  it('sells Monkey.D.Luffy OP05-119 found by its collector key, with a sold-out offer and a PSA 10 slab', async () => {
    const { rows } = await db.query<{
      condition: 'NM' | 'LP' | 'MP' | null;
      language: string;
      finish: string;
      grading_company: 'PSA' | null;
      grade: number | null;
      stock: number;
    }>(
      `select o.condition::text as condition, o.language, o.finish, o.grading_company::text as grading_company, o.grade::float8 as grade, o.stock
       from public.card_printings p join public.card_offers o using (product_id)
       where p.collector_key = 'op05119' order by o.position`,
    );
    const labels = rows.map(
      (r) => `${offerLabel({ condition: r.condition, language: r.language, finish: r.finish, gradingCompany: r.grading_company, grade: r.grade })} ×${r.stock}`,
    );
    expect(labels).toEqual([
      'NM · Inglés · Parallel ×2',
      'NM · Japonés · Parallel ×1',
      'LP · Inglés · Parallel ×3',
      'MP · Japonés · Normal ×0',
      'PSA 10 · Japonés ×1',
    ]);
  });
});
