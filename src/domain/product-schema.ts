/**
 * The product row schema. Rows come from Postgres through the REST API or from the build-time
 * snapshot: `numeric` may arrive as a string, `original_price` may be spelled `originalPrice`, and
 * optional columns may be null. `productSchema` turns all of that into one `Product` shape, whose
 * prices are `Centavos` from here on (`priceCentavos`, `originalPriceCentavos`). Kept
 * apart from ./products.ts so browser code never loads zod for the stock and price rules.
 */
import { z } from 'zod';
import { PRODUCT_SCHEMA_TEXT } from '../i18n/product.ts';
import { type Centavos, databasePriceCentavos } from './money.ts';
import { CARD_CONDITIONS, GRADING_COMPANIES, offersSummary, sortOffers, type Printing, type SingleOffer } from './singles.ts';

// A peso amount (a JSON number or a Postgres numeric string) as Centavos; negative or not an amount is refused.
const pesos = z.union([z.number(), z.string()]).transform((value, ctx): Centavos => {
  const cents = databasePriceCentavos(value);
  if (cents === null) {
    ctx.addIssue({ code: 'custom', message: PRODUCT_SCHEMA_TEXT.invalidPrice });
    return z.NEVER;
  }
  return cents;
});

const optionalText = z
  .string()
  .nullish()
  .transform((value) => value ?? null);

const wholeNumber = z
  .union([z.number(), z.string().regex(/^\s*-?\d+\s*$/)])
  .transform(Number)
  .pipe(z.number().int());

const conditionCode = z.enum(CARD_CONDITIONS);
const companyCode = z.enum(GRADING_COMPANIES);
const grade = z.union([z.number(), z.string()]).transform(Number).pipe(z.number().min(1).max(10));

/** A card_printings row embedded in a product row (PostgREST sends a one-to-one embed as an object). */
const printingRow = z
  .object({
    expansion: optionalText,
    collector_number: z.string().min(1),
    rarity: z.string().min(1),
    name_en: optionalText,
    name_es: optionalText,
  })
  .transform((row): Printing => ({
    setCode: row.expansion,
    collectorNumber: row.collector_number,
    rarity: row.rarity,
    nameEn: row.name_en,
    nameEs: row.name_es,
  }));

/** A card_offers row embedded in a product row. */
const offerRow = z
  .object({
    id: z.string().min(1),
    condition: conditionCode.nullish(),
    language: z.string().min(1),
    finish: z.string().min(1),
    price: pesos,
    original_price: pesos.nullish(),
    stock: wholeNumber.pipe(z.number().min(0)),
    grading_company: companyCode.nullish(),
    grade: grade.nullish(),
    certificate_number: optionalText,
    images: z.array(z.string()).nullish(),
    position: wholeNumber.nullish(),
  })
  .transform((row): SingleOffer => ({
    id: row.id,
    condition: row.condition ?? null,
    language: row.language,
    finish: row.finish,
    priceCentavos: row.price,
    originalPriceCentavos: row.original_price ?? null,
    stock: row.stock,
    gradingCompany: row.grading_company ?? null,
    grade: row.grade ?? null,
    certificateNumber: row.certificate_number,
    images: row.images ?? [],
    position: row.position ?? 0,
  }));

/**
 * The columns a product row is read with: the product and, for a single card, its printing and
 * its offers (empty for sealed products), with only the columns printingRow and offerRow read:
 * at 100,000 products the offers' keys and timestamps alone were about a quarter of the
 * catalogue the build reads and keeps.
 */
export const PRODUCT_SELECT =
  '*, card_printings(expansion,collector_number,rarity,name_en,name_es), ' +
  'card_offers(id,condition,language,finish,price,original_price,stock,grading_company,grade,certificate_number,images,position)';

/** A product row, normalised. Unknown columns are dropped. */
export const productSchema = z
  .object({
    id: z.string().min(1),
    name: z.string(),
    price: pesos,
    original_price: pesos.nullish(),
    originalPrice: pesos.nullish(),
    discount: z.boolean().nullish(),
    preorder: z.boolean().nullish(),
    // Null means "not tracked": no upper bound on the quantity.
    stock: wholeNumber.nullish(),
    image: optionalText,
    images: z.array(z.string()).nullish(),
    franchise_id: optionalText,
    collection_id: optionalText,
    expansion_id: optionalText,
    product_type_id: optionalText,
    type: optionalText,
    description: optionalText,
    limit_per_customer: wholeNumber.nullish(),
    available: z.boolean().nullish(),
    release_date: optionalText,
    // A timed drop's instant (ISO); null: on sale now.
    on_sale_at: optionalText,
    tags: z.array(z.string()).nullish(),
    // Embedded by PRODUCT_SELECT; absent when a row was read without them.
    card_printings: z.union([printingRow, z.array(printingRow)]).nullish(),
    card_offers: z.array(offerRow).nullish(),
  })
  .transform((row) => {
    const offers = sortOffers(row.card_offers ?? []);
    // A single card's price and stock are its offers'; the product row's own describe no copy.
    const summary = offersSummary(offers);
    return {
      id: row.id,
      name: row.name,
      priceCentavos: summary?.priceCentavos ?? row.price,
      originalPriceCentavos: summary ? summary.originalPriceCentavos : (row.original_price ?? row.originalPrice ?? null),
      discount: row.discount ?? false,
      preorder: row.preorder ?? false,
      stock: summary ? summary.stock : (row.stock ?? null),
      image: row.image ?? '',
      images: row.images ?? [],
      franchise_id: row.franchise_id,
      collection_id: row.collection_id,
      expansion_id: row.expansion_id,
      product_type_id: row.product_type_id,
      type: row.type,
      description: row.description ?? '',
      limit_per_customer: row.limit_per_customer ?? null,
      available: row.available ?? true,
      release_date: row.release_date,
      on_sale_at: row.on_sale_at,
      tags: row.tags ?? [],
      printing: (Array.isArray(row.card_printings) ? row.card_printings[0] : row.card_printings) ?? null,
      offers,
    };
  });
export type Product = z.infer<typeof productSchema>;

/** Parses one row; null when it is not a usable product. */
export function parseProduct(row: unknown): Product | null {
  const result = productSchema.safeParse(row);
  return result.success ? result.data : null;
}
