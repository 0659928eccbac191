import { useState } from 'react';
import { changePassword } from '~/stores/auth.ts';
import { AUTH_NEW_PASSWORD_TEXT } from '~/i18n/auth.ts';
import PasswordField from './PasswordField.tsx';
import { FormError } from '../ui/FormActions.tsx';
import { useForm } from '../ui/use-form.ts';

interface Props {
  /** The form's name ('Cambiar contraseña' in the account). */
  label?: string;
  /** Full-width button (the recovery page). */
  wide?: boolean;
  className?: string;
  onSaved: () => void;
}

/** A new password twice, saved for the signed-in user (the account, and the recovery link's page). */
export default function NewPasswordForm({ label, wide = false, className, onSaved }: Props) {
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const {
    formError: error,
    busy,
    onSubmit,
  } = useForm({
    send: async () => {
      const failure = await changePassword(password, confirm);
      if (failure) return failure;
      onSaved();
    },
  });

  const button = (
    <button type="submit" className={`btn btn-primary${wide ? ' acct-wide' : ''}`} disabled={busy}>
      {AUTH_NEW_PASSWORD_TEXT.save}
    </button>
  );
  return (
    <form className={className} onSubmit={onSubmit} noValidate aria-label={label} aria-busy={busy}>
      <PasswordField label={AUTH_NEW_PASSWORD_TEXT.password} value={password} onChange={setPassword} autoComplete="new-password" meter />
      <PasswordField label={AUTH_NEW_PASSWORD_TEXT.confirm} name="confirm" value={confirm} onChange={setConfirm} autoComplete="new-password" />
      <FormError message={error} />
      {wide ? button : <div className="acct-actions">{button}</div>}
    </form>
  );
}
