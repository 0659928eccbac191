/**
 * 'Lista de compra' of the back office: the buylist's price rules (the share each condition pays,
 * the default rule, the saldo bonus, the minimum, the default per-shopper limit, the days to
 * receive), the shop's receiving address the shoppers send their cards to, and the entries: search,
 * add a printing, edit what the shop wants and pays, pause, resume and remove. Row-level security
 * lets only admins write; the database checks the bounds again and records every change.
 */
import { useCallback, useEffect, useId, useRef, useState, type RefObject } from 'react';
import {
  addEntry,
  loadBuylistSettings,
  loadEditorEntries,
  removeEntry,
  saveBuylistRules,
  saveReceivingAddress,
  searchPrintings,
  setEntryActive,
  updateEntry,
  type EditorEntry,
  type PrintingChoice,
  type SaveAnswer,
} from '~/data/buylist-rules.ts';
import {
  readAddressForm,
  readEntryForm,
  readRulesForm,
  type AddressField,
  type BuylistRules,
  type EntryField,
  type EntryValues,
  type FieldProblem,
  type ReceivingAddress,
  type RulesField,
  type RulesForm,
} from '~/domain/buylist-rules.ts';
import type { FranchiseId } from '~/domain/catalog.ts';
import { centavosToPesosInput, formatCentavos } from '~/domain/money.ts';
import { pagerOf } from '~/domain/pager.ts';
import { finishesOf, finishLabel, languageLabel, languagesOf } from '~/domain/singles.ts';
import {
  ADMIN_BUYLIST_TEXT,
  BUYLIST_ADD_TEXT as ADD,
  BUYLIST_ADDRESS_TEXT as ADDRESS,
  BUYLIST_ENTRIES_TEXT as ENTRIES,
  BUYLIST_FIELD_PROBLEM_TEXT,
  BUYLIST_RULES_TEXT as RULES,
  BUYLIST_SAVE_PROBLEM_TEXT,
} from '~/i18n/buylist-editor.ts';
import { Pager } from '../ui/Pager.tsx';
import { SelectField, TextField } from '../ui/Field.tsx';
import { FormActions } from '../ui/FormActions.tsx';
import { useForm } from '../ui/use-form.ts';
import { useNote } from '../ui/useNote.ts';
import { AdminTable, type Column } from './AdminTable.tsx';
import './buylist-editor.css';

const PAGE_SIZE = 20;
const NOTE_MS = 4000;
const PERCENT = new Intl.NumberFormat('es-MX', { maximumFractionDigits: 2 });
const percentText = (value: number) => `${PERCENT.format(value)}%`;

function problemTexts<F extends string>(problems: Partial<Record<F, FieldProblem>>): Record<string, string> {
  return Object.fromEntries(Object.entries(problems).map(([field, problem]) => [field, BUYLIST_FIELD_PROBLEM_TEXT[problem as FieldProblem]]));
}

const saveProblem = (answer: SaveAnswer) => (answer.ok ? '' : BUYLIST_SAVE_PROBLEM_TEXT[answer.problem]);

interface Settings {
  rules: BuylistRules;
  address: ReceivingAddress | null;
}

export default function BuylistSection() {
  const [settings, setSettings] = useState<Settings | null | 'failed'>(null);
  useEffect(() => {
    void loadBuylistSettings().then((loaded) => setSettings(loaded ?? 'failed'));
  }, []);

  return (
    <section className="card adm-section adm-buylist" aria-labelledby="adm-buylist-title">
      <h1 id="adm-buylist-title">{ADMIN_BUYLIST_TEXT.title}</h1>
      <p className="muted">{ADMIN_BUYLIST_TEXT.intro}</p>
      {settings === null ? (
        <p role="status">{RULES.loading}</p>
      ) : settings === 'failed' ? (
        <p className="acct-error" role="alert">
          {RULES.loadFailed}
        </p>
      ) : (
        <>
          <RulesPanel rules={settings.rules} onSaved={(rules) => setSettings({ ...settings, rules })} />
          <AddressPanel address={settings.address} onSaved={(address) => setSettings({ ...settings, address })} />
          <EntriesPanel rules={settings.rules} />
        </>
      )}
    </section>
  );
}

function rulesFormOf(rules: BuylistRules): RulesForm {
  return {
    shareLp: String(rules.shares.LP),
    shareMp: String(rules.shares.MP),
    shareHp: String(rules.shares.HP),
    shareDmg: String(rules.shares.DMG),
    defaultOn: rules.defaultPercent !== null,
    defaultPercent: String(rules.defaultPercent ?? 50),
    bonus: String(rules.bonusPercent),
    minimum: centavosToPesosInput(rules.minimum),
    defaultLimit: String(rules.defaultLimit),
    reservationDays: String(rules.reservationDays),
  };
}

function RulesPanel({ rules, onSaved }: { rules: BuylistRules; onSaved: (rules: BuylistRules) => void }) {
  const id = useId();
  const [fields, setFields] = useState<RulesForm>(() => rulesFormOf(rules));
  const [note, showNote] = useNote(NOTE_MS);
  const form = useForm<BuylistRules>({
    validate: () => {
      const reading = readRulesForm(fields);
      return reading.ok ? { ok: true, data: reading.value } : { ok: false, fieldErrors: problemTexts(reading.problems), formError: '' };
    },
    send: async (next) => {
      const answer = await saveBuylistRules(next);
      if (!answer.ok) return saveProblem(answer);
      onSaved(next);
      showNote(RULES.saved);
    },
  });
  const set = (name: keyof RulesForm, value: string | boolean) => setFields((current) => ({ ...current, [name]: value }));
  const field = (name: RulesField, label: string, inputMode: 'numeric' | 'decimal' = 'decimal') => (
    <TextField
      label={label}
      name={name}
      value={fields[name]}
      inputMode={inputMode}
      autoComplete="off"
      error={form.errors[name]}
      onChange={(v) => set(name, v)}
    />
  );

  return (
    <section className="adm-subsection" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{RULES.title}</h2>
      <form className="acct-form" onSubmit={(event) => void form.onSubmit(event)} noValidate aria-label={RULES.title} aria-busy={form.busy}>
        <fieldset className="adm-buylist-fieldset">
          <legend>{RULES.sharesLegend}</legend>
          <div className="adm-buylist-grid">
            {field('shareLp', RULES.share('LP'))}
            {field('shareMp', RULES.share('MP'))}
            {field('shareHp', RULES.share('HP'))}
            {field('shareDmg', RULES.share('DMG'))}
          </div>
        </fieldset>
        <div className="adm-buylist-check">
          <input id={`${id}-default`} type="checkbox" checked={fields.defaultOn} onChange={(event) => set('defaultOn', event.target.checked)} />
          <label htmlFor={`${id}-default`}>{RULES.defaultOn}</label>
        </div>
        <div className="adm-buylist-grid">
          {fields.defaultOn && field('defaultPercent', RULES.defaultPercent)}
          {field('bonus', RULES.bonus)}
          {field('minimum', RULES.minimum)}
          {field('defaultLimit', RULES.defaultLimit, 'numeric')}
          {field('reservationDays', RULES.reservationDays, 'numeric')}
        </div>
        <FormActions className="adm-actions" error={form.formError} busy={form.busy} submitLabel={RULES.save} busyLabel={RULES.saving} />
        <p className={note ? 'acct-note acct-note-success' : undefined} role="status">
          {note}
        </p>
      </form>
    </section>
  );
}

const ADDRESS_FIELDS: ReadonlyArray<{ name: AddressField; label: string; autoComplete: string; inputMode?: 'numeric' | 'tel' }> = [
  { name: 'name', label: ADDRESS.name, autoComplete: 'organization' },
  { name: 'street', label: ADDRESS.street, autoComplete: 'address-line1' },
  { name: 'colonia', label: ADDRESS.colonia, autoComplete: 'address-level3' },
  { name: 'zip', label: ADDRESS.zip, autoComplete: 'postal-code', inputMode: 'numeric' },
  { name: 'municipio', label: ADDRESS.municipio, autoComplete: 'address-level2' },
  { name: 'state', label: ADDRESS.state, autoComplete: 'address-level1' },
  { name: 'phone', label: ADDRESS.phone, autoComplete: 'tel', inputMode: 'tel' },
  { name: 'hours', label: ADDRESS.hours, autoComplete: 'off' },
];

function addressFormOf(address: ReceivingAddress | null): Record<AddressField, string> {
  return Object.fromEntries(ADDRESS_FIELDS.map(({ name }) => [name, address?.[name] ?? ''])) as Record<AddressField, string>;
}

function AddressPanel({ address, onSaved }: { address: ReceivingAddress | null; onSaved: (address: ReceivingAddress | null) => void }) {
  const id = useId();
  const [fields, setFields] = useState(() => addressFormOf(address));
  const [note, showNote] = useNote(NOTE_MS);
  const form = useForm<ReceivingAddress | null>({
    validate: () => {
      const reading = readAddressForm(fields);
      return reading.ok ? { ok: true, data: reading.value } : { ok: false, fieldErrors: problemTexts(reading.problems), formError: '' };
    },
    send: async (next) => {
      const answer = await saveReceivingAddress(next);
      if (!answer.ok) return saveProblem(answer);
      onSaved(next);
      setFields(addressFormOf(next));
      showNote(ADDRESS.saved);
    },
  });

  return (
    <section className="adm-subsection" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{ADDRESS.title}</h2>
      <p className="muted">{ADDRESS.intro}</p>
      {!address && <p className="acct-note">{ADDRESS.unpublished}</p>}
      <form className="acct-form" onSubmit={(event) => void form.onSubmit(event)} noValidate aria-label={ADDRESS.title} aria-busy={form.busy}>
        <div className="adm-buylist-grid adm-buylist-grid-wide">
          {ADDRESS_FIELDS.map(({ name, label, autoComplete, inputMode }) => (
            <TextField
              key={name}
              label={label}
              name={name}
              value={fields[name]}
              autoComplete={autoComplete}
              inputMode={inputMode}
              error={form.errors[name]}
              onChange={(v) => setFields((current) => ({ ...current, [name]: v }))}
            />
          ))}
        </div>
        <FormActions className="adm-actions" error={form.formError} busy={form.busy} submitLabel={ADDRESS.save} busyLabel={ADDRESS.saving} />
        <p className={note ? 'acct-note acct-note-success' : undefined} role="status">
          {note}
        </p>
      </form>
    </section>
  );
}

const COLUMNS: Column[] = [
  { label: ENTRIES.columns.card },
  { label: ENTRIES.columns.number },
  { label: ENTRIES.columns.language },
  { label: ENTRIES.columns.finish },
  { label: ENTRIES.columns.wanted, num: true },
  { label: ENTRIES.columns.reserved, num: true },
  { label: ENTRIES.columns.bought, num: true },
  { label: ENTRIES.columns.price, num: true },
  { label: ENTRIES.columns.limit, num: true },
  { label: ENTRIES.columns.active },
  { label: ENTRIES.columns.actions, hidden: true },
];

function priceText(entry: EditorEntry, rules: BuylistRules): string {
  if (entry.nmPrice !== null) return formatCentavos(entry.nmPrice);
  if (rules.defaultPercent === null) return ENTRIES.ruleOff;
  const today = entry.effectiveNmPrice === null ? ENTRIES.ruleNone : ENTRIES.ruleToday(formatCentavos(entry.effectiveNmPrice));
  return `${ENTRIES.rule(percentText(rules.defaultPercent))} (${today})`;
}

function EntriesPanel({ rules }: { rules: BuylistRules }) {
  const id = useId();
  const [search, setSearch] = useState('');
  const [query, setQuery] = useState('');
  const [page, setPage] = useState(1);
  const [list, setList] = useState<{ entries: EditorEntry[]; total: number } | null | 'failed'>(null);
  const [editing, setEditing] = useState<EditorEntry | null>(null);
  const [confirming, setConfirming] = useState<string | null>(null);
  const [adding, setAdding] = useState(false);
  const [busy, setBusy] = useState(false);
  const [note, showNote] = useNote(NOTE_MS);
  const [error, setError] = useState('');
  const editHeading = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    const timer = setTimeout(() => {
      setQuery(search.trim());
      setPage(1);
    }, 250);
    return () => clearTimeout(timer);
  }, [search]);

  const load = useCallback(async () => {
    const loaded = await loadEditorEntries(query, PAGE_SIZE, (page - 1) * PAGE_SIZE);
    setList(loaded ?? 'failed');
  }, [query, page]);
  useEffect(() => {
    void load();
  }, [load]);
  useEffect(() => {
    if (editing) editHeading.current?.focus();
  }, [editing]);

  async function run(step: () => Promise<SaveAnswer>, done: string) {
    setBusy(true);
    setError('');
    const answer = await step();
    setBusy(false);
    if (!answer.ok) {
      setError(saveProblem(answer));
      return false;
    }
    showNote(done);
    await load();
    return true;
  }

  const pager = pagerOf(list && list !== 'failed' ? list.total : 0, page, PAGE_SIZE);

  return (
    <section className="adm-subsection" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{ENTRIES.title}</h2>
      <div className="adm-filters">
        <TextField label={ENTRIES.search} value={search} onChange={setSearch} type="search" autoComplete="off" />
        <div>
          <button type="button" className="btn btn-outline" aria-expanded={adding} onClick={() => setAdding(!adding)}>
            {ADD.open}
          </button>
        </div>
      </div>
      {adding && (
        <AddEntryForm
          onCancel={() => setAdding(false)}
          onAdded={async (name) => {
            setAdding(false);
            showNote(ADD.added(name));
            await load();
          }}
        />
      )}
      <p className={note ? 'acct-note acct-note-success' : undefined} role="status">
        {note}
      </p>
      {error && (
        <p className="acct-error" role="alert">
          {error}
        </p>
      )}
      {list === null ? (
        <p role="status">{ENTRIES.loading}</p>
      ) : list === 'failed' ? (
        <p className="acct-error" role="alert">
          {ENTRIES.loadFailed}
        </p>
      ) : list.entries.length === 0 ? (
        <p>{query ? ENTRIES.empty : ENTRIES.emptyAll}</p>
      ) : (
        <>
          <p className="muted">{ENTRIES.count(list.total)}</p>
          <EntriesTable entries={list.entries} rules={rules} actions={{ busy, confirming, setConfirming, onEdit: setEditing, run }} />
          <Pager label={ENTRIES.pagesLabel} pager={pager} onPage={setPage} className="adm-pager" live />
        </>
      )}
      {editing && (
        <EditEntryForm
          key={editing.id}
          entry={editing}
          headingRef={editHeading}
          onCancel={() => setEditing(null)}
          onSave={async (values) => {
            const saved = await run(() => updateEntry(editing.id, values), ENTRIES.saved);
            if (saved) setEditing(null);
            return saved;
          }}
        />
      )}
    </section>
  );
}

interface RowActions {
  busy: boolean;
  confirming: string | null;
  setConfirming: (id: string | null) => void;
  onEdit: (entry: EditorEntry) => void;
  run: (step: () => Promise<SaveAnswer>, done: string) => Promise<boolean>;
}

function EntriesTable({ entries, rules, actions }: { entries: EditorEntry[]; rules: BuylistRules; actions: RowActions }) {
  const { busy, confirming, setConfirming, onEdit, run } = actions;
  return (
    <AdminTable label={ENTRIES.tableLabel} columns={COLUMNS}>
      {entries.map((entry) => (
        <tr key={entry.id} data-entry-id={entry.id}>
          <td data-label={ENTRIES.columns.card}>{entry.name}</td>
          <td data-label={ENTRIES.columns.number}>{[entry.expansion, entry.collectorNumber].filter(Boolean).join(' · ')}</td>
          <td data-label={ENTRIES.columns.language}>{entry.language ? languageLabel(entry.language) : ENTRIES.any}</td>
          <td data-label={ENTRIES.columns.finish}>{entry.finish ? finishLabel(entry.finish) : ENTRIES.any}</td>
          <td data-label={ENTRIES.columns.wanted} className="num">
            {entry.wanted}
          </td>
          <td data-label={ENTRIES.columns.reserved} className="num">
            {entry.reserved}
          </td>
          <td data-label={ENTRIES.columns.bought} className="num">
            {entry.bought}
          </td>
          <td data-label={ENTRIES.columns.price} className="num">
            {priceText(entry, rules)}
          </td>
          <td data-label={ENTRIES.columns.limit} className="num">
            {entry.limitPerShopper ?? ENTRIES.limitDefault(rules.defaultLimit)}
          </td>
          <td data-label={ENTRIES.columns.active}>
            <span className={entry.active ? 'badge badge-success' : 'badge'}>{entry.active ? ENTRIES.active : ENTRIES.paused}</span>
          </td>
          <td data-label={ENTRIES.columns.actions}>
            {confirming === entry.id ? (
              <div className="adm-buylist-row-actions">
                <span>{ENTRIES.confirmRemove(entry.name)}</span>
                <button
                  type="button"
                  className="btn btn-outline"
                  disabled={busy}
                  onClick={() => void run(() => removeEntry(entry.id), ENTRIES.removedDone(entry.name)).then(() => setConfirming(null))}
                >
                  {ENTRIES.confirmRemoveYes}
                </button>
                <button type="button" className="btn btn-outline" onClick={() => setConfirming(null)}>
                  {ENTRIES.confirmRemoveNo}
                </button>
              </div>
            ) : (
              <div className="adm-buylist-row-actions">
                <button type="button" className="btn btn-outline" aria-label={ENTRIES.editOf(entry.name)} onClick={() => onEdit(entry)}>
                  {ENTRIES.edit}
                </button>
                <button
                  type="button"
                  className="btn btn-outline"
                  disabled={busy}
                  aria-label={entry.active ? ENTRIES.pauseOf(entry.name) : ENTRIES.resumeOf(entry.name)}
                  onClick={() =>
                    void run(() => setEntryActive(entry.id, !entry.active), entry.active ? ENTRIES.pausedDone(entry.name) : ENTRIES.resumedDone(entry.name))
                  }
                >
                  {entry.active ? ENTRIES.pause : ENTRIES.resume}
                </button>
                <button type="button" className="btn btn-outline" aria-label={ENTRIES.removeOf(entry.name)} onClick={() => setConfirming(entry.id)}>
                  {ENTRIES.remove}
                </button>
              </div>
            )}
          </td>
        </tr>
      ))}
    </AdminTable>
  );
}

type EntryFields = Record<EntryField, string>;

function EntryFieldsBlock({
  fields,
  errors,
  onChange,
}: {
  fields: EntryFields;
  errors: Record<string, string>;
  onChange: (name: EntryField, value: string) => void;
}) {
  return (
    <div className="adm-buylist-grid">
      <TextField
        label={ENTRIES.wanted}
        name="wanted"
        value={fields.wanted}
        inputMode="numeric"
        autoComplete="off"
        error={errors.wanted}
        onChange={(v) => onChange('wanted', v)}
      />
      <TextField
        label={ENTRIES.nmPrice}
        name="nmPrice"
        value={fields.nmPrice}
        inputMode="decimal"
        autoComplete="off"
        error={errors.nmPrice}
        onChange={(v) => onChange('nmPrice', v)}
      />
      <TextField
        label={ENTRIES.limit}
        name="limitPerShopper"
        value={fields.limitPerShopper}
        inputMode="numeric"
        autoComplete="off"
        error={errors.limitPerShopper}
        onChange={(v) => onChange('limitPerShopper', v)}
      />
    </div>
  );
}

function EditEntryForm({
  entry,
  headingRef,
  onCancel,
  onSave,
}: {
  entry: EditorEntry;
  headingRef: RefObject<HTMLHeadingElement | null>;
  onCancel: () => void;
  onSave: (values: EntryValues) => Promise<boolean>;
}) {
  const id = useId();
  const [fields, setFields] = useState<EntryFields>({
    wanted: String(entry.wanted),
    nmPrice: entry.nmPrice === null ? '' : centavosToPesosInput(entry.nmPrice),
    limitPerShopper: entry.limitPerShopper === null ? '' : String(entry.limitPerShopper),
  });
  const form = useForm({
    validate: () => {
      const reading = readEntryForm(fields);
      return reading.ok ? { ok: true, data: reading.value } : { ok: false, fieldErrors: problemTexts(reading.problems), formError: '' };
    },
    send: async (values) => {
      await onSave(values);
    },
  });
  return (
    <section className="adm-box" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`} ref={headingRef} tabIndex={-1}>
        {ENTRIES.editTitle(entry.name)}
      </h3>
      <form className="acct-form" onSubmit={(event) => void form.onSubmit(event)} noValidate aria-label={ENTRIES.editTitle(entry.name)} aria-busy={form.busy}>
        <EntryFieldsBlock fields={fields} errors={form.errors} onChange={(name, value) => setFields((current) => ({ ...current, [name]: value }))} />
        <FormActions
          className="adm-actions"
          error={form.formError}
          busy={form.busy}
          submitLabel={ENTRIES.save}
          busyLabel={ENTRIES.saving}
          onCancel={onCancel}
        />
      </form>
    </section>
  );
}

function AddEntryForm({ onCancel, onAdded }: { onCancel: () => void; onAdded: (name: string) => Promise<void> }) {
  const id = useId();
  const [search, setSearch] = useState('');
  const [found, setFound] = useState<PrintingChoice[] | null | 'failed' | 'searching'>(null);
  const [picked, setPicked] = useState<PrintingChoice | null>(null);
  const [language, setLanguage] = useState('');
  const [finish, setFinish] = useState('');
  const [fields, setFields] = useState<EntryFields>({ wanted: '4', nmPrice: '', limitPerShopper: '' });

  useEffect(() => {
    const term = search.trim();
    if (term.replace(/[^\p{L}\p{N}]/gu, '').length < 2) {
      setFound(null);
      return;
    }
    setFound('searching');
    let current = true;
    const timer = setTimeout(() => {
      void searchPrintings(term).then((rows) => {
        if (current) setFound(rows ?? 'failed');
      });
    }, 250);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [search]);

  const form = useForm({
    validate: () => {
      const reading = readEntryForm(fields);
      if (!picked) return { ok: false, fieldErrors: reading.ok ? {} : problemTexts(reading.problems), formError: ADD.pickFirst };
      return reading.ok ? { ok: true, data: reading.value } : { ok: false, fieldErrors: problemTexts(reading.problems), formError: '' };
    },
    send: async (values) => {
      if (!picked) return ADD.pickFirst;
      const answer = await addEntry(picked.productId, language || null, finish || null, values);
      if (!answer.ok) return saveProblem(answer);
      await onAdded(picked.name);
    },
  });

  const franchise = picked?.franchiseId as FranchiseId | undefined;
  const languages = franchise ? languagesOf(franchise) : [];
  const finishes = franchise ? finishesOf(franchise) : [];

  return (
    <section className="adm-box" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>{ADD.title}</h3>
      <form className="acct-form" onSubmit={(event) => void form.onSubmit(event)} noValidate aria-label={ADD.title} aria-busy={form.busy}>
        {picked ? (
          <p className="adm-buylist-picked">
            <strong>{ADD.picked(ADD.choice(picked.name, picked.collectorNumber))}</strong>{' '}
            <button type="button" className="btn btn-outline" onClick={() => setPicked(null)}>
              {ADD.change}
            </button>
          </p>
        ) : (
          <>
            <TextField label={ADD.search} value={search} onChange={setSearch} type="search" autoComplete="off" />
            {found === 'searching' ? (
              <p role="status">{ADD.searching}</p>
            ) : found === 'failed' ? (
              <p className="acct-error" role="alert">
                {ADD.searchFailed}
              </p>
            ) : found === null ? (
              <p className="muted">{ADD.typeMore}</p>
            ) : found.length === 0 ? (
              <p role="status">{ADD.none}</p>
            ) : (
              <ul className="adm-buylist-choices" aria-label={ADD.resultsLabel}>
                {found.map((choice) => (
                  <li key={choice.productId}>
                    <span>{ADD.choice(choice.name, [choice.expansion, choice.collectorNumber].filter(Boolean).join(' · '))}</span>
                    <button
                      type="button"
                      className="btn btn-outline"
                      aria-label={ADD.pickOf(choice.name)}
                      onClick={() => {
                        setPicked(choice);
                        setLanguage('');
                        setFinish('');
                      }}
                    >
                      {ADD.pick}
                    </button>
                  </li>
                ))}
              </ul>
            )}
          </>
        )}
        {picked && (
          <div className="adm-buylist-grid">
            <SelectField label={ADD.language} value={language} options={[{ code: '', label: ADD.anyLanguage }, ...languages]} onChange={setLanguage} />
            <SelectField label={ADD.finish} value={finish} options={[{ code: '', label: ADD.anyFinish }, ...finishes]} onChange={setFinish} />
          </div>
        )}
        <EntryFieldsBlock fields={fields} errors={form.errors} onChange={(name, value) => setFields((current) => ({ ...current, [name]: value }))} />
        <FormActions className="adm-actions" error={form.formError} busy={form.busy} submitLabel={ADD.add} busyLabel={ADD.adding} onCancel={onCancel} />
      </form>
    </section>
  );
}
