/**
 * 'Promociones' of the back office: every promotion with its type, value, dates, uses / limit,
 * discount given and sales with it; a form to create, edit or duplicate one (dates in Mexico City
 * time), and pause / activate. The database validates and records every change; an edit changes
 * new orders only. At the bottom, the points → pesos rate.
 */
import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { formatCentavos, type Centavos } from '~/domain/money.ts';
import { loadPromotions, savePromotion, setPromotionActive, type AdminPromotion, type PromotionInput, type PromotionType } from '~/data/admin/promotions.ts';
import { loadScopeOptions, loadScopeProducts, type ScopeOptions, type ScopeProduct } from '~/data/admin/promotion-scope.ts';
import { ADMIN_PROMOTIONS_TEXT as TEXT } from '~/i18n/promotions.ts';
import { AdminTable, type Column } from './AdminTable.tsx';
import PointsRateSettings from './PointsRateSettings.tsx';
import PromotionScopePicker, { type Scope } from './PromotionScopePicker.tsx';
import './promotions.css';

const COLUMNS: Column[] = [
  { label: TEXT.columnCode },
  { label: TEXT.columnType },
  { label: TEXT.columnValue, num: true },
  { label: TEXT.columnDates },
  { label: TEXT.columnUses, num: true },
  { label: TEXT.columnDiscount, num: true },
  { label: TEXT.columnSales, num: true },
  { label: TEXT.columnScope },
  { label: TEXT.columnStatus },
  { label: TEXT.columnActions, hidden: true },
];

const ZONE = 'America/Mexico_City';
const SHORT = new Intl.DateTimeFormat('es-MX', { dateStyle: 'short', timeStyle: 'short', timeZone: ZONE });
const LOCAL = new Intl.DateTimeFormat('en-CA', {
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
  timeZone: ZONE,
});

/** An instant as a datetime-local value in Mexico City time. */
function toLocalInput(iso: string | null): string {
  if (!iso) return '';
  const parts = Object.fromEntries(LOCAL.formatToParts(new Date(iso)).map((p) => [p.type, p.value]));
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}`;
}

/** A datetime-local value read as Mexico City time (UTC−6 all year since 2022) as an ISO instant. */
function fromLocalInput(value: string): string | null {
  return value ? new Date(`${value}:00-06:00`).toISOString() : null;
}

const TYPE_LABEL: Record<PromotionType, string> = { percent: TEXT.typePercent, fixed: TEXT.typeFixed, shipping: TEXT.typeShipping };

interface FormFields {
  code: string;
  description: string;
  type: PromotionType;
  value: string;
  minSubtotal: string;
  startsAt: string;
  endsAt: string;
  maxUses: string;
  maxUsesPerCustomer: string;
  firstPurchaseOnly: boolean;
  scope: Scope;
  active: boolean;
}

const EMPTY: FormFields = {
  code: '',
  description: '',
  type: 'percent',
  value: '',
  minSubtotal: '0',
  startsAt: '',
  endsAt: '',
  maxUses: '',
  maxUsesPerCustomer: '',
  firstPurchaseOnly: false,
  scope: { franchiseIds: [], expansionIds: [], productTypeIds: [], productIds: [] },
  active: true,
};

/** Pesos as the form shows them ('1234.50'): formatCentavos without the sign and separators. */
function pesosText(value: Centavos): string {
  return formatCentavos(value).replace(/[^\d.]/g, '');
}

function fieldsOf(p: AdminPromotion): FormFields {
  return {
    code: p.code,
    description: p.description,
    type: p.type,
    value: p.type === 'percent' ? String(p.percent) : p.type === 'fixed' ? pesosText(p.valueCentavos) : '',
    minSubtotal: pesosText(p.minSubtotalCentavos),
    startsAt: toLocalInput(p.startsAt),
    endsAt: toLocalInput(p.endsAt),
    maxUses: p.maxUses === null ? '' : String(p.maxUses),
    maxUsesPerCustomer: p.maxUsesPerCustomer === null ? '' : String(p.maxUsesPerCustomer),
    firstPurchaseOnly: p.firstPurchaseOnly,
    scope: { franchiseIds: p.franchiseIds, expansionIds: p.expansionIds, productTypeIds: p.productTypeIds, productIds: p.productIds },
    active: p.active,
  };
}

const AMOUNT = /^\d{1,8}(\.\d{1,2})?$/;
const WHOLE = /^\d{1,8}$/;

/** The form's values as the database takes them, or the message of what is wrong. */
function inputOf(f: FormFields): PromotionInput | string {
  const code = f.code.trim().toUpperCase();
  if (!code) return TEXT.required;
  if (!/^[A-Z0-9][A-Z0-9_-]{2,39}$/.test(code)) return TEXT.codeFormat;
  const value = f.value.trim();
  if (f.type === 'percent' && (!WHOLE.test(value) || Number(value) < 1 || Number(value) > 100)) return TEXT.percentInvalid;
  if (f.type === 'fixed' && !AMOUNT.test(value)) return TEXT.amountInvalid;
  if (f.type === 'fixed' && Number(value) === 0) return TEXT.fixedZero;
  const minSubtotal = f.minSubtotal.trim() || '0';
  if (!AMOUNT.test(minSubtotal)) return TEXT.amountInvalid;
  const limits = [f.maxUses.trim(), f.maxUsesPerCustomer.trim()];
  if (limits.some((n) => n !== '' && (!WHOLE.test(n) || Number(n) < 1))) return TEXT.wholeNumber;
  const startsAt = fromLocalInput(f.startsAt);
  const endsAt = fromLocalInput(f.endsAt);
  if (startsAt && endsAt && endsAt <= startsAt) return TEXT.dateOrder;
  return {
    code,
    description: f.description.trim(),
    type: f.type,
    value: f.type === 'shipping' ? '0' : value,
    minSubtotal,
    startsAt,
    endsAt,
    maxUses: limits[0] ? Number(limits[0]) : null,
    maxUsesPerCustomer: limits[1] ? Number(limits[1]) : null,
    firstPurchaseOnly: f.firstPurchaseOnly,
    franchiseIds: f.scope.franchiseIds,
    expansionIds: f.scope.expansionIds,
    productTypeIds: f.scope.productTypeIds,
    productIds: f.scope.productIds,
    active: f.active,
  };
}

/** What the list and the form know of the catalogue: the lists to pick from and product names by id. */
interface Catalogue {
  options: ScopeOptions | null;
  failed: boolean;
  productNames: Readonly<Record<string, string>>;
}

function PromotionForm({
  id,
  initial,
  title,
  catalogue,
  onSaved,
  onCancel,
}: {
  id: string | null;
  initial: FormFields;
  title: string;
  catalogue: Catalogue;
  onSaved: () => void;
  onCancel: () => void;
}) {
  const [fields, setFields] = useState(initial);
  const [products, setProducts] = useState<ScopeProduct[]>(() =>
    initial.scope.productIds.map((productId) => ({ id: productId, name: catalogue.productNames[productId] ?? productId })),
  );
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const set = <K extends keyof FormFields>(key: K, value: FormFields[K]) => setFields((f) => ({ ...f, [key]: value }));

  async function submit(event: FormEvent) {
    event.preventDefault();
    const input = inputOf(fields);
    if (typeof input === 'string') return setError(input);
    setBusy(true);
    setError('');
    const saved = await savePromotion(id, input).catch(() => ({ ok: false as const, message: null }));
    setBusy(false);
    if (saved.ok) onSaved();
    else setError(saved.message ?? TEXT.actionFailed);
  }

  const text = (
    key: 'code' | 'description' | 'value' | 'minSubtotal' | 'maxUses' | 'maxUsesPerCustomer',
    label: string,
    extra: Record<string, string | boolean> = {},
  ) => (
    <label className="field">
      <span>{label}</span>
      <input className="input" type="text" value={fields[key]} onChange={(e) => set(key, e.target.value)} {...extra} />
    </label>
  );
  const when = (key: 'startsAt' | 'endsAt', label: string) => (
    <label className="field">
      <span>{label}</span>
      <input className="input" type="datetime-local" value={fields[key]} onChange={(e) => set(key, e.target.value)} />
    </label>
  );
  const check = (key: 'firstPurchaseOnly' | 'active', label: string) => (
    <label className="field-check">
      <input type="checkbox" checked={fields[key]} onChange={(e) => set(key, e.target.checked)} /> {label}
    </label>
  );

  return (
    <form className="card preorder-form" onSubmit={(e) => void submit(e)} aria-label={title} noValidate>
      <h2>{title}</h2>
      {text('code', TEXT.code, { required: true, autoComplete: 'off', autoCapitalize: 'characters' })}
      {text('description', TEXT.description)}
      <label className="field">
        <span>{TEXT.type}</span>
        <select className="input" value={fields.type} onChange={(e) => set('type', e.target.value as PromotionType)}>
          <option value="percent">{TEXT.typePercent}</option>
          <option value="fixed">{TEXT.typeFixed}</option>
          <option value="shipping">{TEXT.typeShipping}</option>
        </select>
      </label>
      {fields.type === 'percent' && text('value', TEXT.valuePercent, { inputMode: 'numeric', required: true })}
      {fields.type === 'fixed' && text('value', TEXT.valueFixed, { inputMode: 'decimal', required: true })}
      {text('minSubtotal', TEXT.minSubtotal, { inputMode: 'decimal' })}
      {when('startsAt', TEXT.startsAt)}
      {when('endsAt', TEXT.endsAt)}
      {text('maxUses', TEXT.maxUses, { inputMode: 'numeric' })}
      {text('maxUsesPerCustomer', TEXT.maxUsesPerCustomer, { inputMode: 'numeric' })}
      {check('firstPurchaseOnly', TEXT.firstPurchaseOnly)}
      <fieldset className="field">
        <legend>{TEXT.scopeTitle}</legend>
        <p className="muted">{TEXT.scopeHelp}</p>
        <PromotionScopePicker
          options={catalogue.options}
          failed={catalogue.failed}
          scope={fields.scope}
          products={products}
          onChange={(scope) => set('scope', scope)}
          onProductsChange={(chosen) => {
            setProducts(chosen);
            set('scope', { ...fields.scope, productIds: chosen.map((p) => p.id) });
          }}
        />
      </fieldset>
      {check('active', TEXT.active)}
      {error && (
        <p className="acct-error" role="alert">
          {error}
        </p>
      )}
      <div className="adm-actions">
        <button type="submit" className="btn btn-primary" disabled={busy}>
          {busy ? TEXT.saving : TEXT.save}
        </button>
        <button type="button" className="btn btn-outline" onClick={onCancel}>
          {TEXT.cancel}
        </button>
      </div>
    </form>
  );
}

type Panel = { kind: 'none' } | { kind: 'new' } | { kind: 'edit'; promotion: AdminPromotion } | { kind: 'copy'; promotion: AdminPromotion };

function valueText(p: AdminPromotion): string {
  if (p.type === 'percent') return TEXT.percentValue(p.percent);
  if (p.type === 'fixed') return formatCentavos(p.valueCentavos);
  return TEXT.shippingValue;
}

function datesText(p: AdminPromotion): string {
  if (!p.startsAt && !p.endsAt) return TEXT.always;
  return TEXT.dates(p.startsAt ? SHORT.format(new Date(p.startsAt)) : TEXT.noStart, p.endsAt ? SHORT.format(new Date(p.endsAt)) : TEXT.noEnd);
}

/** The scope in words: 'Pokémon · Caja de sobres', names from the catalogue (an id when not found). */
function scopeText(p: AdminPromotion, catalogue: Catalogue): string {
  const nameOf = (list: readonly { id: string; name: string }[] | undefined, id: string) => list?.find((o) => o.id === id)?.name ?? id;
  const parts = [
    ...p.franchiseIds.map((id) => nameOf(catalogue.options?.franchises, id)),
    ...p.productTypeIds.map((id) => nameOf(catalogue.options?.productTypes, id)),
    ...p.expansionIds.map((id) => nameOf(catalogue.options?.expansions, id)),
    ...p.productIds.map((id) => catalogue.productNames[id] ?? id),
  ];
  return parts.length === 0 ? TEXT.scopeAll : TEXT.scopeWords(...parts);
}

function PromotionRow({
  p,
  catalogue,
  onEdit,
  onCopy,
  onToggle,
}: {
  p: AdminPromotion;
  catalogue: Catalogue;
  onEdit: () => void;
  onCopy: () => void;
  onToggle: () => void;
}) {
  return (
    <tr data-promotion-code={p.code}>
      <td>
        <strong>{p.code}</strong>
        {p.description && (
          <>
            <br />
            <span className="muted">{p.description}</span>
          </>
        )}
      </td>
      <td data-label={TEXT.columnType}>{TYPE_LABEL[p.type]}</td>
      <td className="num" data-label={TEXT.columnValue}>
        {valueText(p)}
      </td>
      <td data-label={TEXT.columnDates}>{datesText(p)}</td>
      <td className="num" data-label={TEXT.columnUses}>
        {TEXT.uses(p.uses, p.maxUses)}
      </td>
      <td className="num" data-label={TEXT.columnDiscount}>
        {formatCentavos(p.discountGivenCentavos)}
      </td>
      <td className="num" data-label={TEXT.columnSales}>
        {formatCentavos(p.salesCentavos)}
      </td>
      <td data-label={TEXT.columnScope}>{scopeText(p, catalogue)}</td>
      <td data-label={TEXT.columnStatus}>{p.active ? TEXT.statusActive : TEXT.statusPaused}</td>
      <td>
        <div className="adm-actions">
          <button type="button" className="btn btn-outline btn-sm" onClick={onEdit} aria-label={TEXT.editLabel(p.code)}>
            {TEXT.edit}
          </button>
          <button type="button" className="btn btn-outline btn-sm" onClick={onCopy} aria-label={TEXT.duplicateLabel(p.code)}>
            {TEXT.duplicate}
          </button>
          <button
            type="button"
            className="btn btn-outline btn-sm"
            onClick={onToggle}
            aria-label={p.active ? TEXT.pauseLabel(p.code) : TEXT.resumeLabel(p.code)}
          >
            {p.active ? TEXT.pause : TEXT.resume}
          </button>
        </div>
      </td>
    </tr>
  );
}

/** 'Promociones': the promotions, their numbers, the form, pause / activate, and the points rate. */
export default function PromotionsSection() {
  const [promotions, setPromotions] = useState<AdminPromotion[] | null>(null);
  const [failed, setFailed] = useState(false);
  const [panel, setPanel] = useState<Panel>({ kind: 'none' });
  const [notice, setNotice] = useState('');
  const [options, setOptions] = useState<ScopeOptions | null>(null);
  const [optionsFailed, setOptionsFailed] = useState(false);
  const [productNames, setProductNames] = useState<Readonly<Record<string, string>>>({});

  const load = useCallback(() => {
    setFailed(false);
    void loadPromotions().then(async (list) => {
      if (!list) return setFailed(true);
      // The names of the products the promotions name, before the list shows them.
      const named = await loadScopeProducts([...new Set(list.flatMap((p) => p.productIds))]).catch(() => null);
      if (named) setProductNames(Object.fromEntries(named.map((p) => [p.id, p.name])));
      setPromotions(list);
    });
  }, []);
  useEffect(() => load(), [load]);
  useEffect(() => {
    void loadScopeOptions()
      .catch(() => null)
      .then((loaded) => {
        if (loaded) setOptions(loaded);
        else setOptionsFailed(true);
      });
  }, []);
  const catalogue: Catalogue = { options, failed: optionsFailed, productNames };

  const done = (message: string) => {
    setPanel({ kind: 'none' });
    setNotice(message);
    load();
  };

  async function toggle(p: AdminPromotion) {
    const answer = await setPromotionActive(p.id, !p.active).catch(() => ({ ok: false as const, message: null }));
    if (answer.ok) done(p.active ? TEXT.paused : TEXT.resumed);
    else setNotice(answer.message ?? TEXT.actionFailed);
  }

  return (
    <section aria-labelledby="adm-promotions-title">
      <h1 id="adm-promotions-title">{TEXT.title}</h1>
      <p className="muted">{TEXT.intro}</p>
      <p role="status" className="adm-notice">
        {notice}
      </p>
      {panel.kind === 'none' && (
        <button type="button" className="btn btn-primary" onClick={() => setPanel({ kind: 'new' })}>
          {TEXT.newPromotion}
        </button>
      )}
      {panel.kind === 'new' && (
        <PromotionForm
          id={null}
          initial={EMPTY}
          title={TEXT.formTitleNew}
          catalogue={catalogue}
          onSaved={() => done(TEXT.saved)}
          onCancel={() => setPanel({ kind: 'none' })}
        />
      )}
      {panel.kind === 'edit' && (
        <PromotionForm
          id={panel.promotion.id}
          initial={fieldsOf(panel.promotion)}
          title={TEXT.formTitleEdit(panel.promotion.code)}
          catalogue={catalogue}
          onSaved={() => done(TEXT.saved)}
          onCancel={() => setPanel({ kind: 'none' })}
        />
      )}
      {panel.kind === 'copy' && (
        <PromotionForm
          id={null}
          initial={{ ...fieldsOf(panel.promotion), code: TEXT.copyCode(panel.promotion.code) }}
          title={TEXT.formTitleCopy(panel.promotion.code)}
          catalogue={catalogue}
          onSaved={() => done(TEXT.saved)}
          onCancel={() => setPanel({ kind: 'none' })}
        />
      )}
      {failed ? (
        <div className="acct-error" role="alert">
          <p>{TEXT.loadFailed}</p>
        </div>
      ) : !promotions ? (
        <p role="status">{TEXT.loading}</p>
      ) : promotions.length === 0 ? (
        <p>{TEXT.empty}</p>
      ) : (
        <AdminTable label={TEXT.tableLabel} columns={COLUMNS}>
          {promotions.map((p) => (
            <PromotionRow
              key={p.id}
              p={p}
              catalogue={catalogue}
              onEdit={() => setPanel({ kind: 'edit', promotion: p })}
              onCopy={() => setPanel({ kind: 'copy', promotion: p })}
              onToggle={() => void toggle(p)}
            />
          ))}
        </AdminTable>
      )}
      <PointsRateSettings />
    </section>
  );
}
