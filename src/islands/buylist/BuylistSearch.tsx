/**
 * /vende's search: the published buylist found by name or collector number with the header
 * search's matching (src/domain/buylist.ts), each card with what the shop pays per condition by
 * transfer and in saldo a favor, how many it still wants, and the form that adds copies.
 */
import { useId, useMemo, useRef, useState, type FormEvent } from 'react';
import type { BuylistItem, BuylistTerms, SellCopies } from '~/data/buylist.ts';
import { buylistSearchIndex, searchBuylist } from '~/domain/buylist.ts';
import { formatCentavos } from '~/domain/money.ts';
import { CARD_CONDITIONS, CONDITION_LABELS, finishesOf, finishLabel, languageLabel, languagesOf, type CardCondition } from '~/domain/singles.ts';
import { SELL_PAGE_TEXT as TEXT } from '~/i18n/buylist.ts';
import { usePrebuiltInput } from '../prebuilt.ts';

const RESULTS = 20;

interface Props {
  /** The published buylist and its terms; null while it loads (or could not be read). */
  buylist: { items: readonly BuylistItem[]; terms: BuylistTerms } | null;
  onAdd: (copies: SellCopies, name: string) => Promise<void>;
}

const NO_ITEMS: readonly BuylistItem[] = [];

/**
 * The search box and its results. The box is in the server's HTML: what a shopper types before the
 * page is live is kept (src/islands/prebuilt.ts) and searched once the buylist has loaded.
 */
export default function BuylistSearch({ buylist, onAdd }: Props) {
  const id = useId();
  const items = buylist?.items ?? NO_ITEMS;
  const [query, setQuery] = useState('');
  const inputRef = useRef<HTMLInputElement>(null);
  usePrebuiltInput(inputRef, query, setQuery);
  const index = useMemo(
    () =>
      buylistSearchIndex(
        items.map((item) => ({ key: item.entryId, name: item.name, collectorNumber: item.collectorNumber, nameEn: item.nameEn, nameEs: item.nameEs })),
      ),
    [items],
  );
  const byEntry = useMemo(() => new Map(items.map((item) => [item.entryId, item])), [items]);
  const found = query.trim() ? searchBuylist(index, query, RESULTS) : null;
  const results = found ? found.keys.map((key) => byEntry.get(key)).filter((item): item is BuylistItem => item !== undefined) : [];

  return (
    <section className="sell-search" aria-labelledby={`${id}-label`}>
      <form role="search" className="sell-search-form" data-prebuilt onSubmit={(event) => event.preventDefault()}>
        <label id={`${id}-label`} htmlFor={`${id}-q`}>
          {TEXT.searchLabel}
        </label>
        <input
          ref={inputRef}
          id={`${id}-q`}
          className="input"
          type="search"
          autoComplete="off"
          placeholder={TEXT.searchPlaceholder}
          value={query}
          onChange={(event) => setQuery(event.target.value)}
        />
      </form>
      {buylist && (
        <p className="muted" role="status">
          {found ? (found.total === 0 ? TEXT.noResults : TEXT.resultsCount(found.total)) : TEXT.typeToSearch}
        </p>
      )}
      {buylist && results.length > 0 && (
        <ul className="sell-results" aria-label={TEXT.resultsLabel}>
          {results.map((item) => (
            <li key={item.entryId}>
              <BuyCard item={item} terms={buylist.terms} onAdd={onAdd} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** The name a card is listed by: its name, and the language and finish its entry buys when it names them. */
export function itemTitle(item: Pick<BuylistItem, 'name' | 'language' | 'finish'>): string {
  const scope = [item.language ? languageLabel(item.language) : null, item.finish ? finishLabel(item.finish) : null].filter(Boolean);
  return scope.length ? `${item.name} · ${scope.join(' · ')}` : item.name;
}

function BuyCard({ item, terms, onAdd }: { item: BuylistItem; terms: BuylistTerms; onAdd: Props['onAdd'] }) {
  const id = useId();
  const title = itemTitle(item);
  return (
    <article className="card sell-card" aria-labelledby={`${id}-name`}>
      <h2 id={`${id}-name`} className="sell-card-name">
        {title}
      </h2>
      <p className="muted sell-card-meta">{[item.expansion, item.collectorNumber].filter(Boolean).join(' · ')}</p>
      <table className="sell-prices">
        <caption className="visually-hidden">{TEXT.pricesCaption(title)}</caption>
        <thead>
          <tr>
            <th scope="col">{TEXT.condition}</th>
            <th scope="col" className="num">
              {TEXT.transfer}
            </th>
            <th scope="col" className="num">
              {TEXT.storeCredit(`${terms.bonusPercent} %`)}
            </th>
          </tr>
        </thead>
        <tbody>
          {CARD_CONDITIONS.map((condition) => (
            <tr key={condition}>
              <th scope="row">{CONDITION_LABELS[condition]}</th>
              <td className="num">{formatCentavos(item.cash[condition])}</td>
              <td className="num">{formatCentavos(item.credit[condition])}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {item.stillWanted > 0 ? (
        <>
          <p className="sell-wanted">{TEXT.wanted(item.stillWanted)}</p>
          <AddForm item={item} title={title} onAdd={onAdd} />
        </>
      ) : (
        <p className="sell-wanted sell-not-buying">{TEXT.notBuying}</p>
      )}
    </article>
  );
}

function AddForm({ item, title, onAdd }: { item: BuylistItem; title: string; onAdd: Props['onAdd'] }) {
  const id = useId();
  const languages = item.language ? [{ code: item.language, label: languageLabel(item.language) }] : languagesOf(item.franchiseId);
  const finishes = item.finish ? [{ code: item.finish, label: finishLabel(item.finish) }] : finishesOf(item.franchiseId);
  const max = Math.max(1, Math.min(99, item.stillWanted, item.limitPerShopper || 99));
  const [condition, setCondition] = useState<CardCondition>('NM');
  const [language, setLanguage] = useState(languages[0]?.code ?? '');
  const [finish, setFinish] = useState(finishes[0]?.code ?? '');
  const [quantity, setQuantity] = useState(1);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    try {
      await onAdd({ productId: item.productId, condition, language, finish, quantity: Math.min(max, Math.max(1, quantity)) }, item.name);
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className="sell-add" aria-label={TEXT.addTo(title)} onSubmit={(event) => void submit(event)}>
      <label htmlFor={`${id}-c`}>{TEXT.condition}</label>
      <select id={`${id}-c`} className="input" value={condition} onChange={(e) => setCondition(e.target.value as CardCondition)}>
        {CARD_CONDITIONS.map((code) => (
          <option key={code} value={code}>
            {CONDITION_LABELS[code]}
          </option>
        ))}
      </select>
      <label htmlFor={`${id}-l`}>{TEXT.language}</label>
      <select id={`${id}-l`} className="input" value={language} onChange={(e) => setLanguage(e.target.value)}>
        {languages.map((choice) => (
          <option key={choice.code} value={choice.code}>
            {choice.label}
          </option>
        ))}
      </select>
      <label htmlFor={`${id}-f`}>{TEXT.finish}</label>
      <select id={`${id}-f`} className="input" value={finish} onChange={(e) => setFinish(e.target.value)}>
        {finishes.map((choice) => (
          <option key={choice.code} value={choice.code}>
            {choice.label}
          </option>
        ))}
      </select>
      <label htmlFor={`${id}-q`}>{TEXT.quantity}</label>
      <input
        id={`${id}-q`}
        className="input"
        type="number"
        inputMode="numeric"
        min={1}
        max={max}
        value={quantity}
        onChange={(e) => setQuantity(Number(e.target.value) || 1)}
      />
      <button type="submit" className="btn btn-primary" disabled={busy}>
        {busy ? TEXT.adding : TEXT.add}
      </button>
    </form>
  );
}
