import { useEffect, useId, useMemo, useState, type Dispatch, type SetStateAction } from 'react';
import { useStore } from '@nanostores/react';
import { collectionsOf, expansionsOf, franchises, isFranchiseId, isSinglesType, typesOf, type FranchiseId } from '~/domain/catalog.ts';
import { productIdFor } from '~/domain/products.ts';
import { validateNewProduct, type NewProductInput } from '~/domain/validation/product.ts';
import type { FormResult } from '~/domain/validation.ts';
import { $session, initSession } from '~/stores/session.ts';
import { rebuildRunning } from '~/data/admin.ts';
import type { AdminPrinting } from '~/data/singles-admin.ts';
import { ADMIN_PRODUCT_FORM_TEXT, ADMIN_PUBLISH_TEXT } from '~/i18n/admin.ts';
import { publishProduct, type PublishStep } from './publish-product.ts';
import '../account/account.css';
import { Loading } from '../ui/AsyncState.tsx';
import { Field, SelectField, TextField } from '../ui/Field.tsx';
import { useForm } from '../ui/use-form.ts';
import { IMAGE_UPLOAD_ACCEPT, IMAGE_UPLOAD_MESSAGE, isUploadableImage } from '~/domain/image-upload.ts';
import { EMPTY_PRINTING, PrintingFields, SingleOffersEditor } from './SinglesEditor.tsx';
import { validatePrinting } from './single-edit.ts';
import { DropTimeField } from './DropTimeField.tsx';
import { SatKeysFieldset } from './SatKeysFieldset.tsx';
import { isSatProductKey, isSatUnitKey } from '~/domain/sat-catalogs.ts';
import { ADMIN_PRODUCT_SAT_KEYS_TEXT } from '~/i18n/tax-data.ts';

interface Props {
  /** Inside /account/addproduct: no page heading of its own and no back link. */
  embedded?: boolean;
}

type Fields = {
  franchiseId: string;
  collectionId: string;
  expansionId: string;
  productTypeId: string;
  name: string;
  price: string;
  description: string;
  stock: string;
  limitPerCustomer: string;
  preorder: boolean;
  available: boolean;
  releaseDate: string;
  /** 'A la venta desde': Mexico City date and time, empty for on sale now. */
  onSaleAt: string;
  tags: string;
  /** What is printed on the card, for a product of a singles type. */
  printing: AdminPrinting;
  /** SAT's keys for facturas; empty: the product type's key and H87, filled by the database. */
  satProductKey: string;
  satUnitKey: string;
};

const INITIAL: Fields = {
  franchiseId: '',
  collectionId: '',
  expansionId: '',
  productTypeId: '',
  name: '',
  price: '',
  description: '',
  stock: '0',
  limitPerCustomer: '1',
  preorder: false,
  available: true,
  releaseDate: '',
  onSaleAt: '',
  tags: '',
  printing: EMPTY_PRINTING,
  satProductKey: '',
  satUnitKey: '',
};

const STEP_LABELS: Record<PublishStep, string> = {
  upload: ADMIN_PUBLISH_TEXT.upload,
  insert: ADMIN_PUBLISH_TEXT.insert,
  rebuild: ADMIN_PUBLISH_TEXT.rebuild,
};

/** The SAT keys as the product row takes them: trimmed, the unit key in capitals ('' for the database's default). */
function satKeysOf(fields: Fields): { productKey: string; unitKey: string } {
  return { productKey: fields.satProductKey.trim(), unitKey: fields.satUnitKey.trim().toUpperCase() };
}

/** The SAT keys' errors, null when none: each, when typed, in SAT's format (empty leaves it to the database's default). */
function satKeyErrors(fields: Fields): Record<string, string> | null {
  const errors: Record<string, string> = {};
  const { productKey, unitKey } = satKeysOf(fields);
  if (productKey !== '' && !isSatProductKey(productKey)) errors.satProductKey = ADMIN_PRODUCT_SAT_KEYS_TEXT.productKeyInvalid;
  if (unitKey !== '' && !isSatUnitKey(unitKey)) errors.satUnitKey = ADMIN_PRODUCT_SAT_KEYS_TEXT.unitKeyInvalid;
  return Object.keys(errors).length > 0 ? errors : null;
}

/** The form's error when the product's own fields passed: the image's, the printing's, else the SAT keys'. */
function otherFormError(fileError: string, printing: ReturnType<typeof validatePrinting> | null, satErrors: Record<string, string> | null): string {
  return fileError || (printing && !printing.ok ? printing.formError : '') || Object.values(satErrors ?? {})[0] || '';
}

/** The admin's product form: validates, uploads the image, inserts the product, rebuilds. */
export default function ProductForm({ embedded = false }: Props) {
  const session = useStore($session);
  const uid = useId();
  const [fields, setFields] = useState<Fields>(INITIAL);
  const [file, setFile] = useState<File | null>(null);
  const [step, setStep] = useState<PublishStep | null>(null);
  const [result, setResult] = useState<PublishedNote>(null);

  useEffect(() => initSession(), []);

  const form = useForm({
    validate: (): FormResult<{ product: NewProductInput; file: File; printing: AdminPrinting | undefined; single: FranchiseId | null }> => {
      const input = {
        ...fields,
        image: file ? file.name : '',
        tags: fields.tags
          .split(',')
          .map((tag) => tag.trim())
          .filter(Boolean),
      };
      const parsed = validateNewProduct(input);
      // A single card carries its printing: judged with the product, saved right after it.
      const single = isSinglesType(fields.productTypeId) && isFranchiseId(fields.franchiseId) ? fields.franchiseId : null;
      const printing = single ? validatePrinting(single, fields.printing) : null;
      const fileError = file && !isUploadableImage(file) ? IMAGE_UPLOAD_MESSAGE : '';
      const satErrors = satKeyErrors(fields);
      if (!parsed.ok || fileError || !file || (printing && !printing.ok) || satErrors) {
        const next = { ...(parsed.ok ? {} : parsed.fieldErrors), ...(printing && !printing.ok ? printing.fieldErrors : {}), ...satErrors };
        if (fileError) next.image = fileError;
        return { ok: false, fieldErrors: next, formError: parsed.ok ? otherFormError(fileError, printing, satErrors) : parsed.formError };
      }
      return { ok: true, data: { product: parsed.data, file, printing: printing?.ok ? printing.data : undefined, single } };
    },
    send: async ({ product, file: image, printing, single }) => {
      try {
        const outcome = await publishProduct(product, image, setStep, printing, satKeysOf(fields));
        if (!outcome.ok) return outcome.message;
        setResult({ id: outcome.product.id, name: outcome.product.name, note: outcome.rebuildNote, single });
        setFields(INITIAL);
        setFile(null);
      } catch {
        return ADMIN_PRODUCT_FORM_TEXT.publishFailed;
      } finally {
        setStep(null);
      }
    },
  });
  const { errors, busy } = form;

  useRebuildWatch(result, setResult);

  const set = <K extends keyof Fields>(key: K, value: Fields[K]) => setFields((f) => ({ ...f, [key]: value }));
  const previewId =
    fields.franchiseId && fields.productTypeId && fields.expansionId ? productIdFor(fields.franchiseId, fields.productTypeId, fields.expansionId) : '';

  if (session.loading) {
    return <Loading text={ADMIN_PRODUCT_FORM_TEXT.loading} />;
  }

  if (!session.profile?.isAdmin) {
    return (
      <div className="acct-auth card">
        <h1 className="acct-auth-title">{ADMIN_PUBLISH_TEXT.forbidden}</h1>
        <p>{ADMIN_PRODUCT_FORM_TEXT.forbiddenBody}</p>
        <a className="btn btn-primary" href={session.user ? '/account' : '/auth?next=/admin/add'}>
          {session.user ? ADMIN_PRODUCT_FORM_TEXT.backToAccount : ADMIN_PRODUCT_FORM_TEXT.signIn}
        </a>
      </div>
    );
  }

  const id = (name: string) => `${uid}-${name}`;

  return (
    <div className={embedded ? '' : 'acct-panel card'}>
      {!embedded && (
        <p>
          <a className="btn btn-outline" href="/account">
            {ADMIN_PRODUCT_FORM_TEXT.backLink}
          </a>
        </p>
      )}
      {embedded ? <h2>{ADMIN_PRODUCT_FORM_TEXT.title}</h2> : <h1>{ADMIN_PRODUCT_FORM_TEXT.title}</h1>}
      {result && <Published result={result} />}
      <form
        className="acct-form"
        onSubmit={(event) => {
          // A new attempt hides the note of the last publication.
          if (!busy) setResult(null);
          void form.onSubmit(event);
        }}
        noValidate
        aria-busy={busy}
        aria-label={ADMIN_PRODUCT_FORM_TEXT.title}
      >
        <CatalogPlacement fields={fields} setFields={setFields} errors={errors} id={id} />
        <ProductDetailFields fields={fields} set={set} errors={errors} id={id} onFile={setFile} />
        {isSinglesType(fields.productTypeId) && isFranchiseId(fields.franchiseId) && (
          <fieldset className="adm-box">
            <legend>{ADMIN_PRODUCT_FORM_TEXT.cardData}</legend>
            <p className="muted">{ADMIN_PRODUCT_FORM_TEXT.cardDataHint}</p>
            <PrintingFields
              franchise={fields.franchiseId}
              value={fields.printing}
              onChange={(key, value) => setFields((f) => ({ ...f, printing: { ...f.printing, [key]: value } }))}
              errors={errors}
              id={id}
            />
          </fieldset>
        )}
        {previewId && <p className="muted">{ADMIN_PRODUCT_FORM_TEXT.identifier(previewId)}</p>}
        {form.formError && (
          <p className="acct-error" role="alert">
            {form.formError}
          </p>
        )}
        {step && (
          <p className="acct-note acct-note-info" role="status">
            {STEP_LABELS[step]}
          </p>
        )}
        <div className="acct-actions">
          <button type="submit" className="btn btn-primary" disabled={busy}>
            {ADMIN_PRODUCT_FORM_TEXT.publish}
          </button>
        </div>
      </form>
    </div>
  );
}

/** The published product, its rebuild, and for a single card the grid to add its offers. */
function Published({ result }: { result: NonNullable<PublishedNote> }) {
  return (
    <>
      <div className="acct-note acct-note-success" role="status">
        <p>
          {ADMIN_PUBLISH_TEXT.done}: <a href={`/product/${encodeURIComponent(result.id)}`}>{result.name}</a> ({result.id})
        </p>
        <p>{result.note}</p>
      </div>
      {result.single && (
        <div className="adm-box">
          <p>{ADMIN_PRODUCT_FORM_TEXT.addOffers}</p>
          <SingleOffersEditor key={result.id} productId={result.id} franchise={result.single} initial={[]} />
        </div>
      )}
    </>
  );
}

type PublishedNote = { id: string; name: string; note: string; single?: FranchiseId | null } | null;

/** Follows the catalogue rebuild a publication started until it is done, then says so. */
function useRebuildWatch(result: PublishedNote, setResult: Dispatch<SetStateAction<PublishedNote>>): void {
  const waitingForRebuild = result?.note === ADMIN_PUBLISH_TEXT.rebuildStarted;
  useEffect(() => {
    if (!waitingForRebuild) return undefined;
    let stopped = false;
    const timer = setInterval(async () => {
      if (stopped || (await rebuildRunning())) return;
      stopped = true;
      clearInterval(timer);
      setResult((current) => (current ? { ...current, note: ADMIN_PUBLISH_TEXT.rebuildDone } : current));
    }, 3000);
    return () => {
      stopped = true;
      clearInterval(timer);
    };
  }, [waitingForRebuild, setResult]);
}

interface PartProps {
  fields: Fields;
  errors: Record<string, string>;
  id: (name: string) => string;
}

/** Franchise, collection, expansion and product type: each list follows the one before. */
function CatalogPlacement({ fields, setFields, errors, id }: PartProps & { setFields: Dispatch<SetStateAction<Fields>> }) {
  const set = <K extends keyof Fields>(key: K, value: Fields[K]) => setFields((f) => ({ ...f, [key]: value }));
  const collections = useMemo(() => collectionsOf(fields.franchiseId), [fields.franchiseId]);
  const expansions = useMemo(
    () => expansionsOf(fields.franchiseId).filter((e) => !fields.collectionId || e.collectionId === fields.collectionId),
    [fields.franchiseId, fields.collectionId],
  );
  const types = useMemo(() => typesOf(fields.franchiseId), [fields.franchiseId]);
  const choose = (list: ReadonlyArray<{ id: string; name: string }>) => [
    { code: '', label: ADMIN_PRODUCT_FORM_TEXT.choose },
    ...list.map((item) => ({ code: item.id, label: item.name })),
  ];
  return (
    <>
      <div className="acct-row">
        <SelectField
          label={ADMIN_PRODUCT_FORM_TEXT.franchise}
          id={id('franchise')}
          error={errors.franchiseId}
          value={fields.franchiseId}
          options={choose(franchises)}
          onChange={(value) => setFields((f) => ({ ...f, franchiseId: value, collectionId: '', expansionId: '', productTypeId: '' }))}
        />
        <SelectField
          label={ADMIN_PRODUCT_FORM_TEXT.collection}
          id={id('collection')}
          error={errors.collectionId}
          value={fields.collectionId}
          disabled={!fields.franchiseId}
          options={choose(collections)}
          onChange={(value) => setFields((f) => ({ ...f, collectionId: value, expansionId: '' }))}
        />
      </div>
      <div className="acct-row">
        <SelectField
          label={ADMIN_PRODUCT_FORM_TEXT.expansion}
          id={id('expansion')}
          error={errors.expansionId}
          value={fields.expansionId}
          disabled={!fields.franchiseId}
          options={choose(expansions)}
          onChange={(value) => set('expansionId', value)}
        />
        <SelectField
          label={ADMIN_PRODUCT_FORM_TEXT.productType}
          id={id('type')}
          error={errors.productTypeId}
          value={fields.productTypeId}
          disabled={!fields.franchiseId}
          options={choose(types)}
          onChange={(value) => set('productTypeId', value)}
        />
      </div>
    </>
  );
}

/** Name, price, stock, limit, image, description, release date, tags, pre-order, availability and the SAT keys. */
function ProductDetailFields({
  fields,
  set,
  errors,
  id,
  onFile,
}: PartProps & { set: <K extends keyof Fields>(key: K, value: Fields[K]) => void; onFile: (file: File | null) => void }) {
  type TextKey = 'name' | 'price' | 'stock' | 'limitPerCustomer' | 'description' | 'releaseDate' | 'tags';
  const text = (key: TextKey, idName: string, label: string, extra: { inputMode?: 'decimal' | 'numeric'; type?: string; rows?: number } = {}) => (
    <TextField id={id(idName)} label={label} value={fields[key]} onChange={(value) => set(key, value)} error={errors[key]} {...extra} />
  );
  return (
    <>
      {text('name', 'name', ADMIN_PRODUCT_FORM_TEXT.name)}
      <div className="acct-row">
        {text('price', 'price', ADMIN_PRODUCT_FORM_TEXT.price, { inputMode: 'decimal' })}
        {text('stock', 'stock', ADMIN_PRODUCT_FORM_TEXT.stock, { inputMode: 'numeric' })}
        {text('limitPerCustomer', 'limit', ADMIN_PRODUCT_FORM_TEXT.limitPerCustomer, { inputMode: 'numeric' })}
      </div>
      <Field label={ADMIN_PRODUCT_FORM_TEXT.image} id={id('image')} error={errors.image}>
        <input id={id('image')} className="input" type="file" accept={IMAGE_UPLOAD_ACCEPT} onChange={(event) => onFile(event.target.files?.[0] ?? null)} />
      </Field>
      {text('description', 'description', ADMIN_PRODUCT_FORM_TEXT.description, { rows: 4 })}
      <div className="acct-row">
        {text('releaseDate', 'release', ADMIN_PRODUCT_FORM_TEXT.releaseDate, { type: 'date' })}
        {text('tags', 'tags', ADMIN_PRODUCT_FORM_TEXT.tags)}
      </div>
      <DropTimeField id={id('on-sale-at')} value={fields.onSaleAt} onChange={(value) => set('onSaleAt', value)} error={errors.onSaleAt} />
      <label className="acct-check">
        <input type="checkbox" checked={fields.preorder} onChange={(event) => set('preorder', event.target.checked)} />
        {ADMIN_PRODUCT_FORM_TEXT.preorder}
      </label>
      <label className="acct-check">
        <input type="checkbox" checked={fields.available} onChange={(event) => set('available', event.target.checked)} />
        {ADMIN_PRODUCT_FORM_TEXT.available}
      </label>
      <SatKeysFieldset
        idPrefix={id('sat')}
        productKey={fields.satProductKey}
        unitKey={fields.satUnitKey}
        onProductKey={(value) => set('satProductKey', value)}
        onUnitKey={(value) => set('satUnitKey', value)}
        errors={errors}
      />
    </>
  );
}
