/**
 * Publishing a product from the admin form: image to storage (bucket 'products') and its copies
 * made by the shop's server (src/data/media-variants.ts), row into `products` (row-level security
 * lets only admins do either), then the catalogue rebuild.
 */
import { deleteProduct, insertProduct, startRebuild, takenProductIds } from '~/data/admin.ts';
import { savePrinting, type AdminPrinting } from '~/data/singles-admin.ts';
import { extensionOf, isForbidden, uploadProductImage } from '~/data/storage.ts';
import { makeImageVariants, removeUnusedImages } from '~/data/media-variants.ts';
import { buildNewProductPayload, type NewProductInput, type NewProductPayload } from '~/domain/validation/product.ts';
import { ADMIN_PUBLISH_TEXT } from '~/i18n/admin.ts';

export type PublishStep = 'upload' | 'insert' | 'rebuild';

/** Outcome of publishing. */
export type PublishResult = { ok: true; product: NewProductPayload; rebuildNote: string } | { ok: false; message: string; step: PublishStep };

/**
 * Publishes a validated product; `onStep` reports progress for the screen. A single card's
 * printing is saved right after its product row; when it cannot be, the product is taken back.
 */
export async function publishProduct(
  input: NewProductInput,
  file: File,
  onStep: (step: PublishStep) => void,
  printing?: AdminPrinting,
  satKeys: { productKey: string; unitKey: string } = { productKey: '', unitKey: '' },
): Promise<PublishResult> {
  const base = buildNewProductPayload(input).id;
  const product = buildNewProductPayload(input, await takenProductIds(base));

  onStep('upload');
  const objectPath = `${product.id}-${Date.now().toString(36)}.${extensionOf(file)}`;
  const upload = await uploadProductImage(objectPath, file);
  if (upload.error) {
    return { ok: false, step: 'upload', message: upload.error.forbidden ? ADMIN_PUBLISH_TEXT.forbidden : ADMIN_PUBLISH_TEXT.uploadFailed };
  }
  // The server makes the photo's copies and names the original with its size; a refusal removes the upload.
  const made = await makeImageVariants(upload.path);
  if (made.error !== null) return { ok: false, step: 'upload', message: made.error };
  // Relative storage path, resolved against the project's public storage wherever it is shown.
  const image = made.path;

  onStep('insert');
  const row = {
    id: product.id,
    name: product.name,
    description: product.description,
    priceCentavos: product.price,
    stock: product.stock,
    limit_per_customer: product.limitPerCustomer,
    preorder: product.preorder,
    available: product.available,
    release_date: product.releaseDate,
    on_sale_at: product.onSaleAt,
    image,
    images: [image],
    tags: product.tags,
    franchise_id: product.franchiseId,
    collection_id: product.collectionId,
    expansion_id: product.expansionId,
    product_type_id: product.productTypeId,
    // Empty: the database gives the product its type's key and H87 (products_sat_keys).
    sat_product_key: satKeys.productKey,
    sat_unit_key: satKeys.unitKey === '' ? undefined : satKeys.unitKey,
  };
  const inserted = await insertProduct(row);
  if (inserted.error) {
    // The image and its copies would otherwise stay behind without a product.
    await removeUnusedImages([image]);
    return {
      ok: false,
      step: 'insert',
      message: isForbidden(inserted.error) ? ADMIN_PUBLISH_TEXT.forbidden : `${ADMIN_PUBLISH_TEXT.insertFailed} ${inserted.error.message}`,
    };
  }

  if (printing) {
    const saved = await savePrinting(product.id, product.franchiseId, printing);
    if (!saved.ok) {
      await deleteProduct(product.id);
      await removeUnusedImages([image]);
      return { ok: false, step: 'insert', message: saved.kind === 'forbidden' ? ADMIN_PUBLISH_TEXT.forbidden : ADMIN_PUBLISH_TEXT.printingFailed };
    }
  }

  onStep('rebuild');
  let rebuildNote: string = ADMIN_PUBLISH_TEXT.rebuildStarted;
  try {
    const answer = await startRebuild({ productId: product.id });
    // 404: no rebuild endpoint; 503: this server cannot rebuild (started without the manager).
    if (answer.status === 404 || answer.status === 503) rebuildNote = ADMIN_PUBLISH_TEXT.rebuildMissing;
    else if (!answer.ok) rebuildNote = ADMIN_PUBLISH_TEXT.rebuildFailed;
  } catch {
    rebuildNote = ADMIN_PUBLISH_TEXT.rebuildFailed;
  }
  return { ok: true, product: { ...product, images: [image] }, rebuildNote };
}
