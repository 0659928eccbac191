import { useEffect, useMemo, useState } from 'react';
import { formatOrderDate } from '~/domain/orders.ts';
import { downloadSubscribersCsv, loadSubscribers, type Subscriber } from '~/data/admin.ts';
import { ADMIN_NEWSLETTER_TEXT } from '~/i18n/admin.ts';

const PAGE = 50;

/** 'Boletín': the subscribers with their date, a count, a search and the CSV export. */
export default function NewsletterSection() {
  const [list, setList] = useState<Subscriber[] | null>(null);
  const [failed, setFailed] = useState(false);
  const [search, setSearch] = useState('');
  const [shown, setShown] = useState(PAGE);
  const [exportError, setExportError] = useState('');

  useEffect(() => {
    void loadSubscribers().then((subscribers) => {
      if (subscribers) setList(subscribers);
      else setFailed(true);
    });
  }, []);

  const matches = useMemo(() => {
    const needle = search.trim().toLowerCase();
    return (list ?? []).filter((s) => needle === '' || s.email.includes(needle));
  }, [list, search]);

  async function exportCsv() {
    setExportError('');
    try {
      const blob = await downloadSubscribersCsv();
      const url = URL.createObjectURL(blob);
      const link = document.createElement('a');
      link.href = url;
      link.download = `boletin-${new Date().toISOString().slice(0, 10)}.csv`;
      document.body.append(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
    } catch {
      setExportError(ADMIN_NEWSLETTER_TEXT.exportFailed);
    }
  }

  return (
    <section aria-labelledby="adm-news-title">
      <h1 id="adm-news-title">{ADMIN_NEWSLETTER_TEXT.title}</h1>
      {failed ? (
        <p className="acct-error" role="alert">
          {ADMIN_NEWSLETTER_TEXT.loadFailed}
        </p>
      ) : !list ? (
        <p role="status">{ADMIN_NEWSLETTER_TEXT.loading}</p>
      ) : (
        <>
          <p data-testid="newsletter-count">
            <strong>{list.length}</strong> {ADMIN_NEWSLETTER_TEXT.subscribers(list.length)}
          </p>
          <div className="adm-filters">
            <div className="field">
              <label htmlFor="adm-news-search">{ADMIN_NEWSLETTER_TEXT.search}</label>
              <input
                id="adm-news-search"
                className="input"
                type="search"
                inputMode="email"
                enterKeyHint="search"
                value={search}
                onChange={(e) => {
                  setSearch(e.target.value);
                  setShown(PAGE);
                }}
              />
            </div>
            <div className="adm-actions">
              <button type="button" className="btn btn-primary" onClick={() => void exportCsv()}>
                {ADMIN_NEWSLETTER_TEXT.exportCsv}
              </button>
            </div>
          </div>
          {exportError && (
            <p className="acct-error" role="alert">
              {exportError}
            </p>
          )}
          {matches.length === 0 ? (
            <p role="status">{list.length === 0 ? ADMIN_NEWSLETTER_TEXT.none : ADMIN_NEWSLETTER_TEXT.noMatch}</p>
          ) : (
            <>
              <p className="muted" role="status">
                {matches.length === list.length
                  ? ADMIN_NEWSLETTER_TEXT.showing(Math.min(shown, matches.length), matches.length)
                  : ADMIN_NEWSLETTER_TEXT.matching(matches.length)}
              </p>
              <div className="acct-table-wrap" tabIndex={0} role="region" aria-label={ADMIN_NEWSLETTER_TEXT.listLabel}>
                <table className="acct-table adm-table">
                  <thead>
                    <tr>
                      <th scope="col">{ADMIN_NEWSLETTER_TEXT.email}</th>
                      <th scope="col">{ADMIN_NEWSLETTER_TEXT.subscribedAt}</th>
                    </tr>
                  </thead>
                  <tbody>
                    {matches.slice(0, shown).map((s) => (
                      <tr key={s.email} data-testid="subscriber-row">
                        <td>{s.email}</td>
                        <td>{formatOrderDate(s.created_at)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
              {matches.length > shown && (
                <div className="adm-actions">
                  <button type="button" className="btn btn-outline" onClick={() => setShown((n) => n + PAGE)}>
                    {ADMIN_NEWSLETTER_TEXT.showMore}
                  </button>
                </div>
              )}
            </>
          )}
        </>
      )}
    </section>
  );
}
