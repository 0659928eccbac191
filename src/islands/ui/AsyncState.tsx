/**
 * What a panel shows for something read from the backend: the loading note while it is read,
 * the failure (with 'Reintentar' when a retry is offered) when the first read failed, else the
 * content.
 */
import type { ReactNode } from 'react';
import type { Loadable } from '~/stores/account.ts';
import { COMMON_TEXT } from '~/i18n/common.ts';

interface Props<T> {
  state: Loadable<T>;
  /** The loading note, e.g. 'Cargando direcciones…'. */
  loading: ReactNode;
  /** The failure text; without it a failed read shows `fallback`. */
  failed?: string;
  /** Shown when the read failed and there is no failure text (or no value yet). */
  fallback?: ReactNode;
  onRetry?: () => void;
  children: (value: T) => ReactNode;
}

/** Loading, failed or ready: the one way the account panels draw a read. */
export function AsyncState<T>({ state, loading, failed, fallback = null, onRetry, children }: Props<T>) {
  if (state.value !== null) return <>{children(state.value)}</>;
  if (state.loading) return <>{loading}</>;
  if (!failed) return <>{fallback}</>;
  return (
    <div className="acct-actions">
      <p className="acct-error" role="alert">
        {failed}
      </p>
      {onRetry && (
        <button type="button" className="btn btn-outline" onClick={onRetry}>
          {COMMON_TEXT.retry}
        </button>
      )}
    </div>
  );
}

/** The spinner and its note while something loads ('Cargando direcciones…'). */
export function Loading({ text, as: Tag = 'div' }: { text: string; as?: 'div' | 'p' }) {
  return (
    <Tag className="acct-loading" role="status">
      <span className="acct-spinner" aria-hidden="true" /> {text}
    </Tag>
  );
}
