import { useCallback, useEffect, useState } from 'react';
import { listSavedCards, removeCard, setDefaultCard, type SavedCard } from '~/data/account.ts';
import { ACCOUNT_SAVED_CARDS_TEXT } from '~/i18n/account.ts';
import { COMMON_TEXT } from '~/i18n/common.ts';
import { useNote } from '../ui/useNote.ts';

/** Status notes of the card actions clear after this long. */
const NOTE_MS = 1800;

function brandName(brand: string): string {
  const names: Record<string, string> = { visa: 'Visa', mastercard: 'Mastercard', amex: 'American Express' };
  return names[brand.toLowerCase()] ?? (brand ? brand[0]!.toUpperCase() + brand.slice(1) : ACCOUNT_SAVED_CARDS_TEXT.card);
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
    showNote(ACCOUNT_SAVED_CARDS_TEXT.settingDefault, true);
    try {
      await setDefaultCard(customerId, card.id);
      // Exactly one default afterwards, whatever the list said before.
      setCards((list) => (list ?? []).map((c) => ({ ...c, is_default: c.id === card.id })));
      showNote(ACCOUNT_SAVED_CARDS_TEXT.defaultDone);
    } catch {
      showNote(ACCOUNT_SAVED_CARDS_TEXT.defaultFailed);
    } finally {
      setBusyId(null);
    }
  }

  async function remove(card: SavedCard) {
    setBusyId(card.id);
    showNote(ACCOUNT_SAVED_CARDS_TEXT.removing, true);
    try {
      await removeCard(card.id);
      setCards((list) => (list ?? []).filter((c) => c.id !== card.id));
      showNote(ACCOUNT_SAVED_CARDS_TEXT.removed);
    } catch {
      showNote(ACCOUNT_SAVED_CARDS_TEXT.removeFailed);
    } finally {
      setBusyId(null);
    }
  }

  return (
    <section className="acct-section" aria-labelledby="acct-cards-title">
      <h3 id="acct-cards-title">{ACCOUNT_SAVED_CARDS_TEXT.title}</h3>
      {note && (
        <p className="acct-note acct-note-info" role="status">
          {note}
        </p>
      )}
      {!customerId ? (
        <p>{ACCOUNT_SAVED_CARDS_TEXT.noCustomer}</p>
      ) : loadError ? (
        <div className="acct-actions">
          <p className="acct-error">{ACCOUNT_SAVED_CARDS_TEXT.loadFailed}</p>
          <button type="button" className="btn btn-outline" onClick={() => void load()}>
            {COMMON_TEXT.retry}
          </button>
        </div>
      ) : cards === null ? (
        <p role="status">{ACCOUNT_SAVED_CARDS_TEXT.loading}</p>
      ) : cards.length === 0 ? (
        <p>{ACCOUNT_SAVED_CARDS_TEXT.empty}</p>
      ) : (
        <ul className="acct-list" data-testid="saved-cards">
          {cards.map((card) => {
            const label = `${brandName(card.card.brand)} •••• ${card.card.last4}`;
            return (
              <li key={card.id} className="acct-item" data-testid="saved-card" data-default={card.is_default}>
                <div>
                  <strong>{label}</strong> {card.is_default && <span className="badge badge-success">{ACCOUNT_SAVED_CARDS_TEXT.isDefault}</span>}
                  <br />
                  <span className="muted">{ACCOUNT_SAVED_CARDS_TEXT.expires(String(card.card.exp_month).padStart(2, '0'), card.card.exp_year)}</span>
                </div>
                <div className="acct-actions">
                  {!card.is_default && (
                    <button
                      type="button"
                      className="btn btn-outline"
                      disabled={busyId !== null}
                      aria-label={ACCOUNT_SAVED_CARDS_TEXT.makeDefaultLabel(label)}
                      onClick={() => void makeDefault(card)}
                    >
                      {ACCOUNT_SAVED_CARDS_TEXT.makeDefault}
                    </button>
                  )}
                  <button
                    type="button"
                    className="btn btn-outline"
                    disabled={busyId !== null}
                    aria-label={ACCOUNT_SAVED_CARDS_TEXT.removeLabel(label)}
                    onClick={() => void remove(card)}
                  >
                    {ACCOUNT_SAVED_CARDS_TEXT.remove}
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
