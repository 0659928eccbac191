import { useCallback, useEffect, useId, useRef, useState, type FormEvent } from 'react';
import type { User } from '@supabase/supabase-js';
import { getSupabase } from '../../data/supabase.ts';
import { isUsernameConflict, isUsernameTaken, updateProfile } from '../../data/profiles.ts';
import { getDefaultAddress, saveMainAddress, type Address } from '../../data/addresses.ts';
import { loadSummary, type AccountSummary } from '../../data/account.ts';
import { COUNTRIES, DEFAULT_COUNTRY, MESSAGES, PASSWORD_MIN_LENGTH, profileChanged, validateProfile } from '../../domain/validation.ts';
import { signOut, setProfile, type SessionProfile } from '../../stores/session.ts';
import PasswordField from '../auth/PasswordField.tsx';
import SavedCards from './SavedCards.tsx';
import { useLiveRows } from './useLive.ts';
import { showToast } from './toast.ts';
import type { AccountTab } from './AccountApp.tsx';

/** How long the "saved" note stays, and how long other status notes stay. */
export const SAVE_NOTE_MS = 2400;
export const STATUS_NOTE_MS = 1800;

export const PROFILE_MESSAGES = {
  saveFailed: '❌ Error al guardar. Intenta de nuevo.',
  saved: '✅ Datos guardados',
  resent: 'Correo de verificación reenviado',
  resendFailed: 'No se pudo reenviar el correo.',
  passwordSaved: 'Contraseña actualizada',
  passwordFailed: 'No se pudo actualizar la contraseña.',
  passwordMismatch: 'Las contraseñas no coinciden.',
} as const;

type EditForm = Record<'username' | 'name' | 'lastname' | 'phone' | 'street' | 'city' | 'state' | 'zip' | 'country', string>;

function formFrom(profile: SessionProfile, address: Address | null): EditForm {
  return {
    username: profile.username ?? '',
    name: profile.name ?? '',
    lastname: profile.lastname ?? '',
    phone: profile.phone ?? '',
    street: address?.street ?? '',
    city: address?.city ?? '',
    state: address?.state ?? '',
    zip: address?.zip ?? '',
    country: address?.country ?? '',
  };
}

function Field(props: { label: string; name: keyof EditForm; form: EditForm; set: (k: keyof EditForm, v: string) => void; error?: string; type?: string; autoComplete?: string }) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{props.label}</label>
      <input
        id={id}
        name={props.name}
        className="input"
        type={props.type ?? 'text'}
        autoComplete={props.autoComplete}
        value={props.form[props.name]}
        aria-invalid={props.error ? true : undefined}
        onChange={(event) => props.set(props.name, event.target.value)}
      />
      {props.error && <p className="field-error">{props.error}</p>}
    </div>
  );
}

/** Temporary note that clears itself after `ms`. */
function useNote(ms: number): [string, (text: string) => void] {
  const [note, setNote] = useState('');
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const show = useCallback(
    (text: string) => {
      clearTimeout(timer.current);
      setNote(text);
      if (text) timer.current = setTimeout(() => setNote(''), ms);
    },
    [ms],
  );
  return [note, show];
}

interface Props {
  user: User;
  profile: SessionProfile;
  onOpenTab: (tab: AccountTab) => void;
}

/** "Mi perfil": data, quick summary, main address, saved cards, edit, password and logout. */
export default function ProfilePanel({ user, profile, onOpenTab }: Props) {
  const [summary, setSummary] = useState<AccountSummary | null>(null);
  const [summaryLoading, setSummaryLoading] = useState(true);
  const [address, setAddress] = useState<Address | null>(null);
  const [addressLoading, setAddressLoading] = useState(true);
  const [editing, setEditing] = useState(false);
  const [form, setForm] = useState<EditForm>(() => formFrom(profile, null));
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState('');
  const [saving, setSaving] = useState(false);
  const [savedNote, showSavedNote] = useNote(SAVE_NOTE_MS);
  const [resendNote, showResendNote] = useNote(STATUS_NOTE_MS);
  const [changingPassword, setChangingPassword] = useState(false);
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [passwordError, setPasswordError] = useState('');

  const fetchSummary = useCallback(async () => {
    try {
      setSummary(await loadSummary(user.id));
    } catch (error) {
      console.error('No se pudo cargar el resumen de la cuenta', error);
    } finally {
      setSummaryLoading(false);
    }
  }, [user.id]);

  const fetchAddress = useCallback(async () => {
    const result = await getDefaultAddress(user.id);
    if (result.error) console.error('No se pudo cargar la dirección principal', result.error);
    else setAddress(result.data);
    setAddressLoading(false);
  }, [user.id]);

  useEffect(() => {
    void fetchSummary();
    void fetchAddress();
  }, [fetchSummary, fetchAddress]);
  useLiveRows('orders', user.id, () => void fetchSummary());
  useLiveRows('rewards', user.id, () => void fetchSummary());
  useLiveRows('addresses', user.id, () => void fetchAddress());

  const set = (key: keyof EditForm, value: string) => setForm((f) => ({ ...f, [key]: value }));

  function startEdit() {
    setForm(formFrom(profile, address));
    setFieldErrors({});
    setFormError('');
    setEditing(true);
  }

  function cancelEdit() {
    setForm(formFrom(profile, address));
    setFieldErrors({});
    setFormError('');
    setEditing(false);
  }

  async function onSave(event: FormEvent) {
    event.preventDefault();
    setFieldErrors({});
    setFormError('');
    const parsed = validateProfile(form);
    if (!parsed.ok) {
      setFieldErrors(parsed.fieldErrors);
      setFormError(parsed.formError);
      return;
    }
    const stored = { username: profile.username, name: profile.name, lastname: profile.lastname, phone: profile.phone, address };
    if (!profileChanged(stored, parsed.data)) {
      setFormError(MESSAGES.noChanges);
      return;
    }
    setSaving(true);
    try {
      const wanted = parsed.data.username;
      if ((profile.username ?? '').toLowerCase() !== wanted.toLowerCase() && (await isUsernameTaken(wanted, user.id))) {
        setFieldErrors({ username: MESSAGES.profileUsernameTaken });
        setFormError(MESSAGES.profileUsernameTaken);
        return;
      }
      // All or nothing: the form already checked everything the database checks; should the
      // address still fail, the profile goes back to what it was, so nothing is half saved.
      // Database messages are English and technical: the shopper reads the Spanish one.
      const previous = { username: profile.username, name: profile.name, lastname: profile.lastname, phone: profile.phone };
      const saved = await updateProfile(user.id, parsed.data);
      if (saved.error) {
        if (isUsernameConflict(saved.error)) {
          setFieldErrors({ username: MESSAGES.profileUsernameTaken });
          setFormError(MESSAGES.profileUsernameTaken);
        } else {
          console.warn('profile save failed', saved.error.message);
          setFormError(PROFILE_MESSAGES.saveFailed);
        }
        return;
      }
      if (parsed.data.address) {
        const addressResult = await saveMainAddress(user.id, parsed.data.address);
        if (addressResult.error) {
          console.warn('address save failed', addressResult.error.message);
          await updateProfile(user.id, previous).catch(() => undefined);
          setFormError(PROFILE_MESSAGES.saveFailed);
          return;
        }
        setAddress(addressResult.data);
      }
      setProfile(saved.data);
      setEditing(false);
      showSavedNote(PROFILE_MESSAGES.saved);
    } catch (error) {
      console.warn('profile save failed', error);
      setFormError(PROFILE_MESSAGES.saveFailed);
    } finally {
      setSaving(false);
    }
  }

  async function resendVerification() {
    try {
      const { error } = await getSupabase().auth.resend({
        type: 'signup',
        email: user.email ?? '',
        options: { emailRedirectTo: window.location.origin },
      });
      showResendNote(error ? PROFILE_MESSAGES.resendFailed : PROFILE_MESSAGES.resent);
    } catch {
      showResendNote(PROFILE_MESSAGES.resendFailed);
    }
  }

  async function onChangePassword(event: FormEvent) {
    event.preventDefault();
    setPasswordError('');
    if (password.length < PASSWORD_MIN_LENGTH) return setPasswordError(MESSAGES.passwordTooShort);
    if (password !== confirm) return setPasswordError(PROFILE_MESSAGES.passwordMismatch);
    const { error } = await getSupabase().auth.updateUser({ password });
    if (error) return setPasswordError(PROFILE_MESSAGES.passwordFailed);
    setChangingPassword(false);
    setPassword('');
    setConfirm('');
    showToast(PROFILE_MESSAGES.passwordSaved, 'success');
  }

  const confirmed = Boolean(user.email_confirmed_at);
  const joined = new Date(profile.created_at);

  return (
    <>
      <h2>Mi perfil</h2>
      {savedNote && (
        <p className="acct-note acct-note-success" role="status">
          {savedNote}
        </p>
      )}
      {!editing ? (
        <>
          <dl className="acct-dl">
            <dt>Usuario</dt>
            <dd>{profile.username || '—'}</dd>
            <dt>Nombre</dt>
            <dd>{profile.name?.trim() || 'Sin nombre'}</dd>
            <dt>Apellido</dt>
            <dd>{profile.lastname?.trim() || 'Sin apellido'}</dd>
            <dt>Teléfono</dt>
            <dd>{profile.phone || '—'}</dd>
            <dt>Correo</dt>
            <dd>
              {user.email}{' '}
              {confirmed ? (
                <span className="badge badge-success">Verificado</span>
              ) : (
                <button type="button" className="acct-link" onClick={() => void resendVerification()}>
                  Reenviar correo de verificación
                </button>
              )}
            </dd>
            {!Number.isNaN(joined.getTime()) && (
              <>
                <dt>Miembro desde</dt>
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
            <button type="button" className="btn btn-primary" onClick={startEdit}>
              Editar datos
            </button>
            <button type="button" className="btn btn-outline" aria-expanded={changingPassword} onClick={() => setChangingPassword((v) => !v)}>
              Cambiar contraseña
            </button>
            <button type="button" className="btn btn-outline" onClick={() => void signOut()}>
              Cerrar sesión
            </button>
          </div>
          {changingPassword && (
            <form className="acct-form" onSubmit={onChangePassword} noValidate aria-label="Cambiar contraseña">
              <PasswordField label="Nueva contraseña" value={password} onChange={setPassword} autoComplete="new-password" meter />
              <PasswordField label="Confirma la contraseña" name="confirm" value={confirm} onChange={setConfirm} autoComplete="new-password" />
              {passwordError && (
                <p className="acct-error" role="alert">
                  {passwordError}
                </p>
              )}
              <div className="acct-actions">
                <button type="submit" className="btn btn-primary">
                  Guardar contraseña
                </button>
              </div>
            </form>
          )}
        </>
      ) : (
        <form className="acct-form" onSubmit={onSave} noValidate aria-label="Editar datos" aria-busy={saving}>
          <Field label="Username" name="username" form={form} set={set} error={fieldErrors.username} autoComplete="username" />
          <div className="acct-row">
            <Field label="Nombre" name="name" form={form} set={set} error={fieldErrors.name} autoComplete="given-name" />
            <Field label="Apellido" name="lastname" form={form} set={set} error={fieldErrors.lastname} autoComplete="family-name" />
          </div>
          <Field label="Teléfono" name="phone" type="tel" form={form} set={set} error={fieldErrors.phone} autoComplete="tel" />
          <fieldset className="acct-form">
            <legend>Dirección principal</legend>
            <Field label="Calle" name="street" form={form} set={set} error={fieldErrors.street} autoComplete="street-address" />
            <div className="acct-row">
              <Field label="Ciudad" name="city" form={form} set={set} error={fieldErrors.city} autoComplete="address-level2" />
              <Field label="Estado" name="state" form={form} set={set} error={fieldErrors.state} autoComplete="address-level1" />
            </div>
            <div className="acct-row">
              <Field label="Código Postal" name="zip" form={form} set={set} error={fieldErrors.zip} autoComplete="postal-code" />
              <CountrySelect value={form.country || DEFAULT_COUNTRY} onChange={(v) => set('country', v)} />
            </div>
          </fieldset>
          {formError && (
            <p className="acct-error" role="alert">
              {formError}
            </p>
          )}
          <div className="acct-actions">
            <button type="submit" className="btn btn-primary" disabled={saving}>
              {saving ? 'Guardando…' : 'Guardar'}
            </button>
            <button type="button" className="btn btn-outline" onClick={cancelEdit} disabled={saving}>
              Cancelar
            </button>
          </div>
        </form>
      )}

      <section className="acct-section" aria-labelledby="acct-summary-title">
        <h3 id="acct-summary-title">Resumen</h3>
        {summaryLoading ? (
          <p role="status">Cargando resumen…</p>
        ) : summary ? (
          <dl className="acct-stats" data-testid="account-summary">
            <div>
              <dt>Pedidos</dt>
              <dd data-testid="summary-orders">{summary.orders}</dd>
            </div>
            <div>
              <dt>Puntos de recompensa</dt>
              <dd data-testid="summary-points">{summary.points.toLocaleString('es-MX')}</dd>
            </div>
            <div>
              <dt>Cupones</dt>
              <dd data-testid="summary-coupons">{summary.coupons}</dd>
            </div>
            <div>
              <dt>Pedidos en los últimos 30 días</dt>
              <dd data-testid="summary-recent">{summary.ordersLast30Days}</dd>
            </div>
          </dl>
        ) : (
          <p className="muted">El resumen no está disponible por ahora.</p>
        )}
      </section>

      <section className="acct-section" aria-labelledby="acct-address-title">
        <h3 id="acct-address-title">Dirección principal</h3>
        {addressLoading ? (
          <p role="status">Cargando dirección…</p>
        ) : address ? (
          <address data-testid="main-address">
            {address.label && (
              <>
                <strong>{address.label}</strong>
                <br />
              </>
            )}
            {address.street}, {address.city}, {address.state} {address.zip}, {address.country}
          </address>
        ) : (
          <p>No has registrado dirección.</p>
        )}
        <div className="acct-actions">
          <button type="button" className="btn btn-outline" onClick={() => onOpenTab('addresses')}>
            Gestionar direcciones
          </button>
        </div>
      </section>

      <SavedCards customerId={profile.stripe_customer_id} />
    </>
  );
}

/** Country picker of the address forms. */
export function CountrySelect({ value, onChange }: { value: string; onChange: (value: string) => void }) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>País</label>
      <select id={id} name="country" className="input" value={value} onChange={(event) => onChange(event.target.value)}>
        {COUNTRIES.map((country) => (
          <option key={country} value={country}>
            {country}
          </option>
        ))}
      </select>
    </div>
  );
}
