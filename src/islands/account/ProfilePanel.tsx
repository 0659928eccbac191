import { useEffect, useState } from 'react';
import { useStore } from '@nanostores/react';
import type { User } from '@supabase/supabase-js';
import { DEFAULT_COUNTRY } from '~/domain/validation/address.ts';
import { $mainAddress, $summary, profileForm, reloadMainAddress, reloadSummary, saveProfile, startProfile, type ProfileForm } from '~/stores/account.ts';
import type { SessionProfile } from '~/stores/session.ts';
import { ACCOUNT_MAIN_ADDRESS_TEXT, ACCOUNT_PROFILE_MESSAGES, ACCOUNT_PROFILE_TEXT, ACCOUNT_SUMMARY_TEXT } from '~/i18n/account.ts';
import { resendConfirmation, signOut } from '~/stores/auth.ts';
import { reloadStoreCredit, startStoreCredit } from '~/stores/store-credit.ts';
import { notify } from '~/stores/toast.ts';
import NewPasswordForm from '../auth/NewPasswordForm.tsx';
import { CountrySelect, TextField } from '../ui/Field.tsx';
import { AsyncState } from '../ui/AsyncState.tsx';
import { FormActions } from '../ui/FormActions.tsx';
import { describeAddress } from '../ui/AddressForm.tsx';
import { useNote } from '../ui/useNote.ts';
import { useForm } from '../ui/use-form.ts';
import SavedCards from './SavedCards.tsx';
import StoreCreditSection, { StoreCreditSummary } from './StoreCreditSection.tsx';
import PointsRedeem from './PointsRedeem.tsx';
import { useLiveRows } from './useLive.ts';
import type { AccountTab } from './tabs.ts';

/** How long the "saved" note stays, and how long other status notes stay. */
export const SAVE_NOTE_MS = 2400;
export const STATUS_NOTE_MS = 1800;

interface Props {
  user: User;
  profile: SessionProfile;
  onOpenTab: (tab: AccountTab) => void;
}

/**
 * "Mi perfil": data, quick summary (with the balance, 'saldo a favor'), the balance's movements,
 * main address, saved cards, edit, password and logout.
 */
export default function ProfilePanel({ user, profile, onOpenTab }: Props) {
  const [editing, setEditing] = useState(false);
  const [savedNote, showSavedNote] = useNote(SAVE_NOTE_MS);

  useEffect(() => {
    startProfile(user.id);
    startStoreCredit(user.id);
  }, [user.id]);
  useLiveRows('orders', user.id, () => void reloadSummary(user.id));
  useLiveRows('rewards', user.id, () => void reloadSummary(user.id));
  useLiveRows('store_credit_entries', user.id, () => void reloadStoreCredit(user.id));
  useLiveRows('addresses', user.id, () => void reloadMainAddress(user.id));

  return (
    <>
      <h2>{ACCOUNT_PROFILE_TEXT.title}</h2>
      {savedNote && (
        <p className="acct-note acct-note-success" role="status">
          {savedNote}
        </p>
      )}
      {editing ? (
        <ProfileEditForm
          profile={profile}
          onDone={(saved) => {
            setEditing(false);
            if (saved) showSavedNote(ACCOUNT_PROFILE_MESSAGES.saved);
          }}
        />
      ) : (
        <ProfileDetails user={user} profile={profile} onEdit={() => setEditing(true)} />
      )}
      <SummarySection />
      <PointsRedeem userId={user.id} />
      <StoreCreditSection userId={user.id} />
      <MainAddressSection onManage={() => onOpenTab('addresses')} />
      <SavedCards customerId={profile.stripe_customer_id} />
    </>
  );
}

/** The profile as read, the verification e-mail, and the edit / password / logout actions. */
function ProfileDetails({ user, profile, onEdit }: { user: User; profile: SessionProfile; onEdit: () => void }) {
  const [resendNote, showResendNote] = useNote(STATUS_NOTE_MS);
  const [changingPassword, setChangingPassword] = useState(false);
  const confirmed = Boolean(user.email_confirmed_at);
  const joined = new Date(profile.created_at);

  async function resend() {
    showResendNote((await resendConfirmation(user.email ?? '')) ? ACCOUNT_PROFILE_MESSAGES.resent : ACCOUNT_PROFILE_MESSAGES.resendFailed);
  }

  return (
    <>
      <dl className="acct-dl">
        <dt>{ACCOUNT_PROFILE_TEXT.username}</dt>
        <dd>{profile.username || '—'}</dd>
        <dt>{ACCOUNT_PROFILE_TEXT.name}</dt>
        <dd>{profile.name?.trim() || ACCOUNT_PROFILE_TEXT.noName}</dd>
        <dt>{ACCOUNT_PROFILE_TEXT.lastname}</dt>
        <dd>{profile.lastname?.trim() || ACCOUNT_PROFILE_TEXT.noLastname}</dd>
        <dt>{ACCOUNT_PROFILE_TEXT.phone}</dt>
        <dd>{profile.phone || '—'}</dd>
        <dt>{ACCOUNT_PROFILE_TEXT.email}</dt>
        <dd>
          {user.email}{' '}
          {confirmed ? (
            <span className="badge badge-success">{ACCOUNT_PROFILE_TEXT.verified}</span>
          ) : (
            <button type="button" className="acct-link" onClick={() => void resend()}>
              {ACCOUNT_PROFILE_TEXT.resend}
            </button>
          )}
        </dd>
        {!Number.isNaN(joined.getTime()) && (
          <>
            <dt>{ACCOUNT_PROFILE_TEXT.memberSince}</dt>
            <dd>{joined.toLocaleDateString('es-MX', { dateStyle: 'long' })}</dd>
          </>
        )}
      </dl>
      {resendNote && (
        <p className="acct-note acct-note-info" role="status">
          {resendNote}
        </p>
      )}
      <div className="acct-actions">
        <button type="button" className="btn btn-primary" onClick={onEdit}>
          {ACCOUNT_PROFILE_TEXT.edit}
        </button>
        <button type="button" className="btn btn-outline" aria-expanded={changingPassword} onClick={() => setChangingPassword((v) => !v)}>
          {ACCOUNT_PROFILE_TEXT.changePassword}
        </button>
        <button type="button" className="btn btn-outline" onClick={() => void signOut()}>
          {ACCOUNT_PROFILE_TEXT.signOut}
        </button>
      </div>
      {changingPassword && (
        <NewPasswordForm
          className="acct-form"
          label={ACCOUNT_PROFILE_TEXT.changePassword}
          onSaved={() => {
            setChangingPassword(false);
            notify(ACCOUNT_PROFILE_MESSAGES.passwordSaved, 'success');
          }}
        />
      )}
    </>
  );
}

/** 'Editar datos': the profile and the main address, saved together (stores/account.ts saveProfile). */
function ProfileEditForm({ profile, onDone }: { profile: SessionProfile; onDone: (saved: boolean) => void }) {
  const address = useStore($mainAddress).value;
  const [form, setForm] = useState<ProfileForm>(() => profileForm(profile, address));
  const {
    errors: fieldErrors,
    formError,
    busy: saving,
    onSubmit,
  } = useForm({
    send: async () => {
      const result = await saveProfile(profile, form);
      if (result.ok) return onDone(true);
      return { fieldErrors: result.fieldErrors, formError: result.formError };
    },
  });

  const field = (name: keyof ProfileForm, label: string, autoComplete: string, type?: string) => (
    <TextField
      label={label}
      name={name}
      type={type}
      value={form[name]}
      onChange={(v) => setForm((f) => ({ ...f, [name]: v }))}
      error={fieldErrors[name]}
      autoComplete={autoComplete}
      inputMode={name === 'zip' ? 'numeric' : undefined}
      autoCapitalize={name === 'username' ? 'none' : undefined}
      maxLength={name === 'zip' ? 5 : undefined}
    />
  );

  return (
    <form className="acct-form" onSubmit={onSubmit} noValidate aria-label={ACCOUNT_PROFILE_TEXT.edit} aria-busy={saving}>
      {field('username', ACCOUNT_PROFILE_TEXT.usernameField, 'username')}
      <div className="acct-row">
        {field('name', ACCOUNT_PROFILE_TEXT.name, 'given-name')}
        {field('lastname', ACCOUNT_PROFILE_TEXT.lastname, 'family-name')}
      </div>
      {field('phone', ACCOUNT_PROFILE_TEXT.phone, 'tel', 'tel')}
      <fieldset className="acct-form">
        <legend>{ACCOUNT_PROFILE_TEXT.mainAddress}</legend>
        {field('street', ACCOUNT_PROFILE_TEXT.street, 'street-address')}
        <div className="acct-row">
          {field('city', ACCOUNT_PROFILE_TEXT.city, 'address-level2')}
          {field('state', ACCOUNT_PROFILE_TEXT.state, 'address-level1')}
        </div>
        <div className="acct-row">
          {field('zip', ACCOUNT_PROFILE_TEXT.zip, 'postal-code')}
          <CountrySelect value={form.country || DEFAULT_COUNTRY} onChange={(v) => setForm((f) => ({ ...f, country: v }))} />
        </div>
      </fieldset>
      <FormActions
        error={formError}
        busy={saving}
        submitLabel={ACCOUNT_PROFILE_TEXT.save}
        busyLabel={ACCOUNT_PROFILE_TEXT.saving}
        onCancel={() => onDone(false)}
      />
    </form>
  );
}

/** 'Resumen': orders, reward points, coupons, orders of the last 30 days and the balance. */
function SummarySection() {
  const state = useStore($summary);
  return (
    <section className="acct-section" aria-labelledby="acct-summary-title">
      <h3 id="acct-summary-title">{ACCOUNT_SUMMARY_TEXT.title}</h3>
      <AsyncState
        state={state}
        loading={<p role="status">{ACCOUNT_SUMMARY_TEXT.loading}</p>}
        fallback={<p className="muted">{ACCOUNT_SUMMARY_TEXT.unavailable}</p>}
      >
        {(summary) => (
          <dl className="acct-stats" data-testid="account-summary">
            <div>
              <dt>{ACCOUNT_SUMMARY_TEXT.orders}</dt>
              <dd data-testid="summary-orders">{summary.orders}</dd>
            </div>
            <div>
              <dt>{ACCOUNT_SUMMARY_TEXT.points}</dt>
              <dd data-testid="summary-points">{summary.points.toLocaleString('es-MX')}</dd>
            </div>
            <div>
              <dt>{ACCOUNT_SUMMARY_TEXT.coupons}</dt>
              <dd data-testid="summary-coupons">{summary.coupons}</dd>
            </div>
            <div>
              <dt>{ACCOUNT_SUMMARY_TEXT.recentOrders}</dt>
              <dd data-testid="summary-recent">{summary.ordersLast30Days}</dd>
            </div>
          </dl>
        )}
      </AsyncState>
      <StoreCreditSummary />
    </section>
  );
}

/** 'Dirección principal' and the way to the address book. */
function MainAddressSection({ onManage }: { onManage: () => void }) {
  const state = useStore($mainAddress);
  return (
    <section className="acct-section" aria-labelledby="acct-address-title">
      <h3 id="acct-address-title">{ACCOUNT_MAIN_ADDRESS_TEXT.title}</h3>
      <AsyncState state={state} loading={<p role="status">{ACCOUNT_MAIN_ADDRESS_TEXT.loading}</p>} fallback={<p>{ACCOUNT_MAIN_ADDRESS_TEXT.none}</p>}>
        {(address) =>
          address ? (
            <address data-testid="main-address">
              {address.label && (
                <>
                  <strong>{address.label}</strong>
                  <br />
                </>
              )}
              {describeAddress(address)}
            </address>
          ) : (
            <p>{ACCOUNT_MAIN_ADDRESS_TEXT.none}</p>
          )
        }
      </AsyncState>
      <div className="acct-actions">
        <button type="button" className="btn btn-outline" onClick={onManage}>
          {ACCOUNT_MAIN_ADDRESS_TEXT.manage}
        </button>
      </div>
    </section>
  );
}
