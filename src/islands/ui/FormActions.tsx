/** The end of a form: its error line, then the submit button and, when given, 'Cancelar'. */
import { CATALOG_FORM_ACTIONS_TEXT } from '~/i18n/catalog.ts';

interface Props {
  error: string;
  busy: boolean;
  submitLabel: string;
  /** The submit button's text while busy (default: the same label). */
  busyLabel?: string;
  onCancel?: () => void;
  /** 'acct-actions' in the account, 'adm-actions' in the back office. */
  className?: string;
}

/** The error of a form, said at once to screen readers. */
export function FormError({ message }: { message: string }) {
  if (!message) return null;
  return (
    <p className="acct-error" role="alert">
      {message}
    </p>
  );
}

/** The error line and the buttons of the account's and back office's forms. */
export function FormActions({ error, busy, submitLabel, busyLabel, onCancel, className = 'acct-actions' }: Props) {
  return (
    <>
      <FormError message={error} />
      <div className={className}>
        <button type="submit" className="btn btn-primary" disabled={busy}>
          {busy && busyLabel ? busyLabel : submitLabel}
        </button>
        {onCancel && (
          <button type="button" className="btn btn-outline" onClick={onCancel} disabled={busy}>
            {CATALOG_FORM_ACTIONS_TEXT.cancel}
          </button>
        )}
      </div>
    </>
  );
}
