/**
 * The cancel page's button (/avisos/cancelar?t=…): POSTs the token to /api/avisos/cancelar and
 * says what happened. The page itself only shows the alert; nothing is cancelled until the button
 * is pressed.
 */
import { useState } from 'react';
import { ALERT_CANCEL_PAGE_TEXT as TEXT } from '~/i18n/alerts.ts';

type State = 'idle' | 'busy' | 'done' | 'already' | 'unknown' | 'failed';

export default function CancelAlert({ token }: { token: string }) {
  const [state, setState] = useState<State>('idle');

  const cancel = async () => {
    setState('busy');
    try {
      const response = await fetch('/api/avisos/cancelar', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ token }),
      });
      if (response.status === 404) return setState('unknown');
      if (!response.ok) return setState('failed');
      const body = (await response.json()) as { status?: string };
      setState(body.status === 'cancelled' ? 'done' : 'already');
    } catch {
      setState('failed');
    }
  };

  if (state === 'done' || state === 'already' || state === 'unknown') {
    return (
      <p className="alert-cancel-result" role="status">
        {state === 'done' ? TEXT.done : state === 'already' ? TEXT.already : TEXT.unknown}
      </p>
    );
  }
  return (
    <>
      <button type="button" className="btn btn-primary" disabled={state === 'busy'} onClick={() => void cancel()}>
        {state === 'busy' ? TEXT.cancelling : TEXT.confirm}
      </button>
      {state === 'failed' && (
        <p className="field-error" role="alert">
          {TEXT.failed}
        </p>
      )}
    </>
  );
}
