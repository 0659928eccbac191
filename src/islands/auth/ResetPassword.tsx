import { useEffect, useState } from 'react';
import { useStore } from '@nanostores/react';
import { $session, initSession } from '~/stores/session.ts';
import { AUTH_PASSWORD_MESSAGES, AUTH_RESET_TEXT } from '~/i18n/auth.ts';
import { flashToast } from '~/stores/toast.ts';
import NewPasswordForm from './NewPasswordForm.tsx';
import '../account/account.css';
import { Loading } from '../ui/AsyncState.tsx';

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
    return <Loading as="p" text={AUTH_RESET_TEXT.loading} />;
  }

  if (linkError || !session.user) {
    return (
      <div className="acct-auth card">
        <h1 className="acct-auth-title">{AUTH_RESET_TEXT.title}</h1>
        <p className="acct-error" role="alert">
          {AUTH_RESET_TEXT.invalidLink}
        </p>
        <a className="btn btn-primary" href="/auth">
          {AUTH_RESET_TEXT.signIn}
        </a>
      </div>
    );
  }

  return (
    <div className="acct-auth card">
      <h1 className="acct-auth-title">{AUTH_RESET_TEXT.title}</h1>
      <p className="muted">{AUTH_RESET_TEXT.prompt(session.user.email ?? '')}</p>
      <NewPasswordForm
        wide
        onSaved={() => {
          flashToast(AUTH_PASSWORD_MESSAGES.saved);
          window.location.assign('/account');
        }}
      />
    </div>
  );
}
