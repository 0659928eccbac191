import { useCallback, useEffect, useState } from 'react';
import { listSavedCards, removeCard, setDefaultCard, type SavedCard } from '~/data/account.ts';
import { useNote } from '../ui/useNote.ts';

export const SAVED_CARD_MESSAGES = {
  settingDefault: 'Estableciendo predeterminado...',
  defaultDone: 'Predeterminado actualizado ✅',
  defaultFailed: 'No se pudo actualizar ❌',
  removing: 'Eliminando método...',
  removed: 'Método eliminado ✅',
  removeFailed: 'No se pudo eliminar el método ❌',
  empty: 'No tienes tarjetas guardadas.',
  noCustomer: 'Aún no tienes un cliente de Stripe asociado.',
  loadFailed: 'No se pudieron cargar tus tarjetas.',
} as const;

/** Status notes of the card actions clear after this long. */
const NOTE_MS = 1800;

function brandName(brand: string): string {
  const names: Record<string, string> = { visa: 'Visa', mastercard: 'Mastercard', amex: 'American Express' };
  return names[brand.toLowerCase()] ?? (brand ? brand[0]!.toUpperCase() + brand.slice(1) : 'Tarjeta');
}

/** Saved payment methods of the profile panel, through the shop's /api/stripe endpoints. */
export default function SavedCards({ customerId }: { customerId: string | null }) {
  const [cards, setCards] = useState<SavedCard[] | null>(null);
  const [loadError, setLoadError] = useState(false);
  const [note, showNote] = useNote(NOTE_MS);
  const [busyId, setBusyId] = useState<string | null>(null);

  const load = useCallback(async () => {
    if (!customerId) return;
    setLoadError(false);
    try {
      setCards(await listSavedCards(customerId));
    } catch (error) {
      console.error('No se pudieron cargar las tarjetas', error);
      setLoadError(true);
    }
  }, [customerId]);

  useEffect(() => {
    void load();
  }, [load]);

  async function makeDefault(card: SavedCard) {
    if (!customerId) return;
    setBusyId(card.id);
    showNote(SAVED_CARD_MESSAGES.settingDefault, true);
    try {
      await setDefaultCard(customerId, card.id);
      // Exactly one default afterwards, whatever the list said before.
      setCards((list) => (list ?? []).map((c) => ({ ...c, is_default: c.id === card.id })));
      showNote(SAVED_CARD_MESSAGES.defaultDone);
    } catch {
      showNote(SAVED_CARD_MESSAGES.defaultFailed);
    } finally {
      setBusyId(null);
    }
  }

  async function remove(card: SavedCard) {
    setBusyId(card.id);
    showNote(SAVED_CARD_MESSAGES.removing, true);
    try {
      await removeCard(card.id);
      setCards((list) => (list ?? []).filter((c) => c.id !== card.id));
      showNote(SAVED_CARD_MESSAGES.removed);
    } catch {
      showNote(SAVED_CARD_MESSAGES.removeFailed);
    } finally {
      setBusyId(null);
    }
  }

  return (
    <section className="acct-section" aria-labelledby="acct-cards-title">
      <h3 id="acct-cards-title">Métodos de pago guardados</h3>
      {note && (
        <p className="acct-note acct-note-info" role="status">
          {note}
        </p>
      )}
      {!customerId ? (
        <p>{SAVED_CARD_MESSAGES.noCustomer}</p>
      ) : loadError ? (
        <div className="acct-actions">
          <p className="acct-error">{SAVED_CARD_MESSAGES.loadFailed}</p>
          <button type="button" className="btn btn-outline" onClick={() => void load()}>
            Reintentar
          </button>
        </div>
      ) : cards === null ? (
        <p role="status">Cargando tarjetas…</p>
      ) : cards.length === 0 ? (
        <p>{SAVED_CARD_MESSAGES.empty}</p>
      ) : (
        <ul className="acct-list" data-testid="saved-cards">
          {cards.map((card) => {
            const label = `${brandName(card.card.brand)} •••• ${card.card.last4}`;
            return (
              <li key={card.id} className="acct-item" data-testid="saved-card" data-default={card.is_default}>
                <div>
                  <strong>{label}</strong> {card.is_default && <span className="badge badge-success">Predeterminada</span>}
                  <br />
                  <span className="muted">
                    Vence {String(card.card.exp_month).padStart(2, '0')}/{card.card.exp_year}
                  </span>
                </div>
                <div className="acct-actions">
                  {!card.is_default && (
                    <button
                      type="button"
                      className="btn btn-outline"
                      disabled={busyId !== null}
                      aria-label={`Usar ${label} como predeterminada`}
                      onClick={() => void makeDefault(card)}
                    >
                      Usar como predeterminada
                    </button>
                  )}
                  <button
                    type="button"
                    className="btn btn-outline"
                    disabled={busyId !== null}
                    aria-label={`Eliminar ${label}`}
                    onClick={() => void remove(card)}
                  >
                    Eliminar
                  </button>
                </div>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
