import { useEffect, useId, useRef, type ReactNode } from 'react';

/** A modal confirmation (native <dialog>: focus kept inside, Escape closes, focus returns). */
export default function ConfirmDialog({
  open,
  title,
  children,
  confirmLabel,
  cancelLabel = 'No, volver',
  busy = false,
  onConfirm,
  onClose,
}: {
  open: boolean;
  title: string;
  children: ReactNode;
  confirmLabel: string;
  cancelLabel?: string;
  busy?: boolean;
  onConfirm: () => void;
  onClose: () => void;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const id = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);
  return (
    <dialog ref={ref} className="adm-dialog" aria-labelledby={`${id}-title`} onClose={onClose} onCancel={(e) => busy && e.preventDefault()}>
      <h2 id={`${id}-title`}>{title}</h2>
      {children}
      <div className="adm-actions">
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
