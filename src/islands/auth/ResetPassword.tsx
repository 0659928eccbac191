import { useEffect, useState, type FormEvent } from 'react';
import { useStore } from '@nanostores/react';
import { getSupabase } from '../../data/supabase.ts';
import { PASSWORD_MIN_LENGTH, MESSAGES } from '../../domain/validation.ts';
import { $session, initSession } from '../../stores/session.ts';
import { flashToast } from '../account/toast.ts';
import PasswordField from './PasswordField.tsx';
import '../account/account.css';

export const RESET_MESSAGES = {
  invalidLink: 'El enlace de recuperación no es válido o ya expiró. Solicita uno nuevo.',
  mismatch: 'Las contraseñas no coinciden.',
  failed: 'No se pudo actualizar la contraseña.',
  done: 'Contraseña actualizada',
} as const;

/** Where the recovery e-mail's link lands: the link signs the user in, here they pick a new password. */
export default function ResetPassword() {
  const session = useStore($session);
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const [linkError, setLinkError] = useState(false);

  useEffect(() => {
    // The auth server reports an expired or used link in the URL fragment.
    if (/error_code=|error=/.test(window.location.hash)) setLinkError(true);
    initSession();
  }, []);

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    setError('');
    if (password.length < PASSWORD_MIN_LENGTH) return setError(MESSAGES.passwordTooShort);
    if (password !== confirm) return setError(RESET_MESSAGES.mismatch);
    setBusy(true);
    try {
      const { error: updateError } = await getSupabase().auth.updateUser({ password });
      if (updateError) {
        setError(RESET_MESSAGES.failed);
        return;
      }
      flashToast(RESET_MESSAGES.done);
      window.location.assign('/account');
    } catch {
      setError(RESET_MESSAGES.failed);
    } finally {
      setBusy(false);
    }
  }

  if (session.loading && !linkError) {
    return (
      <p className="acct-loading" role="status">
        <span className="acct-spinner" aria-hidden="true" /> Cargando…
      </p>
    );
  }

  if (linkError || !session.user) {
    return (
      <div className="acct-auth card">
        <h1 className="acct-auth-title">Nueva contraseña</h1>
        <p className="acct-error" role="alert">
          {RESET_MESSAGES.invalidLink}
        </p>
        <a className="btn btn-primary" href="/auth">
          Iniciar sesión
        </a>
      </div>
    );
  }

  return (
    <div className="acct-auth card">
      <h1 className="acct-auth-title">Nueva contraseña</h1>
      <p className="muted">Escribe la nueva contraseña de {session.user.email}.</p>
      <form onSubmit={onSubmit} noValidate aria-busy={busy}>
        <PasswordField label="Nueva contraseña" value={password} onChange={setPassword} autoComplete="new-password" meter />
        <PasswordField label="Confirma la contraseña" name="confirm" value={confirm} onChange={setConfirm} autoComplete="new-password" />
        {error && (
          <p className="acct-error" role="alert">
            {error}
          </p>
        )}
        <button type="submit" className="btn btn-primary acct-wide" disabled={busy}>
          Guardar contraseña
        </button>
      </form>
    </div>
  );
}
