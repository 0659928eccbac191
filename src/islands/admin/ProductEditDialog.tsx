import { useEffect, useRef, useState, type Dispatch, type FormEvent, type SetStateAction } from 'react';
import { supabaseUrl } from '~/data/supabase.ts';
import { resolveImage } from '~/domain/images.ts';
import { discountPercent } from '~/domain/products.ts';
import { toPesos, tryToCentavos } from '~/domain/money.ts';
import type { AdminProduct } from '~/data/admin.ts';
import { Field } from '../ui/Field.tsx';
import { EDIT_MESSAGES, saveProduct, uploadImage, validateProductEdit } from './product-edit.ts';

/** The dialog's fields as typed. */
type EditForm = {
  price: string;
  originalPrice: string;
  stock: string;
  limitPerCustomer: string;
  available: boolean;
  preorder: boolean;
  releaseDate: string;
  description: string;
};

const IMAGE_TYPES = 'image/png,image/jpeg,image/webp,image/svg+xml,image/gif';
const MAX_IMAGE_BYTES = 5 * 1024 * 1024;

/** The product edit dialog: prices (with the discount badge it gives), stock, flags, dates, text, images. */
export default function ProductEditDialog({
  product,
  onClose,
  onSaved,
}: {
  product: AdminProduct;
  onClose: () => void;
  onSaved: (product: AdminProduct, message: string) => void;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const [fields, setFields] = useState<EditForm>({
    price: String(toPesos(product.priceCentavos)),
    originalPrice: product.originalPriceCentavos === null ? '' : String(toPesos(product.originalPriceCentavos)),
    stock: String(product.stock),
    limitPerCustomer: String(product.limit_per_customer),
    available: product.available,
    preorder: product.preorder,
    releaseDate: product.release_date ?? '',
    description: product.description ?? '',
  });
  const [images, setImages] = useState<string[]>(product.images.length > 0 ? product.images : product.image ? [product.image] : []);
  // The stock the save compares against: what the dialog read, or what the database reported
  // when shoppers reserved or released units while the admin was editing.
  const [stockRead, setStockRead] = useState(product.stock);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState('');
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    ref.current?.showModal();
  }, []);

  const set = (key: keyof EditForm, value: string | boolean) => setFields((f) => ({ ...f, [key]: value }));

  async function addImage(file: File | undefined) {
    if (!file) return;
    if (!file.type.startsWith('image/') || file.size > MAX_IMAGE_BYTES) {
      setErrors((e) => ({ ...e, images: EDIT_MESSAGES.imageType }));
      return;
    }
    setBusy(true);
    const path = await uploadImage(product.id, file);
    setBusy(false);
    if (!path) {
      setErrors((e) => ({ ...e, images: EDIT_MESSAGES.uploadFailed }));
      return;
    }
    setErrors(({ images: _gone, ...rest }) => rest);
    setImages((list) => [...list, path]);
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = validateProductEdit({ ...fields, images });
    if (!parsed.ok) {
      setErrors(parsed.fieldErrors);
      setFormError(parsed.formError);
      return;
    }
    setErrors({});
    setFormError('');
    setBusy(true);
    const result = await saveProduct(product, parsed.data, stockRead);
    setBusy(false);
    if (!result.ok) {
      if (result.stockChanged) {
        const now = result.stockChanged.stock;
        // The next save compares against the stock there is now; a stock the admin did not touch follows it.
        setStockRead(now);
        if (fields.stock.trim() === String(stockRead)) set('stock', String(now));
      }
      setFormError(result.message);
      return;
    }
    ref.current?.close();
    onSaved(result.product, result.message);
  }

  return (
    <dialog ref={ref} className="adm-dialog" aria-labelledby="adm-edit-title" onClose={onClose}>
      <h2 id="adm-edit-title">Editar producto</h2>
      <p>
        <strong>{product.name}</strong>
        <br />
        <span className="muted">{product.id}</span>
      </p>
      <form className="acct-form" onSubmit={submit} noValidate aria-busy={busy}>
        <EditFields fields={fields} set={set} errors={errors} />
        <ImagesFieldset images={images} setImages={setImages} busy={busy} error={errors.images} onAdd={(file) => void addImage(file)} />
        {formError && (
          <p className="acct-error" role="alert">
            {formError}
          </p>
        )}
        <div className="adm-actions">
          <button type="submit" className="btn btn-primary" disabled={busy}>
            Guardar cambios
          </button>
          <button type="button" className="btn btn-outline" onClick={() => ref.current?.close()}>
            Cancelar
          </button>
        </div>
      </form>
    </dialog>
  );
}

/** Prices (with the badge they give), stock, limit, release date, flags and description. */
function EditFields({
  fields,
  set,
  errors,
}: {
  fields: EditForm;
  set: (key: keyof EditForm, value: string | boolean) => void;
  errors: Record<string, string>;
}) {
  const percent = discountPercent({ priceCentavos: tryToCentavos(fields.price), originalPriceCentavos: tryToCentavos(fields.originalPrice || null) });
  const described = (name: string) => (errors[name] ? { 'aria-invalid': true as const, 'aria-describedby': `adm-edit-${name}-error` } : {});
  return (
    <>
      <div className="acct-row">
        <Field id="adm-edit-price" label="Precio (MXN)" error={errors.price}>
          <input
            id="adm-edit-price"
            className="input"
            inputMode="decimal"
            value={fields.price}
            onChange={(e) => set('price', e.target.value)}
            {...described('price')}
          />
        </Field>
        <Field id="adm-edit-originalPrice" label="Precio original (MXN)" error={errors.originalPrice}>
          <input
            id="adm-edit-originalPrice"
            className="input"
            inputMode="decimal"
            value={fields.originalPrice}
            onChange={(e) => set('originalPrice', e.target.value)}
            {...described('originalPrice')}
          />
        </Field>
      </div>
      <p aria-live="polite" data-testid="discount-preview">
        {percent !== null ? (
          <>
            Insignia en la tienda: <span className="badge badge-danger">-{percent}%</span>
          </>
        ) : (
          <span className="muted">Sin insignia de descuento.</span>
        )}
      </p>
      <div className="acct-row">
        <Field id="adm-edit-stock" label="Stock" error={errors.stock}>
          <input
            id="adm-edit-stock"
            className="input"
            inputMode="numeric"
            value={fields.stock}
            onChange={(e) => set('stock', e.target.value)}
            {...described('stock')}
          />
        </Field>
        <Field id="adm-edit-limitPerCustomer" label="Límite por cliente" error={errors.limitPerCustomer}>
          <input
            id="adm-edit-limitPerCustomer"
            className="input"
            inputMode="numeric"
            value={fields.limitPerCustomer}
            onChange={(e) => set('limitPerCustomer', e.target.value)}
            {...described('limitPerCustomer')}
          />
        </Field>
      </div>
      <Field id="adm-edit-releaseDate" label="Fecha de lanzamiento" error={errors.releaseDate}>
        <input
          id="adm-edit-releaseDate"
          className="input"
          type="date"
          value={fields.releaseDate}
          onChange={(e) => set('releaseDate', e.target.value)}
          {...described('releaseDate')}
        />
      </Field>
      <label className="acct-check">
        <input type="checkbox" checked={fields.available} onChange={(e) => set('available', e.target.checked)} /> Disponible
      </label>
      <label className="acct-check">
        <input type="checkbox" checked={fields.preorder} onChange={(e) => set('preorder', e.target.checked)} /> Preventa
      </label>
      <Field id="adm-edit-description" label="Descripción" error={errors.description}>
        <textarea id="adm-edit-description" className="input" rows={4} value={fields.description} onChange={(e) => set('description', e.target.value)} />
      </Field>
    </>
  );
}

interface ImagesProps {
  images: string[];
  setImages: Dispatch<SetStateAction<string[]>>;
  busy: boolean;
  error: string | undefined;
  onAdd: (file: File | undefined) => void;
}

/** 'Imágenes': the first is the main one; each can move up or down or go, and new ones upload. */
function ImagesFieldset({ images, setImages, busy, error, onAdd }: ImagesProps) {
  const storage = supabaseUrl();
  function move(index: number, by: number) {
    setImages((list) => {
      const next = [...list];
      const target = index + by;
      if (target < 0 || target >= next.length) return list;
      [next[index], next[target]] = [next[target]!, next[index]!];
      return next;
    });
  }
  return (
    <fieldset className="adm-box">
      <legend>Imágenes</legend>
      <ul className="adm-images">
        {images.map((image, i) => (
          <li key={`${image}-${i}`}>
            <img src={resolveImage(image, storage)} alt={`Imagen ${i + 1}`} />
            <span className="muted">{i === 0 ? 'Principal' : `Imagen ${i + 1}`}</span>
            <button type="button" className="btn btn-outline" disabled={i === 0} onClick={() => move(i, -1)}>
              Subir<span className="visually-hidden"> imagen {i + 1}</span>
            </button>
            <button type="button" className="btn btn-outline" disabled={i === images.length - 1} onClick={() => move(i, 1)}>
              Bajar<span className="visually-hidden"> imagen {i + 1}</span>
            </button>
            <button type="button" className="btn btn-outline" onClick={() => setImages((list) => list.filter((_, j) => j !== i))}>
              Quitar<span className="visually-hidden"> imagen {i + 1}</span>
            </button>
          </li>
        ))}
      </ul>
      <Field id="adm-edit-images" label="Agregar imagen" error={error}>
        <input
          id="adm-edit-images"
          className="input"
          type="file"
          accept={IMAGE_TYPES}
          disabled={busy}
          onChange={(e) => {
            onAdd(e.target.files?.[0]);
            e.target.value = '';
          }}
        />
      </Field>
    </fieldset>
  );
}
