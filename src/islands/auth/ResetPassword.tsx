import { useEffect, useState, type FormEvent } from 'react';
import { useStore } from '@nanostores/react';
import { $session, changePassword, initSession, PASSWORD_MESSAGES } from '../../stores/session.ts';
import { flashToast } from '../../stores/toast.ts';
import PasswordField from './PasswordField.tsx';
import '../account/account.css';

export const RESET_MESSAGES = {
  invalidLink: 'El enlace de recuperación no es válido o ya expiró. Solicita uno nuevo.',
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
    setBusy(true);
    const failure = await changePassword(password, confirm);
    setBusy(false);
    if (failure) return setError(failure);
    flashToast(PASSWORD_MESSAGES.saved);
    window.location.assign('/account');
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
