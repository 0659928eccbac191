import { useId, useState } from 'react';
import { storedImageUrl } from '~/data/storage.ts';
import { IMAGE_SLOTS } from '~/domain/images.ts';
import { Picture } from '../ui/Picture.tsx';
import type { FranchiseId } from '~/domain/catalog.ts';
import { formatCentavos } from '~/domain/money.ts';
import { CARD_CONDITIONS, CONDITION_LABELS, finishesOf, GRADING_COMPANIES, isSlab, languagesOf, offerLabel, type SingleOffer } from '~/domain/singles.ts';
import ConfirmDialog from '../ui/ConfirmDialog.tsx';
import { AdminTable } from './AdminTable.tsx';
import { FormActions } from '../ui/FormActions.tsx';
import { SelectField, TextField } from '../ui/Field.tsx';
import { useForm } from '../ui/use-form.ts';
import { ImageUpload } from './ImageUpload.tsx';
import { removeUnusedImages } from '~/data/media-variants.ts';
import { addOfferAndRebuild, emptyOfferForm, offerFormOf, removeOfferAndRebuild, saveOfferEdit, validateOffer, type OfferForm } from './single-edit.ts';
import { ADMIN_OFFERS_TEXT } from '~/i18n/admin.ts';
import './admin.css';

/** 10, 9.5, … 1: the grades a slab can carry. */
const GRADES = Array.from({ length: 19 }, (_, i) => String(10 - i / 2));

interface GridProps {
  productId: string;
  franchise: FranchiseId;
  offers: SingleOffer[];
  onOffers: (offers: SingleOffer[]) => void;
  /** Said in the grid's status line after each save. */
  onNotice: (message: string) => void;
}

/** 'Ofertas': every copy of the card on sale, each editable and removable, and 'Agregar oferta'. */
export default function OffersGrid({ productId, franchise, offers, onOffers, onNotice }: GridProps) {
  const headingId = useId();
  // null: no form open; 'new': adding; else the offer being edited.
  const [editing, setEditing] = useState<SingleOffer | 'new' | null>(null);
  const [removing, setRemoving] = useState<SingleOffer | null>(null);
  const [removeError, setRemoveError] = useState('');
  const [busy, setBusy] = useState(false);

  async function remove() {
    if (!removing) return;
    setBusy(true);
    const outcome = await removeOfferAndRebuild(productId, removing);
    setBusy(false);
    if (!outcome.ok) {
      setRemoveError(outcome.message);
      return;
    }
    // The removed offer's photos go with their copies.
    void removeUnusedImages(removing.images);
    onOffers(offers.filter((o) => o.id !== removing.id));
    setRemoving(null);
    onNotice(outcome.message);
  }

  return (
    <section aria-labelledby={headingId} className="adm-offers">
      <h3 id={headingId}>{ADMIN_OFFERS_TEXT.title}</h3>
      {offers.length === 0 ? (
        <p className="muted">{ADMIN_OFFERS_TEXT.none}</p>
      ) : (
        <OffersTable
          offers={offers}
          onEdit={setEditing}
          onRemove={(offer) => {
            setRemoveError('');
            setRemoving(offer);
          }}
        />
      )}
      {editing === null ? (
        <p>
          <button type="button" className="btn btn-accent" onClick={() => setEditing('new')}>
            {ADMIN_OFFERS_TEXT.add}
          </button>
        </p>
      ) : (
        <OfferFormPanel
          key={editing === 'new' ? 'new' : editing.id}
          productId={productId}
          franchise={franchise}
          offer={editing === 'new' ? null : editing}
          offers={offers}
          onCancel={() => setEditing(null)}
          onSaved={(saved, message, keepOpen) => {
            const exists = offers.some((o) => o.id === saved.id);
            onOffers(exists ? offers.map((o) => (o.id === saved.id ? saved : o)) : [...offers, saved]);
            if (!keepOpen) setEditing(null);
            onNotice(message);
          }}
        />
      )}
      <ConfirmDialog
        open={removing !== null}
        title={ADMIN_OFFERS_TEXT.removeTitle}
        confirmLabel={ADMIN_OFFERS_TEXT.confirmRemove}
        busy={busy}
        onConfirm={() => void remove()}
        onClose={() => setRemoving(null)}
      >
        <p>{ADMIN_OFFERS_TEXT.removeBody(removing ? offerLabel(removing) : '')}</p>
        {removeError && (
          <p className="acct-error" role="alert">
            {removeError}
          </p>
        )}
      </ConfirmDialog>
    </section>
  );
}

/** The offers, each with its label, price, stock and 'Editar' / 'Quitar'. */
function OffersTable({ offers, onEdit, onRemove }: { offers: SingleOffer[]; onEdit: (o: SingleOffer) => void; onRemove: (o: SingleOffer) => void }) {
  return (
    <AdminTable
      label={ADMIN_OFFERS_TEXT.listLabel}
      columns={[
        { label: ADMIN_OFFERS_TEXT.offer },
        { label: ADMIN_OFFERS_TEXT.price, num: true },
        { label: ADMIN_OFFERS_TEXT.stock, num: true },
        { label: ADMIN_OFFERS_TEXT.actions, hidden: true },
      ]}
    >
      {offers.map((offer) => {
        const label = offerLabel(offer);
        return (
          <tr key={offer.id} data-testid="admin-offer-row">
            <td>
              {label}
              {isSlab(offer) && <span className="muted"> · {ADMIN_OFFERS_TEXT.certificate(offer.certificateNumber ?? '')}</span>}{' '}
              {offer.stock === 0 && <span className="badge badge-warning">{ADMIN_OFFERS_TEXT.noStock}</span>}
            </td>
            <td className="num" data-label={ADMIN_OFFERS_TEXT.price}>
              {formatCentavos(offer.priceCentavos)}
            </td>
            <td className="num" data-label={ADMIN_OFFERS_TEXT.stock}>
              {offer.stock}
            </td>
            <td className="adm-row-actions">
              <button type="button" className="btn btn-outline" onClick={() => onEdit(offer)}>
                {ADMIN_OFFERS_TEXT.edit}
                <span className="visually-hidden"> {label}</span>
              </button>
              <button type="button" className="btn btn-outline" onClick={() => onRemove(offer)}>
                {ADMIN_OFFERS_TEXT.remove}
                <span className="visually-hidden"> {label}</span>
              </button>
            </td>
          </tr>
        );
      })}
    </AdminTable>
  );
}

interface PanelProps {
  productId: string;
  franchise: FranchiseId;
  offer: SingleOffer | null;
  offers: SingleOffer[];
  onCancel: () => void;
  onSaved: (offer: SingleOffer, message: string, keepOpen?: boolean) => void;
}

/** The form of one offer: adding a new one, or editing one (its stock saved as a compare and set). */
function OfferFormPanel({ productId, franchise, offer, offers, onCancel, onSaved }: PanelProps) {
  const uid = useId();
  const [form, setForm] = useState<OfferForm>(() => (offer ? offerFormOf(offer) : emptyOfferForm(franchise)));
  // The stock the save compares against: what the grid read, or what the database reported since.
  const [stockRead, setStockRead] = useState(offer?.stock ?? 0);
  const set = <K extends keyof OfferForm>(key: K, value: OfferForm[K]) => setForm((f) => ({ ...f, [key]: value }));
  const title = offer ? ADMIN_OFFERS_TEXT.editTitle(offerLabel(offer)) : ADMIN_OFFERS_TEXT.newTitle;
  const { errors, formError, busy, onSubmit } = useForm({
    validate: () =>
      validateOffer(
        franchise,
        form,
        offers.filter((o) => o.id !== offer?.id),
      ),
    send: async (data) => {
      const outcome = offer
        ? await saveOfferEdit(productId, { ...offer, stock: stockRead }, data, stockRead)
        : await addOfferAndRebuild(productId, data, offers);
      if (!outcome.ok) {
        if (outcome.stockChanged && offer) {
          const now = outcome.stockChanged.stock;
          setStockRead(now);
          // A stock the admin did not touch follows the database; a typed one stays for review.
          if (form.stock.trim() === String(stockRead)) set('stock', String(now));
          onSaved({ ...offer, stock: now }, '', true);
        }
        return outcome.message;
      }
      // Photos the offer no longer shows go with their copies.
      if (offer) void removeUnusedImages(offer.images.filter((path) => !outcome.value.images.includes(path)));
      onSaved(outcome.value, outcome.message);
    },
  });

  return (
    <form className="acct-form adm-box" onSubmit={onSubmit} noValidate aria-busy={busy} aria-label={title}>
      <h4>{title}</h4>
      <OfferFields uid={uid} franchise={franchise} form={form} set={set} errors={errors} />
      {form.kind === 'slab' && <SlabPhotos uid={uid} productId={productId} images={form.images} onImages={(images) => set('images', images)} />}
      <FormActions
        error={formError}
        busy={busy}
        submitLabel={offer ? ADMIN_OFFERS_TEXT.save : ADMIN_OFFERS_TEXT.addThis}
        onCancel={onCancel}
        className="adm-actions"
      />
    </form>
  );
}

interface FieldsProps {
  uid: string;
  franchise: FranchiseId;
  form: OfferForm;
  set: <K extends keyof OfferForm>(key: K, value: OfferForm[K]) => void;
  errors: Record<string, string>;
}

/** Kind, condition or slab fields, language, finish, prices and stock. */
function OfferFields({ uid, franchise, form, set, errors }: FieldsProps) {
  const kinds = [
    { code: 'raw', label: ADMIN_OFFERS_TEXT.kindRaw },
    { code: 'slab', label: ADMIN_OFFERS_TEXT.kindSlab },
  ];
  const conditions = CARD_CONDITIONS.map((code) => ({ code, label: CONDITION_LABELS[code] }));
  const companies = [{ code: '', label: ADMIN_OFFERS_TEXT.choose }, ...GRADING_COMPANIES.map((code) => ({ code, label: code }))];
  const grades = [{ code: '', label: ADMIN_OFFERS_TEXT.choose }, ...GRADES.map((code) => ({ code, label: code }))];
  return (
    <>
      <SelectField
        id={`${uid}-kind`}
        label={ADMIN_OFFERS_TEXT.kind}
        value={form.kind}
        options={kinds}
        onChange={(v) => set('kind', v === 'slab' ? 'slab' : 'raw')}
      />
      {form.kind === 'raw' ? (
        <SelectField
          id={`${uid}-condition`}
          label={ADMIN_OFFERS_TEXT.condition}
          value={form.condition}
          options={conditions}
          error={errors.condition}
          onChange={(v) => set('condition', v)}
        />
      ) : (
        <div className="acct-row">
          <SelectField
            id={`${uid}-company`}
            label={ADMIN_OFFERS_TEXT.company}
            value={form.gradingCompany}
            options={companies}
            error={errors.gradingCompany}
            onChange={(v) => set('gradingCompany', v)}
          />
          <SelectField
            id={`${uid}-grade`}
            label={ADMIN_OFFERS_TEXT.grade}
            value={form.grade}
            options={grades}
            error={errors.grade}
            onChange={(v) => set('grade', v)}
          />
          <TextField
            id={`${uid}-certificate`}
            label={ADMIN_OFFERS_TEXT.certificateNumber}
            value={form.certificateNumber}
            error={errors.certificateNumber}
            onChange={(v) => set('certificateNumber', v)}
          />
        </div>
      )}
      <div className="acct-row">
        <SelectField
          id={`${uid}-language`}
          label={ADMIN_OFFERS_TEXT.language}
          value={form.language}
          options={languagesOf(franchise)}
          error={errors.language}
          onChange={(v) => set('language', v)}
        />
        <SelectField
          id={`${uid}-finish`}
          label={ADMIN_OFFERS_TEXT.finish}
          value={form.finish}
          options={finishesOf(franchise)}
          error={errors.finish}
          onChange={(v) => set('finish', v)}
        />
      </div>
      <div className="acct-row">
        <TextField
          id={`${uid}-price`}
          label={ADMIN_OFFERS_TEXT.priceMxn}
          inputMode="decimal"
          value={form.price}
          error={errors.price}
          onChange={(v) => set('price', v)}
        />
        <TextField
          id={`${uid}-original`}
          label={ADMIN_OFFERS_TEXT.originalPrice}
          inputMode="decimal"
          value={form.originalPrice}
          error={errors.originalPrice}
          onChange={(v) => set('originalPrice', v)}
        />
        <TextField
          id={`${uid}-stock`}
          label={ADMIN_OFFERS_TEXT.stock}
          inputMode="numeric"
          value={form.stock}
          error={errors.stock}
          onChange={(v) => set('stock', v)}
        />
      </div>
    </>
  );
}

/** A slab's own photos: uploaded to the products bucket like product images; each can go. */
function SlabPhotos({ uid, productId, images, onImages }: { uid: string; productId: string; images: string[]; onImages: (images: string[]) => void }) {
  return (
    <fieldset className="adm-box">
      <legend>{ADMIN_OFFERS_TEXT.photos}</legend>
      {images.length > 0 && (
        <ul className="adm-images">
          {images.map((image, i) => (
            <li key={`${image}-${i}`}>
              <Picture src={storedImageUrl(image)} frame={IMAGE_SLOTS.thumb80} alt={ADMIN_OFFERS_TEXT.photoAlt(i + 1)} />
              <button type="button" className="btn btn-outline" onClick={() => onImages(images.filter((_, j) => j !== i))}>
                {ADMIN_OFFERS_TEXT.remove}
                <span className="visually-hidden"> {ADMIN_OFFERS_TEXT.photoOf(i + 1)}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
      <ImageUpload
        id={`${uid}-photo`}
        label={ADMIN_OFFERS_TEXT.addPhoto}
        productId={productId}
        uploadingNote={ADMIN_OFFERS_TEXT.uploadingPhoto}
        onUploaded={(path) => onImages([...images, path])}
      />
    </fieldset>
  );
}
