import { useEffect, useId, useRef, useState } from 'react';
import { loadSingle, type AdminPrinting } from '~/data/singles-admin.ts';
import { isFranchiseId, type FranchiseId } from '~/domain/catalog.ts';
import { raritiesOf, type SingleOffer } from '~/domain/singles.ts';
import { ADMIN_SINGLES_EDITOR_TEXT } from '~/i18n/admin.ts';
import { SelectField, TextField } from '../ui/Field.tsx';
import { FormActions } from '../ui/FormActions.tsx';
import { useForm } from '../ui/use-form.ts';
import OffersGrid from './OffersGrid.tsx';
import { savePrintingAndRebuild, validatePrinting } from './single-edit.ts';
import './admin.css';

export const EMPTY_PRINTING: AdminPrinting = { setCode: '', collectorNumber: '', rarity: '', nameEn: '', nameEs: '' };

interface PrintingFieldsProps {
  franchise: FranchiseId;
  value: AdminPrinting;
  onChange: (key: keyof AdminPrinting, value: string) => void;
  errors: Record<string, string>;
  /** The id of a control from its field name. */
  id: (name: string) => string;
}

/** What is printed on the card: set code, collector number, rarity and its names in English and Spanish. */
export function PrintingFields({ franchise, value, onChange, errors, id }: PrintingFieldsProps) {
  const input = (name: keyof AdminPrinting, label: string, autoCapitalize?: 'characters') => (
    <TextField id={id(name)} label={label} value={value[name]} onChange={(v) => onChange(name, v)} error={errors[name]} autoCapitalize={autoCapitalize} />
  );
  return (
    <>
      <div className="acct-row">
        {input('setCode', ADMIN_SINGLES_EDITOR_TEXT.setCode, 'characters')}
        {input('collectorNumber', ADMIN_SINGLES_EDITOR_TEXT.collectorNumber, 'characters')}
        <SelectField
          id={id('rarity')}
          label={ADMIN_SINGLES_EDITOR_TEXT.rarity}
          value={value.rarity}
          options={[{ code: '', label: ADMIN_SINGLES_EDITOR_TEXT.choose }, ...raritiesOf(franchise)]}
          onChange={(v) => onChange('rarity', v)}
          error={errors.rarity}
        />
      </div>
      <div className="acct-row">
        {input('nameEn', ADMIN_SINGLES_EDITOR_TEXT.nameEn)}
        {input('nameEs', ADMIN_SINGLES_EDITOR_TEXT.nameEs)}
      </div>
    </>
  );
}

/** 'Datos de la carta': the printing of a product, saved on its own. */
function PrintingForm({
  productId,
  franchise,
  initial,
  onNotice,
}: {
  productId: string;
  franchise: FranchiseId;
  initial: AdminPrinting;
  onNotice: (m: string) => void;
}) {
  const uid = useId();
  const [value, setValue] = useState(initial);
  const { errors, formError, busy, onSubmit } = useForm({
    validate: () => validatePrinting(franchise, value),
    send: async (data) => {
      const outcome = await savePrintingAndRebuild(productId, franchise, data);
      if (!outcome.ok) return outcome.message;
      onNotice(outcome.message);
    },
  });

  return (
    <form className="acct-form adm-box" onSubmit={onSubmit} noValidate aria-busy={busy} aria-label={ADMIN_SINGLES_EDITOR_TEXT.cardData}>
      <h3>{ADMIN_SINGLES_EDITOR_TEXT.cardData}</h3>
      <PrintingFields
        franchise={franchise}
        value={value}
        onChange={(key, v) => setValue((p) => ({ ...p, [key]: v }))}
        errors={errors}
        id={(name) => `${uid}-${name}`}
      />
      <FormActions error={formError} busy={busy} submitLabel={ADMIN_SINGLES_EDITOR_TEXT.saveCardData} className="adm-actions" />
    </form>
  );
}

/** A single's offers with the status line their saves speak on; used after registering a single too. */
export function SingleOffersEditor({ productId, franchise, initial }: { productId: string; franchise: FranchiseId; initial: SingleOffer[] }) {
  const [offers, setOffers] = useState(initial);
  const [notice, setNotice] = useState('');
  return (
    <>
      <OffersGrid productId={productId} franchise={franchise} offers={offers} onOffers={setOffers} onNotice={setNotice} />
      <p className="acct-note acct-note-success" role="status" hidden={!notice}>
        {notice}
      </p>
    </>
  );
}

interface DialogProps {
  product: { id: string; name: string; franchise_id: string };
  onClose: () => void;
}

/** 'Carta y ofertas': a single's printing and its offers grid, in a dialog of the product list. */
export default function SinglesDialog({ product, onClose }: DialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const [single, setSingle] = useState<Awaited<ReturnType<typeof loadSingle>> | undefined>(undefined);
  const [offers, setOffers] = useState<SingleOffer[]>([]);
  const [notice, setNotice] = useState('');
  const franchise = isFranchiseId(product.franchise_id) ? product.franchise_id : null;

  useEffect(() => {
    ref.current?.showModal();
    void loadSingle(product.id).then((loaded) => {
      setSingle(loaded);
      if (loaded) setOffers(loaded.offers);
    });
  }, [product.id]);

  return (
    <dialog
      ref={ref}
      className="adm-dialog adm-dialog-wide"
      aria-labelledby={titleId}
      // The confirmation of a removal is a dialog inside this one: its close reaches here too.
      onClose={(event) => event.target === event.currentTarget && onClose()}
    >
      <h2 id={titleId}>{ADMIN_SINGLES_EDITOR_TEXT.dialogTitle}</h2>
      <p>
        <strong>{product.name}</strong>
        <br />
        <span className="muted">{product.id}</span>
      </p>
      {single === undefined ? (
        <p role="status">{ADMIN_SINGLES_EDITOR_TEXT.loading}</p>
      ) : single === null || !franchise ? (
        <p className="acct-error" role="alert">
          {ADMIN_SINGLES_EDITOR_TEXT.loadFailed}
        </p>
      ) : (
        <>
          <PrintingForm productId={product.id} franchise={franchise} initial={single.printing ?? EMPTY_PRINTING} onNotice={setNotice} />
          <OffersGrid productId={product.id} franchise={franchise} offers={offers} onOffers={setOffers} onNotice={setNotice} />
        </>
      )}
      <p className="acct-note acct-note-success" role="status" hidden={!notice}>
        {notice}
      </p>
      <div className="adm-actions">
        <button type="button" className="btn btn-outline" onClick={() => ref.current?.close()}>
          {ADMIN_SINGLES_EDITOR_TEXT.close}
        </button>
      </div>
    </dialog>
  );
}
