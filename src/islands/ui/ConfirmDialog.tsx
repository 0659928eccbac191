import { useEffect, useId, useRef, type ReactNode } from 'react';
import { CATALOG_CONFIRM_DIALOG_TEXT } from '~/i18n/catalog.ts';

/** The look of the account's dialogs and the back office's. */
const LOOKS = {
  account: { dialog: 'acct-dialog', actions: 'acct-actions', Heading: 'h3' },
  admin: { dialog: 'adm-dialog', actions: 'adm-actions', Heading: 'h2' },
} as const;

/** A modal confirmation (native <dialog>: focus kept inside, Escape closes, focus returns). */
export default function ConfirmDialog({
  open,
  title,
  children,
  confirmLabel,
  cancelLabel = CATALOG_CONFIRM_DIALOG_TEXT.cancel,
  busy = false,
  look = 'admin',
  onConfirm,
  onClose,
}: {
  open: boolean;
  title: string;
  children: ReactNode;
  confirmLabel: string;
  cancelLabel?: string;
  busy?: boolean;
  look?: keyof typeof LOOKS;
  onConfirm: () => void;
  onClose: () => void;
}) {
  const { dialog: dialogClass, actions, Heading } = LOOKS[look];
  const ref = useRef<HTMLDialogElement>(null);
  const id = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);
  return (
    <dialog ref={ref} className={dialogClass} aria-labelledby={`${id}-title`} onClose={onClose} onCancel={(e) => busy && e.preventDefault()}>
      <Heading id={`${id}-title`}>{title}</Heading>
      {children}
      <div className={actions}>
        <button type="button" className="btn btn-primary" disabled={busy} onClick={onConfirm}>
          {confirmLabel}
        </button>
        <button type="button" className="btn btn-outline" disabled={busy} onClick={onClose}>
          {cancelLabel}
        </button>
      </div>
    </dialog>
  );
}
