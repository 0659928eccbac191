import { useEffect, useMemo, useState } from 'react';
import { formatOrderDate } from '~/domain/orders.ts';
import { downloadSubscribersCsv, loadSubscribers, type Subscriber } from '~/data/admin.ts';

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
      setExportError('No se pudo exportar el CSV. Intenta de nuevo.');
    }
  }

  return (
    <section aria-labelledby="adm-news-title">
      <h1 id="adm-news-title">Boletín</h1>
      {failed ? (
        <p className="acct-error" role="alert">
          No se pudo cargar la lista de suscriptores.
        </p>
      ) : !list ? (
        <p role="status">Cargando suscriptores…</p>
      ) : (
        <>
          <p data-testid="newsletter-count">
            <strong>{list.length}</strong> {list.length === 1 ? 'suscriptor' : 'suscriptores'}
          </p>
          <div className="adm-filters">
            <div className="field">
              <label htmlFor="adm-news-search">Buscar correo</label>
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
                Exportar CSV
              </button>
            </div>
          </div>
          {exportError && (
            <p className="acct-error" role="alert">
              {exportError}
            </p>
          )}
          {matches.length === 0 ? (
            <p role="status">{list.length === 0 ? 'Aún no hay suscriptores.' : 'Ningún correo coincide.'}</p>
          ) : (
            <>
              <p className="muted" role="status">
                {matches.length === list.length ? `Mostrando ${Math.min(shown, matches.length)} de ${matches.length}` : `${matches.length} coinciden`}
              </p>
              <div className="acct-table-wrap" tabIndex={0} role="region" aria-label="Lista de suscriptores">
                <table className="acct-table adm-table">
                  <thead>
                    <tr>
                      <th scope="col">Correo</th>
                      <th scope="col">Fecha de suscripción</th>
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
                    Mostrar más
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
