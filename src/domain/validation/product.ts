/**
 * The back office's new-product form, and the product it publishes.
 */
import { z } from 'zod';
import { getExpansion, getProductType, isFranchiseId } from '../catalog.ts';
import { pesosInputToCentavos } from '../money.ts';
import { productIdFor, uniqueProductId } from '../products.ts';
import { emptyToNull, requiredText, trimmedText, validateForm, type FormResult } from '../validation.ts';
import { VALIDATION_MESSAGES } from '../../i18n/validation.ts';
import { DROP_ADMIN_FIELD_TEXT } from '../../i18n/drops.ts';
import { fromShopLocal } from '../drops.ts';

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

function isRealDate(value: string): boolean {
  if (!ISO_DATE.test(value)) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
}

function integerField(message: string, min: number, fallback: number) {
  return z.preprocess(
    (value) => {
      if (value === undefined || value === null || value === '') return undefined;
      if (typeof value === 'string') return /^\s*-?\d+\s*$/.test(value) ? Number(value) : Number.NaN;
      return value;
    },
    z.number({ error: message }).int({ error: message }).min(min, { error: message }).max(1_000_000, { error: message }).default(fallback),
  );
}

function booleanField(fallback: boolean) {
  return z.preprocess(
    (value) => (value === 'true' || value === 'on' ? true : value === 'false' ? false : value),
    z.boolean({ error: VALIDATION_MESSAGES.invalidData }).default(fallback),
  );
}

export const newProductSchema = z
  .object({
    franchiseId: requiredText(VALIDATION_MESSAGES.productFranchise).refine(isFranchiseId, { error: VALIDATION_MESSAGES.productFranchise }),
    collectionId: requiredText(VALIDATION_MESSAGES.productCollection),
    expansionId: requiredText(VALIDATION_MESSAGES.productExpansion),
    productTypeId: requiredText(VALIDATION_MESSAGES.productType),
    name: requiredText(VALIDATION_MESSAGES.productName).pipe(z.string().max(200, { error: VALIDATION_MESSAGES.productName })),
    // What was typed becomes Centavos here, once; src/data writes it as the numeric column.
    price: z.union([z.number(), z.string()], { error: VALIDATION_MESSAGES.productPrice }).transform((value, ctx) => {
      const cents = pesosInputToCentavos(value);
      if (cents === null) {
        ctx.addIssue({ code: 'custom', message: VALIDATION_MESSAGES.productPrice });
        return z.NEVER;
      }
      return cents;
    }),
    image: requiredText(VALIDATION_MESSAGES.productImage),
    description: trimmedText,
    stock: integerField(VALIDATION_MESSAGES.productStock, 0, 0),
    limitPerCustomer: integerField(VALIDATION_MESSAGES.productLimit, 1, 1),
    preorder: booleanField(false),
    available: booleanField(true),
    releaseDate: trimmedText.refine((value) => value === '' || isRealDate(value), { error: VALIDATION_MESSAGES.productReleaseDate }).transform(emptyToNull),
    // 'A la venta desde': a Mexico City date and time (a datetime-local field), as an ISO instant; empty: on sale now.
    onSaleAt: trimmedText
      .refine((value) => value === '' || fromShopLocal(value) !== null, { error: DROP_ADMIN_FIELD_TEXT.invalid })
      .transform((value) => (value === '' ? null : new Date(fromShopLocal(value) ?? 0).toISOString())),
    tags: z
      .array(z.string({ error: VALIDATION_MESSAGES.invalidData }).trim(), { error: VALIDATION_MESSAGES.invalidData })
      .optional()
      .transform((tags) => (tags ?? []).filter((tag) => tag !== '')),
  })
  .superRefine((value, ctx) => {
    // Only catalogue entries known here are checked; expansions added later in the database pass.
    const expansion = getExpansion(value.expansionId);
    if (expansion && expansion.franchiseId !== value.franchiseId) {
      ctx.addIssue({ code: 'custom', path: ['expansionId'], message: VALIDATION_MESSAGES.productExpansionMismatch });
    }
    const type = getProductType(value.productTypeId);
    if (type && type.franchiseId !== value.franchiseId) {
      ctx.addIssue({ code: 'custom', path: ['productTypeId'], message: VALIDATION_MESSAGES.productTypeMismatch });
    }
  });
export type NewProductInput = z.infer<typeof newProductSchema>;

/** The product the admin form publishes: the validated fields plus id, images and tags. */
export interface NewProductPayload extends Omit<NewProductInput, 'image'> {
  id: string;
  images: string[];
}

/** Validates the admin product form. */
export function validateNewProduct(input: unknown): FormResult<NewProductInput> {
  return validateForm(newProductSchema, input, { formError: VALIDATION_MESSAGES.reviewFields });
}

/** Builds the product to publish from validated form data: unique id, one image, default tags. */
export function buildNewProductPayload(input: NewProductInput, takenIds: Iterable<string> = []): NewProductPayload {
  const { image, ...rest } = input;
  const id = uniqueProductId(productIdFor(input.franchiseId, input.productTypeId, input.expansionId), takenIds);
  const tags =
    input.tags.length > 0
      ? input.tags
      : [input.name, getProductType(input.productTypeId)?.name ?? input.productTypeId, getExpansion(input.expansionId)?.name ?? input.expansionId];
  return { ...rest, id, images: [image], tags };
}
