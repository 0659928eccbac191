/**
 * 'Preventas' of the back office: every preorder campaign with its numbers (live orders and units,
 * allocation, units filled, waitlisted and refunded, units received), a form to create or edit one
 * (dates in Mexico City time) and 'Registrar llegada' (the units received; one key per arrival,
 * so a double click registers it once).
 */
import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { offersOfProduct, type AdminOfferChoice } from '~/data/preorder-offers.ts';
import {
  loadPreorderCampaigns,
  registerPreorderArrival,
  savePreorderCampaign,
  type AdminPreorderCampaign,
  type PreorderCampaignInput,
} from '~/data/preorders-admin.ts';
import { ADMIN_PREORDERS_TEXT as TEXT } from '~/i18n/preorders.ts';
import { AdminTable, type Column } from './AdminTable.tsx';

const COLUMNS: Column[] = [
  { label: TEXT.product },
  { label: TEXT.release },
  { label: TEXT.window },
  { label: TEXT.orders, num: true },
  { label: TEXT.units, num: true },
  { label: TEXT.allocation, num: true },
  { label: TEXT.allocated, num: true },
  { label: TEXT.waitlist, num: true },
  { label: TEXT.refunded, num: true },
  { label: TEXT.received, num: true },
  { label: TEXT.edit, hidden: true },
];

const ZONE = 'America/Mexico_City';
const SHORT = new Intl.DateTimeFormat('es-MX', { dateStyle: 'short', timeStyle: 'short', timeZone: ZONE });
const DAY = new Intl.DateTimeFormat('es-MX', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
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
function toLocalInput(iso: string): string {
  const parts = Object.fromEntries(LOCAL.formatToParts(new Date(iso)).map((p) => [p.type, p.value]));
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}`;
}

/** A datetime-local value read as Mexico City time (UTC−6 all year since 2022) as an ISO instant. */
function fromLocalInput(value: string): string {
  return new Date(`${value}:00-06:00`).toISOString();
}

interface FormFields {
  productId: string;
  offerId: string;
  releaseDate: string;
  opensAt: string;
  closesAt: string;
  allocation: string;
  perCustomer: string;
  perOrder: string;
}

const EMPTY: FormFields = { productId: '', offerId: '', releaseDate: '', opensAt: '', closesAt: '', allocation: '0', perCustomer: '2', perOrder: '2' };

function fieldsOf(c: AdminPreorderCampaign): FormFields {
  return {
    productId: c.productId,
    offerId: c.offerId ?? '',
    releaseDate: c.releaseDate,
    opensAt: toLocalInput(c.opensAt),
    closesAt: toLocalInput(c.closesAt),
    allocation: String(c.allocation),
    perCustomer: String(c.perCustomerLimit),
    perOrder: String(c.perOrderLimit),
  };
}

/** The form's values as the database takes them, or the message of what is missing. */
function inputOf(f: FormFields): PreorderCampaignInput | string {
  if (!f.productId.trim() || !f.releaseDate || !f.opensAt || !f.closesAt) return TEXT.required;
  const numbers = [f.allocation, f.perCustomer, f.perOrder];
  if (numbers.some((n) => !/^\d+$/.test(n.trim()))) return TEXT.wholeNumber;
  return {
    productId: f.productId.trim(),
    offerId: f.offerId.trim() || null,
    releaseDate: f.releaseDate,
    opensAt: fromLocalInput(f.opensAt),
    closesAt: fromLocalInput(f.closesAt),
    allocation: Number(f.allocation),
    perCustomerLimit: Number(f.perCustomer),
    perOrderLimit: Number(f.perOrder),
  };
}

/** The offers of the product typed in the form (none for a sealed product or while reading). */
function useProductOffers(productId: string): AdminOfferChoice[] | null {
  const [offers, setOffers] = useState<AdminOfferChoice[] | null>([]);
  useEffect(() => {
    const id = productId.trim();
    if (!id) {
      setOffers([]);
      return;
    }
    let current = true;
    setOffers(null);
    // Read once the typing pauses.
    const timer = setTimeout(() => {
      offersOfProduct(id)
        .then((list) => current && setOffers(list))
        .catch(() => current && setOffers([]));
    }, 300);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [productId]);
  return offers;
}

/** A single's campaign is for one of its copies: chosen by its name ('NM · Español · Holo'). */
function OfferSelect({
  offers,
  value,
  locked,
  onChange,
}: {
  offers: AdminOfferChoice[] | null;
  value: string;
  locked: boolean;
  onChange: (id: string) => void;
}) {
  if (offers === null) return <p className="muted">{TEXT.offersLoading}</p>;
  if (offers.length === 0) return null;
  return (
    <label className="field">
      <span>{TEXT.offerId}</span>
      <select className="input" value={value} required disabled={locked} onChange={(e) => onChange(e.target.value)}>
        <option value="">{TEXT.offerChoose}</option>
        {offers.map((offer) => (
          <option key={offer.id} value={offer.id}>
            {offer.label}
          </option>
        ))}
      </select>
    </label>
  );
}

function CampaignForm({ initial, title, onSaved, onCancel }: { initial: FormFields; title: string; onSaved: () => void; onCancel: () => void }) {
  const [fields, setFields] = useState(initial);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const set = (key: keyof FormFields, value: string) => setFields((f) => ({ ...f, [key]: value }));
  const offers = useProductOffers(fields.productId);
  // A sealed product has no offer to choose: none is sent.
  const offerId = offers && offers.some((offer) => offer.id === fields.offerId) ? fields.offerId : '';

  async function submit(event: FormEvent) {
    event.preventDefault();
    const input = inputOf({ ...fields, offerId });
    if (typeof input === 'string') return setError(input);
    setBusy(true);
    setError('');
    const saved = await savePreorderCampaign(input).catch(() => ({ ok: false as const, message: null }));
    setBusy(false);
    if (saved.ok) onSaved();
    else setError(saved.message ?? TEXT.actionFailed);
  }

  const field = (key: keyof FormFields, label: string, type: string, extra: Record<string, string | boolean> = {}) => (
    <label className="field">
      <span>{label}</span>
      <input className="input" type={type} value={fields[key]} onChange={(e) => set(key, e.target.value)} {...extra} />
    </label>
  );

  return (
    <form className="card preorder-form" onSubmit={(e) => void submit(e)} aria-label={title}>
      <h2>{title}</h2>
      {field('productId', TEXT.productId, 'text', { required: true, readOnly: initial.productId !== '' })}
      <OfferSelect offers={offers} value={offerId} locked={initial.productId !== ''} onChange={(id) => set('offerId', id)} />
      {field('releaseDate', TEXT.releaseDate, 'date', { required: true })}
      {field('opensAt', TEXT.opensAt, 'datetime-local', { required: true })}
      {field('closesAt', TEXT.closesAt, 'datetime-local', { required: true })}
      {field('allocation', TEXT.allocationLabel, 'number', { min: '0', required: true })}
      {field('perCustomer', TEXT.perCustomer, 'number', { min: '1', required: true })}
      {field('perOrder', TEXT.perOrder, 'number', { min: '1', required: true })}
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

function ArrivalForm({ campaign, onDone, onCancel }: { campaign: AdminPreorderCampaign; onDone: (message: string) => void; onCancel: () => void }) {
  const [quantity, setQuantity] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  // One key for this arrival: every click of this form registers the same arrival.
  const [key] = useState(() => crypto.randomUUID());

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!/^\d+$/.test(quantity.trim())) return setError(TEXT.wholeNumber);
    setBusy(true);
    setError('');
    const answer = await registerPreorderArrival(campaign.id, Number(quantity), key);
    setBusy(false);
    if (!answer.ok || !answer.data) return setError(answer.message ?? TEXT.actionFailed);
    const a = answer.data;
    const parts = [a.replayed ? TEXT.arrivalReplayed : TEXT.arrivalDone(a.orders.allocated, a.orders.waitlisted, a.orders.refunded, a.toStock)];
    if (a.refunds.processing + a.refunds.failed > 0) parts.push(TEXT.refundsPending(a.refunds.processing + a.refunds.failed));
    onDone(parts.join(' '));
  }

  const title = TEXT.arrivalTitle(campaign.productName);
  return (
    <form className="card preorder-form" onSubmit={(e) => void submit(e)} aria-label={title}>
      <h2>{title}</h2>
      <p className="muted">{TEXT.arrivalHelp}</p>
      <label className="field">
        <span>{TEXT.arrivalQuantity}</span>
        <input className="input" type="number" min="0" inputMode="numeric" required value={quantity} onChange={(e) => setQuantity(e.target.value)} />
      </label>
      {error && (
        <p className="acct-error" role="alert">
          {error}
        </p>
      )}
      <div className="adm-actions">
        <button type="submit" className="btn btn-primary" disabled={busy}>
          {busy ? TEXT.arrivalRunning : TEXT.arrivalConfirm}
        </button>
        <button type="button" className="btn btn-outline" onClick={onCancel}>
          {TEXT.cancel}
        </button>
      </div>
    </form>
  );
}

type Panel = { kind: 'none' } | { kind: 'new' } | { kind: 'edit'; campaign: AdminPreorderCampaign } | { kind: 'arrival'; campaign: AdminPreorderCampaign };

function CampaignRow({ c, onEdit, onArrival }: { c: AdminPreorderCampaign; onEdit: () => void; onArrival: () => void }) {
  return (
    <tr data-campaign-id={c.id}>
      <td>
        <a href={`/product/${encodeURIComponent(c.productId)}`}>{c.productName}</a>
        <br />
        <span className="muted">{c.offerId ?? c.productId}</span>
      </td>
      <td data-label={TEXT.release}>{c.releaseDate ? DAY.format(new Date(`${c.releaseDate}T00:00:00Z`)) : '—'}</td>
      <td data-label={TEXT.window}>{TEXT.windowRange(SHORT.format(new Date(c.opensAt)), SHORT.format(new Date(c.closesAt)))}</td>
      <td className="num" data-label={TEXT.orders}>
        {c.orders}
      </td>
      <td className="num" data-label={TEXT.units}>
        {c.units}
      </td>
      <td className="num" data-label={TEXT.allocation}>
        {c.allocation === 0 ? TEXT.noCap : c.allocation}
      </td>
      <td className="num" data-label={TEXT.allocated}>
        {c.allocated}
      </td>
      <td className="num" data-label={TEXT.waitlist}>
        {c.waitlisted}
      </td>
      <td className="num" data-label={TEXT.refunded}>
        {c.refunded}
      </td>
      <td className="num" data-label={TEXT.received}>
        {c.received}
      </td>
      <td>
        <div className="adm-actions">
          <button type="button" className="btn btn-outline btn-sm" onClick={onEdit} aria-label={TEXT.formTitleEdit(c.productName)}>
            {TEXT.edit}
          </button>
          <button type="button" className="btn btn-primary btn-sm" onClick={onArrival} aria-label={TEXT.arrivalTitle(c.productName)}>
            {TEXT.registerArrival}
          </button>
        </div>
      </td>
    </tr>
  );
}

/** 'Preventas': the campaigns, their numbers, the campaign form and 'Registrar llegada'. */
export default function PreordersSection() {
  const [campaigns, setCampaigns] = useState<AdminPreorderCampaign[] | null>(null);
  const [failed, setFailed] = useState(false);
  const [panel, setPanel] = useState<Panel>({ kind: 'none' });
  const [notice, setNotice] = useState('');

  const load = useCallback(() => {
    setFailed(false);
    void loadPreorderCampaigns().then((list) => {
      if (list) setCampaigns(list);
      else setFailed(true);
    });
  }, []);
  useEffect(() => load(), [load]);

  const done = (message: string) => {
    setPanel({ kind: 'none' });
    setNotice(message);
    load();
  };

  return (
    <section aria-labelledby="adm-preorders-title">
      <h1 id="adm-preorders-title">{TEXT.title}</h1>
      <p className="muted">{TEXT.intro}</p>
      <p role="status" className="adm-notice">
        {notice}
      </p>
      {panel.kind === 'none' && (
        <button type="button" className="btn btn-primary" onClick={() => setPanel({ kind: 'new' })}>
          {TEXT.newCampaign}
        </button>
      )}
      {panel.kind === 'new' && (
        <CampaignForm initial={EMPTY} title={TEXT.formTitleNew} onSaved={() => done(TEXT.saved)} onCancel={() => setPanel({ kind: 'none' })} />
      )}
      {panel.kind === 'edit' && (
        <CampaignForm
          initial={fieldsOf(panel.campaign)}
          title={TEXT.formTitleEdit(panel.campaign.productName)}
          onSaved={() => done(TEXT.saved)}
          onCancel={() => setPanel({ kind: 'none' })}
        />
      )}
      {panel.kind === 'arrival' && <ArrivalForm campaign={panel.campaign} onDone={done} onCancel={() => setPanel({ kind: 'none' })} />}
      {failed ? (
        <div className="acct-error" role="alert">
          <p>{TEXT.loadFailed}</p>
        </div>
      ) : !campaigns ? (
        <p role="status">{TEXT.loading}</p>
      ) : campaigns.length === 0 ? (
        <p>{TEXT.empty}</p>
      ) : (
        <AdminTable label={TEXT.tableLabel} columns={COLUMNS}>
          {campaigns.map((c) => (
            <CampaignRow key={c.id} c={c} onEdit={() => setPanel({ kind: 'edit', campaign: c })} onArrival={() => setPanel({ kind: 'arrival', campaign: c })} />
          ))}
        </AdminTable>
      )}
    </section>
  );
}
