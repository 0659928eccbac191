import { useEffect, useRef, useState, type Dispatch, type ReactNode, type SetStateAction } from 'react';
import { supabaseUrl } from '~/data/supabase.ts';
import { IMAGE_SLOTS, resolveImage } from '~/domain/images.ts';
import { Picture } from '../ui/Picture.tsx';
import { discountPercent } from '~/domain/products.ts';
import { centavosToPesosInput, pesosInputToCentavos } from '~/domain/money.ts';
import type { AdminProduct } from '~/data/admin.ts';
import { TextField } from '../ui/Field.tsx';
import { FormActions } from '../ui/FormActions.tsx';
import { useForm } from '../ui/use-form.ts';
import { ImageUpload } from './ImageUpload.tsx';
import { removeUnusedImages } from '~/data/media-variants.ts';
import { saveProduct, validateProductEdit } from './product-edit.ts';
import { ADMIN_PRODUCT_EDIT_DIALOG_TEXT } from '~/i18n/admin.ts';
import { DropTimeField, shopLocalOf } from './DropTimeField.tsx';
import { SatKeysFieldset } from './SatKeysFieldset.tsx';

/** The dialog's fields as typed. */
type EditForm = {
  price: string;
  originalPrice: string;
  stock: string;
  limitPerCustomer: string;
  available: boolean;
  preorder: boolean;
  releaseDate: string;
  /** 'A la venta desde': Mexico City date and time, empty for on sale now. */
  onSaleAt: string;
  description: string;
  /** SAT's keys for facturas; empty gives back the defaults. */
  satProductKey: string;
  satUnitKey: string;
};

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
    price: centavosToPesosInput(product.priceCentavos),
    originalPrice: product.originalPriceCentavos === null ? '' : centavosToPesosInput(product.originalPriceCentavos),
    stock: String(product.stock),
    limitPerCustomer: String(product.limit_per_customer),
    available: product.available,
    preorder: product.preorder,
    releaseDate: product.release_date ?? '',
    onSaleAt: shopLocalOf(product.on_sale_at),
    description: product.description ?? '',
    satProductKey: product.sat_product_key ?? '',
    satUnitKey: product.sat_unit_key ?? '',
  });
  const [images, setImages] = useState<string[]>(product.images.length > 0 ? product.images : product.image ? [product.image] : []);
  // The stock the save compares against: what the dialog read, or what the database reported
  // when shoppers reserved or released units while the admin was editing.
  const [stockRead, setStockRead] = useState(product.stock);
  const [uploading, setUploading] = useState(false);

  useEffect(() => {
    ref.current?.showModal();
  }, []);

  const set = (key: keyof EditForm, value: string | boolean) => setFields((f) => ({ ...f, [key]: value }));

  const { errors, formError, busy, onSubmit, setErrors } = useForm({
    validate: () => validateProductEdit({ ...fields, images }),
    send: async (data) => {
      const result = await saveProduct(product, data, stockRead);
      if (!result.ok) {
        if (result.stockChanged) {
          const now = result.stockChanged.stock;
          // The next save compares against the stock there is now; a stock the admin did not touch follows it.
          setStockRead(now);
          if (fields.stock.trim() === String(stockRead)) set('stock', String(now));
        }
        return result.message;
      }
      // Images the product no longer shows go with their copies (the server keeps any still used elsewhere).
      void removeUnusedImages([product.image ?? '', ...product.images].filter((path) => path !== '' && !data.images.includes(path)));
      ref.current?.close();
      onSaved(result.product, result.message);
    },
  });

  return (
    <dialog ref={ref} className="adm-dialog" aria-labelledby="adm-edit-title" onClose={onClose}>
      <h2 id="adm-edit-title">{ADMIN_PRODUCT_EDIT_DIALOG_TEXT.title}</h2>
      <p>
        <strong>{product.name}</strong>
        <br />
        <span className="muted">{product.id}</span>
      </p>
      <form className="acct-form" onSubmit={onSubmit} noValidate aria-busy={busy || uploading}>
        <EditFields fields={fields} set={set} errors={errors} />
        <SatKeysFieldset
          idPrefix="adm-edit"
          productKey={fields.satProductKey}
          unitKey={fields.satUnitKey}
          onProductKey={(value) => set('satProductKey', value)}
          onUnitKey={(value) => set('satUnitKey', value)}
          errors={errors}
        />
        <ImagesFieldset images={images} setImages={setImages}>
          <ImageUpload
            id="adm-edit-images"
            label={ADMIN_PRODUCT_EDIT_DIALOG_TEXT.addImage}
            productId={product.id}
            error={errors.images}
            disabled={busy}
            onUploading={setUploading}
            onUploaded={(path) => {
              setErrors(({ images: _gone, ...rest }) => rest);
              setImages((list) => [...list, path]);
            }}
          />
        </ImagesFieldset>
        <FormActions
          error={formError}
          busy={busy || uploading}
          submitLabel={ADMIN_PRODUCT_EDIT_DIALOG_TEXT.save}
          onCancel={() => ref.current?.close()}
          className="adm-actions"
        />
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
  const percent = discountPercent({ priceCentavos: pesosInputToCentavos(fields.price), originalPriceCentavos: pesosInputToCentavos(fields.originalPrice) });
  const text = (
    name: 'price' | 'originalPrice' | 'stock' | 'limitPerCustomer' | 'releaseDate' | 'description',
    label: string,
    extra: { inputMode?: 'decimal' | 'numeric'; type?: string; rows?: number } = {},
  ) => <TextField id={`adm-edit-${name}`} label={label} value={fields[name]} onChange={(value) => set(name, value)} error={errors[name]} {...extra} />;
  return (
    <>
      <div className="acct-row">
        {text('price', ADMIN_PRODUCT_EDIT_DIALOG_TEXT.price, { inputMode: 'decimal' })}
        {text('originalPrice', ADMIN_PRODUCT_EDIT_DIALOG_TEXT.originalPrice, { inputMode: 'decimal' })}
      </div>
      <p aria-live="polite" data-testid="discount-preview">
        {percent !== null ? (
          <>
            {ADMIN_PRODUCT_EDIT_DIALOG_TEXT.badge} <span className="badge badge-danger">-{percent}%</span>
          </>
        ) : (
          <span className="muted">{ADMIN_PRODUCT_EDIT_DIALOG_TEXT.noBadge}</span>
        )}
      </p>
      <div className="acct-row">
        {text('stock', ADMIN_PRODUCT_EDIT_DIALOG_TEXT.stock, { inputMode: 'numeric' })}
        {text('limitPerCustomer', ADMIN_PRODUCT_EDIT_DIALOG_TEXT.limitPerCustomer, { inputMode: 'numeric' })}
      </div>
      {text('releaseDate', ADMIN_PRODUCT_EDIT_DIALOG_TEXT.releaseDate, { type: 'date' })}
      <DropTimeField id="adm-edit-onSaleAt" value={fields.onSaleAt} onChange={(value) => set('onSaleAt', value)} error={errors.onSaleAt} />
      <label className="acct-check">
        <input type="checkbox" checked={fields.available} onChange={(e) => set('available', e.target.checked)} /> {ADMIN_PRODUCT_EDIT_DIALOG_TEXT.available}
      </label>
      <label className="acct-check">
        <input type="checkbox" checked={fields.preorder} onChange={(e) => set('preorder', e.target.checked)} /> {ADMIN_PRODUCT_EDIT_DIALOG_TEXT.preorder}
      </label>
      {text('description', ADMIN_PRODUCT_EDIT_DIALOG_TEXT.description, { rows: 4 })}
    </>
  );
}

interface ImagesProps {
  images: string[];
  setImages: Dispatch<SetStateAction<string[]>>;
  /** The input that adds an image. */
  children: ReactNode;
}

/** 'Imágenes': the first is the main one; each can move up or down or go, and new ones upload. */
function ImagesFieldset({ images, setImages, children }: ImagesProps) {
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
      <legend>{ADMIN_PRODUCT_EDIT_DIALOG_TEXT.images}</legend>
      <ul className="adm-images">
        {images.map((image, i) => (
          <li key={`${image}-${i}`}>
            <Picture src={resolveImage(image, storage)} frame={IMAGE_SLOTS.thumb80} alt={ADMIN_PRODUCT_EDIT_DIALOG_TEXT.image(i + 1)} />
            <span className="muted">{i === 0 ? ADMIN_PRODUCT_EDIT_DIALOG_TEXT.main : ADMIN_PRODUCT_EDIT_DIALOG_TEXT.image(i + 1)}</span>
            <button type="button" className="btn btn-outline" disabled={i === 0} onClick={() => move(i, -1)}>
              {ADMIN_PRODUCT_EDIT_DIALOG_TEXT.moveUp}
              <span className="visually-hidden"> {ADMIN_PRODUCT_EDIT_DIALOG_TEXT.imageOf(i + 1)}</span>
            </button>
            <button type="button" className="btn btn-outline" disabled={i === images.length - 1} onClick={() => move(i, 1)}>
              {ADMIN_PRODUCT_EDIT_DIALOG_TEXT.moveDown}
              <span className="visually-hidden"> {ADMIN_PRODUCT_EDIT_DIALOG_TEXT.imageOf(i + 1)}</span>
            </button>
            <button type="button" className="btn btn-outline" onClick={() => setImages((list) => list.filter((_, j) => j !== i))}>
              {ADMIN_PRODUCT_EDIT_DIALOG_TEXT.remove}
              <span className="visually-hidden"> {ADMIN_PRODUCT_EDIT_DIALOG_TEXT.imageOf(i + 1)}</span>
            </button>
          </li>
        ))}
      </ul>
      {children}
    </fieldset>
  );
}
