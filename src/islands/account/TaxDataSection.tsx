/**
 * Datos de facturación (in 'Mi perfil'): the shopper's RFC, razón social, régimen fiscal (the
 * régimenes of a persona física or moral, told by the RFC typed), código postal fiscal, uso del
 * CFDI (the usos the régimen may use, G03 by default) and the e-mail invoices go to (the account's
 * by default). Checked here with the RFC library and SAT's catalogues, and again by the database.
 */
import { useEffect, useState } from 'react';
import { checkRfc } from '~/data/rfc.ts';
import { deleteTaxProfile, loadTaxProfile, saveTaxProfile, type SavedTaxProfile } from '~/data/tax-profile.ts';
import {
  DEFAULT_CFDI_USE,
  cfdiUseAfterRegime,
  cfdiUseOptions,
  checkTaxProfile,
  fieldOfTaxProfileRefusal,
  personKindOf,
  regimesFor,
  type TaxProfileInput,
} from '~/domain/sat-catalogs.ts';
import { TAX_DATA_REFUSALS, TAX_DATA_TEXT as TEXT } from '~/i18n/tax-data.ts';
import type { Loadable } from '~/stores/account.ts';
import { notify } from '~/stores/toast.ts';
import { SelectField, TextField } from '../ui/Field.tsx';
import { AsyncState, Loading } from '../ui/AsyncState.tsx';
import { FormActions } from '../ui/FormActions.tsx';
import { useForm } from '../ui/use-form.ts';

interface Props {
  userId: string;
  /** The account's e-mail: where invoices go until the shopper names another. */
  accountEmail: string;
}

function blankForm(accountEmail: string): TaxProfileInput {
  return { rfc: '', legalName: '', taxRegime: '', taxZip: '', cfdiUse: DEFAULT_CFDI_USE, invoiceEmail: accountEmail };
}

export default function TaxDataSection({ userId, accountEmail }: Props) {
  const [state, setState] = useState<Loadable<TaxProfileInput>>({ loading: true, failed: false, value: null });
  const [saved, setSaved] = useState(false);

  const read = async () => {
    setState({ loading: true, failed: false, value: null });
    const result = await loadTaxProfile(userId).catch((error: unknown) => ({ data: null, error }));
    if (result.error) setState({ loading: false, failed: true, value: null });
    else {
      setSaved(result.data !== null);
      setState({ loading: false, failed: false, value: result.data ?? blankForm(accountEmail) });
    }
  };
  useEffect(() => {
    void read();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- read again only for another shopper
  }, [userId]);

  return (
    <section className="acct-section" aria-labelledby="acct-tax-title" data-testid="tax-data">
      <h3 id="acct-tax-title">{TEXT.title}</h3>
      <p className="muted">{TEXT.intro}</p>
      <AsyncState state={state} loading={<Loading text={TEXT.loading} />} failed={TEXT.loadFailed} onRetry={() => void read()}>
        {(value) => (
          <TaxDataForm
            key={JSON.stringify(value)}
            initial={value}
            saved={saved}
            onSaved={(stored) => {
              setSaved(stored !== null);
              setState({ loading: false, failed: false, value: stored ?? blankForm(accountEmail) });
            }}
            userId={userId}
          />
        )}
      </AsyncState>
    </section>
  );
}

interface FormProps {
  initial: TaxProfileInput;
  saved: boolean;
  userId: string;
  onSaved: (stored: SavedTaxProfile | null) => void;
}

function TaxDataForm({ initial, saved, userId, onSaved }: FormProps) {
  const [form, setForm] = useState<TaxProfileInput>(initial);
  const kind = checkRfc(form.rfc).ok ? personKindOf(form.rfc) : null;
  const regimes = regimesFor(kind);
  const { errors, formError, busy, onSubmit } = useForm({
    validate: () => {
      const result = checkTaxProfile(form, checkRfc(form.rfc));
      return result.ok
        ? { ok: true as const, data: result.values }
        : { ok: false as const, fieldErrors: result.errors as Record<string, string>, formError: '' };
    },
    send: async (values) => {
      const result = await saveTaxProfile(values).catch((error: unknown) => ({ data: null, error: error as Error }));
      if (result.error) {
        const field = fieldOfTaxProfileRefusal(result.error.message);
        return field ? { formError: TEXT.saveFailed, fieldErrors: { [field]: TAX_DATA_REFUSALS[field] } } : TEXT.saveFailed;
      }
      notify(TEXT.saved, 'success');
      onSaved(result.data);
      return undefined;
    },
  });

  const set = (name: keyof TaxProfileInput) => (value: string) => setForm((current) => ({ ...current, [name]: value }));
  const setRfc = (value: string) =>
    setForm((current) => {
      const nextKind = checkRfc(value).ok ? personKindOf(value) : null;
      const keepRegime = regimesFor(nextKind).some((regime) => regime.code === current.taxRegime);
      return { ...current, rfc: value, taxRegime: keepRegime ? current.taxRegime : '' };
    });
  const setRegime = (value: string) => setForm((current) => ({ ...current, taxRegime: value, cfdiUse: cfdiUseAfterRegime(value, current.cfdiUse) }));

  const remove = async () => {
    const result = await deleteTaxProfile(userId).catch((error: unknown) => ({ data: null, error }));
    if (result.error) notify(TEXT.removeFailed, 'error');
    else {
      notify(TEXT.removed, 'success');
      onSaved(null);
    }
  };

  return (
    <form className="acct-form" onSubmit={onSubmit} noValidate aria-label={TEXT.title} aria-busy={busy}>
      <TextField
        label={TEXT.rfc}
        name="rfc"
        value={form.rfc}
        onChange={setRfc}
        error={errors.rfc}
        autoCapitalize="characters"
        maxLength={15}
        autoComplete="off"
      />
      <p className="muted" data-testid="tax-person-kind">
        {kind === 'fisica' ? TEXT.personaFisica : kind === 'moral' ? TEXT.personaMoral : TEXT.rfcHint}
      </p>
      <TextField
        label={TEXT.legalName}
        name="legalName"
        value={form.legalName}
        onChange={set('legalName')}
        error={errors.legalName}
        autoComplete="organization"
      />
      <p className="muted">{TEXT.legalNameHint}</p>
      <SelectField
        label={TEXT.taxRegime}
        name="taxRegime"
        value={form.taxRegime}
        options={[
          { code: '', label: kind ? TEXT.chooseRegime : TEXT.typeRfcFirst },
          ...regimes.map((r) => ({ code: r.code, label: TEXT.option(r.code, r.name) })),
        ]}
        onChange={setRegime}
        error={errors.taxRegime}
      />
      <div className="acct-row">
        <TextField
          label={TEXT.taxZip}
          name="taxZip"
          value={form.taxZip}
          onChange={set('taxZip')}
          error={errors.taxZip}
          inputMode="numeric"
          maxLength={5}
          autoComplete="postal-code"
        />
        <SelectField
          label={TEXT.cfdiUse}
          name="cfdiUse"
          value={form.cfdiUse}
          options={cfdiUseOptions(form.taxRegime).map((use) => ({ code: use.code, label: TEXT.option(use.code, use.name) }))}
          onChange={set('cfdiUse')}
          error={errors.cfdiUse}
        />
      </div>
      <TextField
        label={TEXT.invoiceEmail}
        name="invoiceEmail"
        type="email"
        value={form.invoiceEmail}
        onChange={set('invoiceEmail')}
        error={errors.invoiceEmail}
        inputMode="email"
        autoCapitalize="none"
        autoComplete="email"
      />
      <FormActions error={formError} busy={busy} submitLabel={TEXT.save} busyLabel={TEXT.saving} />
      {saved && (
        <div className="acct-actions">
          <button type="button" className="btn btn-outline" onClick={() => void remove()} disabled={busy}>
            {TEXT.remove}
          </button>
        </div>
      )}
    </form>
  );
}
