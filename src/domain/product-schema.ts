/**
 * The product row schema. Rows come from Postgres through the REST API or from the build-time
 * snapshot: `numeric` may arrive as a string, `original_price` may be spelled `originalPrice`, and
 * optional columns may be null. `productSchema` turns all of that into one `Product` shape, whose
 * prices are `Centavos` from here on (`priceCentavos`, `originalPriceCentavos`). Kept
 * apart from ./products.ts so browser code never loads zod for the stock and price rules.
 */
import { z } from 'zod';
import { type Centavos, tryToCentavos } from './money.ts';

// A peso amount (a JSON number or a Postgres numeric string) as Centavos; negative or not an amount is refused.
const pesos = z.union([z.number(), z.string()]).transform((value, ctx): Centavos => {
  const cents = tryToCentavos(value);
  if (cents === null || cents < 0) {
    ctx.addIssue({ code: 'custom', message: 'Precio no válido.' });
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
    tags: z.array(z.string()).nullish(),
  })
  .transform((row) => ({
    id: row.id,
    name: row.name,
    priceCentavos: row.price,
    originalPriceCentavos: row.original_price ?? row.originalPrice ?? null,
    discount: row.discount ?? false,
    preorder: row.preorder ?? false,
    stock: row.stock ?? null,
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
    tags: row.tags ?? [],
  }));
export type Product = z.infer<typeof productSchema>;

/** Parses one row; null when it is not a usable product. */
export function parseProduct(row: unknown): Product | null {
  const result = productSchema.safeParse(row);
  return result.success ? result.data : null;
}

/** Parses rows and drops those that are not usable products, so one bad row never breaks a page. */
export function parseProducts(rows: readonly unknown[]): Product[] {
  const products: Product[] = [];
  for (const row of rows) {
    const product = parseProduct(row);
    if (product) products.push(product);
  }
  return products;
}
