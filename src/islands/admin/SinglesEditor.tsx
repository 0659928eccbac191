import { useEffect, useId, useRef, useState } from 'react';
import { loadSingle, type AdminPrinting } from '~/data/singles-admin.ts';
import { isFranchiseId, type FranchiseId } from '~/domain/catalog.ts';
import { raritiesOf, type SingleOffer } from '~/domain/singles.ts';
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
        {input('setCode', 'Código de la expansión', 'characters')}
        {input('collectorNumber', 'Número de colección', 'characters')}
        <SelectField
          id={id('rarity')}
          label="Rareza"
          value={value.rarity}
          options={[{ code: '', label: 'Selecciona…' }, ...raritiesOf(franchise)]}
          onChange={(v) => onChange('rarity', v)}
          error={errors.rarity}
        />
      </div>
      <div className="acct-row">
        {input('nameEn', 'Nombre de la carta en inglés')}
        {input('nameEs', 'Nombre de la carta en español')}
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
    <form className="acct-form adm-box" onSubmit={onSubmit} noValidate aria-busy={busy} aria-label="Datos de la carta">
      <h3>Datos de la carta</h3>
      <PrintingFields
        franchise={franchise}
        value={value}
        onChange={(key, v) => setValue((p) => ({ ...p, [key]: v }))}
        errors={errors}
        id={(name) => `${uid}-${name}`}
      />
      <FormActions error={formError} busy={busy} submitLabel="Guardar datos de la carta" className="adm-actions" />
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
      <h2 id={titleId}>Carta y ofertas</h2>
      <p>
        <strong>{product.name}</strong>
        <br />
        <span className="muted">{product.id}</span>
      </p>
      {single === undefined ? (
        <p role="status">Cargando carta…</p>
      ) : single === null || !franchise ? (
        <p className="acct-error" role="alert">
          No se pudo cargar la carta.
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
          Cerrar
        </button>
      </div>
    </dialog>
  );
}
