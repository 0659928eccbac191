import { useCallback, useEffect, useState } from 'react';
import { loadRebuildStatus, startRebuild, type RebuildStatus } from '~/data/admin.ts';
import { ADMIN_CATALOG_TEXT } from '~/i18n/admin.ts';

/** GET /api/admin/rebuild as it answers; progress fields appear only when the server reports them. */

const STATUS_LABELS: Record<string, string> = {
  idle: ADMIN_CATALOG_TEXT.statusIdle,
  building: ADMIN_CATALOG_TEXT.statusBuilding,
  queued: ADMIN_CATALOG_TEXT.statusQueued,
  failed: ADMIN_CATALOG_TEXT.statusFailed,
  succeeded: ADMIN_CATALOG_TEXT.statusIdle,
};

const dateTime = new Intl.DateTimeFormat('es-MX', { dateStyle: 'medium', timeStyle: 'medium', timeZone: 'America/Mexico_City' });
const when = (value: unknown) => (typeof value === 'string' && !Number.isNaN(Date.parse(value)) ? dateTime.format(new Date(value)) : '-');

function seconds(ms: unknown): string {
  return typeof ms === 'number' && Number.isFinite(ms) ? `${(ms / 1000).toLocaleString('es-MX', { maximumFractionDigits: 1 })} s` : '-';
}

/** What the progress bar shows: pages done of a total, when the status has them. */
const PHASES: Record<string, string> = {
  starting: ADMIN_CATALOG_TEXT.phaseStarting,
  content: ADMIN_CATALOG_TEXT.phaseContent,
  bundling: ADMIN_CATALOG_TEXT.phaseBundling,
  pages: ADMIN_CATALOG_TEXT.phasePages,
  publishing: ADMIN_CATALOG_TEXT.phasePublishing,
};

function progressOf(status: RebuildStatus): { done: number; total: number | null; phase: string | null } | null {
  const p = status.progress;
  if (typeof p === 'number') return { done: p, total: 100, phase: null };
  const done = (p && typeof p === 'object' ? (p.pagesWritten ?? p.done) : undefined) ?? status.pagesWritten ?? null;
  if (typeof done !== 'number') return null;
  const total = p && typeof p === 'object' ? (p.pagesExpected ?? p.pagesTotal ?? p.total ?? null) : null;
  const phase = p && typeof p === 'object' && p.phase ? (PHASES[p.phase] ?? p.phase) : null;
  return { done, total: typeof total === 'number' && total > 0 ? total : null, phase };
}

/** 'Catálogo': the rebuild status, the last successful build and 'Reconstruir ahora'. */
export default function CatalogSection() {
  const [status, setStatus] = useState<RebuildStatus | null>(null);
  const [error, setError] = useState('');
  const [notice, setNotice] = useState('');
  const [busy, setBusy] = useState(false);
  const [lastSuccess, setLastSuccess] = useState<string | null>(null);

  const load = useCallback(async () => {
    const answer = await loadRebuildStatus();
    if (answer.ok && answer.data) {
      setStatus(answer.data);
      setError('');
      const success =
        (typeof answer.data.lastSuccessAt === 'string' && answer.data.lastSuccessAt) ||
        (typeof answer.data.lastSuccess === 'string' && answer.data.lastSuccess) ||
        (!answer.data.lastError && typeof answer.data.finishedAt === 'string' ? answer.data.finishedAt : null);
      if (success) setLastSuccess(success);
    } else {
      setError(answer.message || ADMIN_CATALOG_TEXT.loadFailed);
    }
  }, []);

  const running = status?.status === 'building' || status?.status === 'queued';
  useEffect(() => {
    void load();
  }, [load]);
  useEffect(() => {
    const timer = setInterval(() => void load(), running ? 2000 : 10_000);
    return () => clearInterval(timer);
  }, [load, running]);

  async function rebuild() {
    setBusy(true);
    setNotice('');
    const answer = await startRebuild();
    setBusy(false);
    if (answer.ok) setNotice(ADMIN_CATALOG_TEXT.started);
    else setError(answer.message || ADMIN_CATALOG_TEXT.startFailed);
    await load();
  }

  const progress = status ? progressOf(status) : null;

  return (
    <section aria-labelledby="adm-catalog-title">
      <h1 id="adm-catalog-title">{ADMIN_CATALOG_TEXT.title}</h1>
      <p>{ADMIN_CATALOG_TEXT.intro}</p>
      {error && (
        <p className="acct-error" role="alert">
          {error}
        </p>
      )}
      {!status && !error ? (
        <p role="status">{ADMIN_CATALOG_TEXT.loading}</p>
      ) : status ? (
        <dl className="adm-dl" data-testid="rebuild-status">
          <dt>{ADMIN_CATALOG_TEXT.status}</dt>
          <dd>{STATUS_LABELS[status.status ?? ''] ?? status.status ?? '-'}</dd>
          <dt>{ADMIN_CATALOG_TEXT.start}</dt>
          <dd>{when(status.startedAt)}</dd>
          <dt>{ADMIN_CATALOG_TEXT.end}</dt>
          <dd>{when(status.finishedAt)}</dd>
          <dt>{ADMIN_CATALOG_TEXT.duration}</dt>
          <dd>{seconds(status.durationMs)}</dd>
          <dt>{ADMIN_CATALOG_TEXT.lastSuccess}</dt>
          <dd>{when(lastSuccess)}</dd>
          {typeof status.lastPages === 'number' && (
            <>
              <dt>{ADMIN_CATALOG_TEXT.lastPages}</dt>
              <dd>{status.lastPages.toLocaleString('es-MX')}</dd>
            </>
          )}
          <dt>{ADMIN_CATALOG_TEXT.lastError}</dt>
          <dd>{status.lastError ? String(status.lastError) : ADMIN_CATALOG_TEXT.noError}</dd>
          {progress && (
            <>
              <dt>{ADMIN_CATALOG_TEXT.pagesWritten}</dt>
              <dd>
                {progress.total ? (
                  <progress
                    className="adm-progress"
                    max={progress.total}
                    value={Math.min(progress.done, progress.total)}
                    aria-label={ADMIN_CATALOG_TEXT.pagesWritten}
                  >
                    {ADMIN_CATALOG_TEXT.pagesOf(progress.done, progress.total)}
                  </progress>
                ) : null}
                <span>
                  {progress.total ? ADMIN_CATALOG_TEXT.pagesOf(progress.done, progress.total) : progress.done}
                  {progress.phase ? ` (${progress.phase})` : ''}
                </span>
              </dd>
            </>
          )}
        </dl>
      ) : null}
      {notice && (
        <p className="acct-note acct-note-success" role="status">
          {notice}
        </p>
      )}
      <div className="adm-actions">
        <button type="button" className="btn btn-primary" disabled={busy || running} onClick={() => void rebuild()}>
          {ADMIN_CATALOG_TEXT.rebuildNow}
        </button>
      </div>
    </section>
  );
}
