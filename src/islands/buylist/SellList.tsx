/**
 * /vende's sell list: its lines priced from the buylist, the totals in saldo a favor and by
 * transfer, the payment (saldo with its bonus, or a transfer to a CLABE checked live) and the
 * submit. The database prices, reserves and refuses; its refusals show on the line they name.
 */
import { useId, useRef, useState, type FormEvent } from 'react';
import { removeSellLine, submitSale, type BuylistItem, type BuylistTerms, type Payout, type SellListLine } from '~/data/buylist.ts';
import { entryFor, placeRefusal, sellTotals } from '~/domain/buylist.ts';
import { centavos, formatCentavos } from '~/domain/money.ts';
import { finishLabel, languageLabel } from '~/domain/singles.ts';
import { SELL_LIST_TEXT as TEXT } from '~/i18n/buylist.ts';
import ClabeField, { clabeState } from './ClabeField.tsx';

interface Props {
  lines: readonly SellListLine[];
  items: readonly BuylistItem[];
  terms: BuylistTerms;
  onChanged: () => Promise<void>;
  onSubmitted: (sale: { id: string; code: string }) => void;
}

export default function SellList({ lines, items, terms, onChanged, onSubmitted }: Props) {
  const id = useId();
  const [payout, setPayout] = useState<Payout>('saldo');
  const [clabe, setClabe] = useState('');
  const [tried, setTried] = useState(false);
  const [busy, setBusy] = useState(false);
  const [notes, setNotes] = useState<Record<string, string>>({});
  const [message, setMessage] = useState<string | null>(null);
  // One request id per sale until it is registered: a second tap, or a retry after an answer that
  // never came, is the same submission (submit_buylist answers the first one again).
  const requestId = useRef<string | null>(null);
  const sending = useRef(false);

  const priced = lines.map((line) => ({ line, item: entryFor(items, line) }));
  const nameOf = (line: SellListLine) => lineName(line, entryFor(items, line));
  const totals = sellTotals(
    priced.map(({ line, item }) => ({
      quantity: line.quantity,
      transferEach: item?.cash[line.condition] ?? centavos(0),
      creditEach: item?.credit[line.condition] ?? centavos(0),
    })),
  );
  const short = terms.minimum > totals.transfer ? centavos(terms.minimum - totals.transfer) : null;

  async function remove(line: SellListLine) {
    if (await removeSellLine(line.id)) await onChanged();
    else setMessage(TEXT.removeFailed);
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (sending.current) return;
    setTried(true);
    setMessage(null);
    if (payout === 'transferencia' && !clabeState(clabe).valid) return;
    sending.current = true;
    setBusy(true);
    try {
      requestId.current ??= crypto.randomUUID();
      const answer = await submitSale(requestId.current, lines, payout, payout === 'transferencia' ? clabe.replace(/[\s-]/g, '') : null);
      if (answer.ok) {
        requestId.current = null;
        setNotes({});
        onSubmitted({ id: answer.id, code: answer.code });
        return;
      }
      const refusal = placeRefusal(answer, lines, nameOf);
      setNotes(refusal.lines);
      setMessage(refusal.message ?? TEXT.submitFailed);
      if (refusal.removed.length) {
        await Promise.all(refusal.removed.map((line) => removeSellLine(line.id)));
        await onChanged();
      }
    } finally {
      sending.current = false;
      setBusy(false);
    }
  }

  if (lines.length === 0 && Object.keys(notes).length === 0) return <p className="muted">{TEXT.empty}</p>;

  return (
    <form className="sell-list" aria-labelledby={`${id}-title`} onSubmit={(event) => void submit(event)} noValidate>
      <h2 id={`${id}-title`}>{TEXT.title}</h2>
      <ul className="sell-lines" aria-label={TEXT.title}>
        {priced.map(({ line, item }) => {
          const name = lineName(line, item);
          return (
            <li key={line.id} className="sell-line" data-testid="sell-line">
              <p className="sell-line-name">
                {name} <span className="sell-line-qty">{TEXT.quantity(line.quantity)}</span>
              </p>
              {item && <p className="muted">{TEXT.each(formatCentavos(item.cash[line.condition]), formatCentavos(item.credit[line.condition]))}</p>}
              {notes[line.id] && (
                <p className="field-error" role="alert">
                  {notes[line.id]}
                </p>
              )}
              <button type="button" className="btn btn-outline" aria-label={TEXT.removeLine(name)} onClick={() => void remove(line)}>
                {TEXT.remove}
              </button>
            </li>
          );
        })}
      </ul>
      {Object.entries(notes)
        .filter(([lineId]) => !lines.some((line) => line.id === lineId))
        .map(([lineId, note]) => (
          <p key={lineId} className="field-error" role="alert">
            {note}
          </p>
        ))}
      <dl className="sell-totals">
        <div>
          <dt>{TEXT.totalCredit}</dt>
          <dd data-testid="total-credit">{formatCentavos(totals.credit)}</dd>
        </div>
        <div>
          <dt>{TEXT.totalTransfer}</dt>
          <dd data-testid="total-transfer">{formatCentavos(totals.transfer)}</dd>
        </div>
      </dl>
      <p className="muted">{short ? TEXT.belowMinimum(formatCentavos(short)) : TEXT.minimum(formatCentavos(terms.minimum))}</p>
      <fieldset className="sell-payout">
        <legend>{TEXT.payTitle}</legend>
        <label className="acct-check">
          <input type="radio" name={`${id}-payout`} checked={payout === 'saldo'} onChange={() => setPayout('saldo')} />
          {TEXT.payCredit(`${terms.bonusPercent} %`)}
        </label>
        <label className="acct-check">
          <input type="radio" name={`${id}-payout`} checked={payout === 'transferencia'} onChange={() => setPayout('transferencia')} />
          {TEXT.payTransfer}
        </label>
        {payout === 'transferencia' && <ClabeField value={clabe} onChange={setClabe} showError={tried} />}
      </fieldset>
      {message && (
        <p className="acct-error" role="alert">
          {message}
        </p>
      )}
      <button type="submit" className="btn btn-primary" disabled={busy || lines.length === 0}>
        {busy ? TEXT.submitting : TEXT.submit}
      </button>
    </form>
  );
}

/** A line as the shopper reads it: 'Monkey.D.Luffy (OP05-119) · LP · Inglés · Parallel'. */
function lineName(line: SellListLine, item: BuylistItem | undefined): string {
  return TEXT.lineLabel(item?.name ?? line.productId, line.condition, languageLabel(line.language), finishLabel(line.finish));
}
