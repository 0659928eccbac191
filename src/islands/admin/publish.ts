/**
 * Publishing a product from the admin form: image to storage (bucket 'products'), row into
 * `products` (row-level security lets only admins do either), then the catalogue rebuild.
 */
import { getSupabase } from '../../data/supabase.ts';
import { buildNewProductPayload, type NewProductInput, type NewProductPayload } from '../../domain/validation.ts';

export const PUBLISH_MESSAGES = {
  upload: 'Subiendo imagen…',
  insert: 'Guardando producto…',
  rebuild: 'Actualizando catálogo…',
  uploadFailed: 'No se pudo subir la imagen.',
  insertFailed: 'No se pudo guardar el producto.',
  forbidden: 'No tienes acceso',
  rebuildMissing: 'La actualización automática del catálogo no está disponible; la página del producto ya funciona y aparecerá en los listados en la próxima compilación.',
  rebuildFailed: 'No se pudo iniciar la actualización del catálogo; la página del producto ya funciona.',
  rebuildStarted: 'Actualización del catálogo en curso…',
  rebuildDone: 'Catálogo actualizado: el producto ya aparece en los listados.',
  done: 'Producto publicado',
} as const;

export type PublishStep = 'upload' | 'insert' | 'rebuild';

/** Outcome of publishing. */
export type PublishResult =
  | { ok: true; product: NewProductPayload; rebuildNote: string }
  | { ok: false; message: string; step: PublishStep };

function extensionOf(file: File): string {
  const fromName = /\.([a-z0-9]{1,5})$/i.exec(file.name)?.[1]?.toLowerCase();
  if (fromName) return fromName;
  const fromType = /^image\/([a-z0-9+]+)/i.exec(file.type)?.[1]?.toLowerCase();
  return fromType === 'svg+xml' ? 'svg' : (fromType ?? 'img');
}

/** Ids already used by products whose id starts like `base`, to keep the new id unique. */
async function takenIds(base: string): Promise<string[]> {
  const pattern = `${base.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const { data } = await getSupabase().from('products').select('id').like('id', pattern);
  return (data ?? []).map((row) => String((row as { id: unknown }).id));
}

function isForbidden(error: { message?: string; code?: string; statusCode?: string } | null | undefined): boolean {
  if (!error) return false;
  return error.code === '42501' || error.statusCode === '403' || /row-level security|permission denied/i.test(error.message ?? '');
}

/** Publishes a validated product; `onStep` reports progress for the screen. */
export async function publishProduct(
  input: NewProductInput,
  file: File,
  onStep: (step: PublishStep) => void,
): Promise<PublishResult> {
  const supabase = getSupabase();
  const base = buildNewProductPayload(input).id;
  const product = buildNewProductPayload(input, await takenIds(base));

  onStep('upload');
  const objectPath = `${product.id}-${Date.now().toString(36)}.${extensionOf(file)}`;
  const upload = await supabase.storage.from('products').upload(objectPath, file, {
    contentType: file.type || undefined,
    upsert: false,
  });
  if (upload.error) {
    const forbidden = isForbidden(upload.error as { message?: string; statusCode?: string });
    return { ok: false, step: 'upload', message: forbidden ? PUBLISH_MESSAGES.forbidden : PUBLISH_MESSAGES.uploadFailed };
  }
  // Relative storage path, resolved against the project's public storage wherever it is shown.
  const image = `products/${objectPath}`;

  onStep('insert');
  const row = {
    id: product.id,
    name: product.name,
    description: product.description,
    price: product.price,
    stock: product.stock,
    limit_per_customer: product.limitPerCustomer,
    preorder: product.preorder,
    available: product.available,
    release_date: product.releaseDate,
    image,
    images: [image],
    tags: product.tags,
    franchise_id: product.franchiseId,
    collection_id: product.collectionId,
    expansion_id: product.expansionId,
    product_type_id: product.productTypeId,
  };
  const inserted = await supabase.from('products').insert(row);
  if (inserted.error) {
    // The image would otherwise stay behind without a product.
    await supabase.storage.from('products').remove([objectPath]);
    return {
      ok: false,
      step: 'insert',
      message: isForbidden(inserted.error) ? PUBLISH_MESSAGES.forbidden : `${PUBLISH_MESSAGES.insertFailed} ${inserted.error.message}`,
    };
  }

  onStep('rebuild');
  let rebuildNote: string = PUBLISH_MESSAGES.rebuildStarted;
  try {
    const { data } = await supabase.auth.getSession();
    const response = await fetch('/api/admin/rebuild', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${data.session?.access_token ?? ''}` },
      body: JSON.stringify({ productId: product.id }),
    });
    // 404: no rebuild endpoint; 503: this server cannot rebuild (started without the manager).
    if (response.status === 404 || response.status === 503) rebuildNote = PUBLISH_MESSAGES.rebuildMissing;
    else if (!response.ok) rebuildNote = PUBLISH_MESSAGES.rebuildFailed;
  } catch {
    rebuildNote = PUBLISH_MESSAGES.rebuildFailed;
  }
  return { ok: true, product: { ...product, images: [image] }, rebuildNote };
}

/** Whether a catalogue rebuild is still running or queued (false when idle or unknown). */
export async function rebuildRunning(): Promise<boolean> {
  try {
    const { data } = await getSupabase().auth.getSession();
    const response = await fetch('/api/admin/rebuild', {
      headers: { Authorization: `Bearer ${data.session?.access_token ?? ''}` },
    });
    if (!response.ok) return false;
    const body = (await response.json()) as { status?: unknown };
    return body.status === 'building' || body.status === 'queued';
  } catch {
    return false;
  }
}
