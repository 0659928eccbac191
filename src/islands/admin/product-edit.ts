/**
 * Editing a product in the back office: the fields come from the add form's own zod schema
 * (newProductSchema), so a price, a stock or a date is judged with the same rules and the same
 * Spanish messages in both places; then the product is saved with the admin's session through
 * admin_save_product (admins only), which writes nothing when the stock moved since the dialog
 * read it, and, unless only the stock changed, the catalogue is rebuilt.
 */
import { z } from 'zod';
import { requestRebuild, saveProductIfStockUnchanged, type AdminProduct } from '~/data/admin.ts';
import { uploadProductImage } from '~/data/storage.ts';
import { validateForm, type FormResult } from '~/domain/validation.ts';
import { VALIDATION_MESSAGES as MESSAGES } from '~/i18n/validation.ts';
import { newProductSchema } from '~/domain/validation/product.ts';
import { ADMIN_PRODUCT_EDIT_TEXT } from '~/i18n/admin.ts';
import { isSatProductKey, isSatUnitKey } from '~/domain/sat-catalogs.ts';
import { ADMIN_PRODUCT_SAT_KEYS_TEXT } from '~/i18n/tax-data.ts';

const fields = newProductSchema.shape;

/** The editable fields, validated like the add form's. */
export const productEditSchema = z
  .object({
    price: fields.price,
    originalPrice: z
      .union([z.number(), z.string()])
      .optional()
      .nullable()
      .transform((value) => (value === null || value === undefined || String(value).trim() === '' ? null : value))
      .pipe(z.union([z.null(), fields.price], { error: ADMIN_PRODUCT_EDIT_TEXT.originalPrice })),
    stock: fields.stock,
    limitPerCustomer: fields.limitPerCustomer,
    available: fields.available,
    preorder: fields.preorder,
    releaseDate: fields.releaseDate,
    onSaleAt: fields.onSaleAt,
    description: fields.description,
    images: z.array(z.string().min(1)).min(1, { error: ADMIN_PRODUCT_EDIT_TEXT.noImages }),
    // SAT's keys for facturas: empty gives back the product type's default (the database fills it).
    satProductKey: z
      .string()
      .trim()
      .refine((value) => value === '' || isSatProductKey(value), { error: ADMIN_PRODUCT_SAT_KEYS_TEXT.productKeyInvalid })
      .optional(),
    satUnitKey: z
      .string()
      .trim()
      .transform((value) => value.toUpperCase())
      .refine((value) => value === '' || isSatUnitKey(value), { error: ADMIN_PRODUCT_SAT_KEYS_TEXT.unitKeyInvalid })
      .optional(),
  })
  .superRefine((value, ctx) => {
    // Each price was read once, as Centavos, by its field (newProductSchema's price); a price that
    // failed its own rule is not compared (it has its message).
    const { originalPrice: original, price } = value;
    if (typeof original === 'number' && typeof price === 'number' && original <= price) {
      ctx.addIssue({ code: 'custom', path: ['originalPrice'], message: ADMIN_PRODUCT_EDIT_TEXT.originalPrice });
    }
  });
export type ProductEdit = z.infer<typeof productEditSchema>;

/** Validates the edit dialog. */
export function validateProductEdit(input: unknown): FormResult<ProductEdit> {
  return validateForm(productEditSchema, input, { formError: MESSAGES.reviewFields });
}

/** Uploads one image to the 'products' bucket; its storage path, or null. */
export async function uploadImage(productId: string, file: File): Promise<string | null> {
  const ext = /\.([a-z0-9]{1,5})$/i.exec(file.name)?.[1]?.toLowerCase() ?? 'img';
  const objectPath = `${productId}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}.${ext}`;
  return (await uploadProductImage(objectPath, file)).path;
}

/** Whether two timestamps (as the database writes them, in any offset) are the same instant, or both absent. */
function sameInstant(a: string | null, b: string | null): boolean {
  return a === null || b === null ? a === b : Date.parse(a) === Date.parse(b);
}

/** How a save ended; on 'stock_changed' nothing was written and `stock` is the product's stock now. */
export type SaveOutcome = { ok: true; message: string; product: AdminProduct } | { ok: false; message: string; stockChanged?: { stock: number } };

/** 'El inventario cambió mientras editabas: ahora hay 3. Revisa y guarda de nuevo.' */
export function stockChangedMessage(stock: number): string {
  return ADMIN_PRODUCT_EDIT_TEXT.stockChanged(stock);
}

/**
 * Saves the edit as a compare and set on the stock: `stockRead` is the stock the dialog showed.
 * When shoppers reserved or released units meanwhile nothing is written and the outcome says how
 * many there are now. A change beyond the stock triggers the (debounced) catalogue rebuild.
 */
export async function saveProduct(before: AdminProduct, edit: ProductEdit, stockRead: number = before.stock): Promise<SaveOutcome> {
  const result = await saveProductIfStockUnchanged(before.id, stockRead, {
    stock: edit.stock,
    priceCentavos: edit.price,
    originalPriceCentavos: edit.originalPrice,
    limitPerCustomer: edit.limitPerCustomer,
    available: edit.available,
    preorder: edit.preorder,
    releaseDate: edit.releaseDate,
    onSaleAt: edit.onSaleAt,
    description: edit.description,
    images: edit.images,
    satProductKey: edit.satProductKey,
    satUnitKey: edit.satUnitKey,
  });
  if (result.status === 'stock_changed') return { ok: false, message: stockChangedMessage(result.stock), stockChanged: { stock: result.stock } };
  if (result.status === 'failed') return { ok: false, message: `${ADMIN_PRODUCT_EDIT_TEXT.saveFailed}${result.message ? ` ${result.message}` : ''}` };
  const saved = result.product;
  const onlyStock =
    saved.priceCentavos === before.priceCentavos &&
    saved.originalPriceCentavos === before.originalPriceCentavos &&
    saved.limit_per_customer === before.limit_per_customer &&
    saved.available === before.available &&
    saved.preorder === before.preorder &&
    saved.release_date === before.release_date &&
    sameInstant(saved.on_sale_at, before.on_sale_at) &&
    saved.description === before.description &&
    // The SAT keys are not shown in the catalogue: changing them needs no rebuild.
    JSON.stringify(saved.images) === JSON.stringify(before.images);
  if (onlyStock) return { ok: true, message: saved.stock === stockRead ? ADMIN_PRODUCT_EDIT_TEXT.saved : ADMIN_PRODUCT_EDIT_TEXT.savedStock, product: saved };
  await requestRebuild({ productId: saved.id });
  return { ok: true, message: ADMIN_PRODUCT_EDIT_TEXT.savedRebuild, product: saved };
}
