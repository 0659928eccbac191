import { useEffect, useState } from 'react';
import { useStore } from '@nanostores/react';
import { $session, initSession } from '~/stores/session.ts';
import { PASSWORD_MESSAGES } from '~/stores/auth.ts';
import { flashToast } from '~/stores/toast.ts';
import NewPasswordForm from './NewPasswordForm.tsx';
import '../account/account.css';
import { Loading } from '../ui/AsyncState.tsx';

export const RESET_MESSAGES = {
  invalidLink: 'El enlace de recuperación no es válido o ya expiró. Solicita uno nuevo.',
} as const;

/** Where the recovery e-mail's link lands: the link signs the user in, here they pick a new password. */
export default function ResetPassword() {
  const session = useStore($session);
  const [linkError, setLinkError] = useState(false);

  useEffect(() => {
    // The auth server reports an expired or used link in the URL fragment.
    if (/error_code=|error=/.test(window.location.hash)) setLinkError(true);
    initSession();
  }, []);

  if (session.loading && !linkError) {
    return <Loading as="p" text="Cargando…" />;
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
      <NewPasswordForm
        wide
        onSaved={() => {
          flashToast(PASSWORD_MESSAGES.saved);
          window.location.assign('/account');
        }}
      />
    </div>
  );
}
