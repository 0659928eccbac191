/** The back office's 'Copiar dirección': the order's address as one block of lines, for a shipping label. */
import { useState } from 'react';
import { ADMIN_ORDER_ADDRESS_TEXT as TEXT } from '~/i18n/addresses.ts';

/** Copies `text` to the clipboard and says so (or that it could not, so it is copied by hand). */
export function CopyAddressButton({ text }: { text: string }) {
  const [outcome, setOutcome] = useState<'copied' | 'failed' | null>(null);

  async function copy() {
    try {
      await navigator.clipboard.writeText(text);
      setOutcome('copied');
    } catch {
      setOutcome('failed');
    }
  }

  return (
    <>
      <button type="button" className="btn btn-outline btn-sm" onClick={() => void copy()}>
        {TEXT.copy}
      </button>
      <span role="status" className="muted">
        {outcome === 'copied' ? TEXT.copied : outcome === 'failed' ? TEXT.copyFailed : ''}
      </span>
    </>
  );
}
