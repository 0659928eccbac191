/**
 * /vende ('Vende tus cartas'): the buylist's search, the signed-in shopper's sell list and its
 * submission. Signed out, the copies chosen are kept in this tab and added once the shopper signs
 * in and comes back, as the favorites' heart keeps its tap.
 */
import { useCallback, useEffect, useState } from 'react';
import { useStore } from '@nanostores/react';
import {
  loadBuylist,
  loadBuylistTerms,
  loadSellList,
  saveSellLine,
  type BuylistItem,
  type BuylistTerms,
  type SellCopies,
  type SellListLine,
} from '~/data/buylist.ts';
import { sameCopies } from '~/domain/buylist.ts';
import { $session, initSession } from '~/stores/session.ts';
import { SELL_PAGE_TEXT as TEXT } from '~/i18n/buylist.ts';
import { COMMON_TEXT } from '~/i18n/common.ts';
import { Loading } from '../ui/AsyncState.tsx';
import BuylistSearch from './BuylistSearch.tsx';
import SellList from './SellList.tsx';
import SellDone from './SellDone.tsx';
import './buylist.css';

/** sessionStorage key of the copies chosen before signing in. */
const SELL_INTENT_KEY = 'sellIntent';

function rememberIntent(copies: SellCopies): void {
  try {
    sessionStorage.setItem(SELL_INTENT_KEY, JSON.stringify(copies));
  } catch {
    // Without storage the copies are simply chosen again after signing in.
  }
}

function takeIntent(): SellCopies | null {
  try {
    const saved = sessionStorage.getItem(SELL_INTENT_KEY);
    sessionStorage.removeItem(SELL_INTENT_KEY);
    const data = saved ? (JSON.parse(saved) as Partial<SellCopies>) : null;
    if (!data || typeof data.productId !== 'string' || typeof data.condition !== 'string') return null;
    return {
      productId: data.productId,
      condition: data.condition,
      language: String(data.language),
      finish: String(data.finish),
      quantity: Number(data.quantity) || 1,
    };
  } catch {
    return null;
  }
}

type Read<T> = { status: 'loading' } | { status: 'failed' } | { status: 'done'; value: T };

export default function SellApp() {
  const session = useStore($session);
  const [buylist, setBuylist] = useState<Read<{ items: BuylistItem[]; terms: BuylistTerms }>>({ status: 'loading' });
  const [lines, setLines] = useState<SellListLine[] | null>(null);
  const [askSignIn, setAskSignIn] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const [done, setDone] = useState<{ id: string; code: string } | null>(null);
  const userId = session.user?.id ?? null;

  const load = useCallback(async () => {
    setBuylist({ status: 'loading' });
    const [items, terms] = await Promise.all([loadBuylist(), loadBuylistTerms()]);
    setBuylist(items && terms ? { status: 'done', value: { items, terms } } : { status: 'failed' });
  }, []);
  const reloadList = useCallback(async () => setLines(await loadSellList()), []);

  useEffect(() => {
    initSession();
    void load();
  }, [load]);
  useEffect(() => {
    if (!userId) return;
    const intent = takeIntent();
    void (intent ? saveSellLine(intent) : Promise.resolve(true)).then(reloadList);
  }, [userId, reloadList]);

  async function add(copies: SellCopies, name: string) {
    setNotice(null);
    if (!userId) {
      rememberIntent(copies);
      setAskSignIn(true);
      return;
    }
    const same = lines?.find((line) => sameCopies(line, copies));
    const ok = await saveSellLine({ ...copies, quantity: Math.min(99, copies.quantity + (same?.quantity ?? 0)) });
    setNotice(ok ? TEXT.added(name) : TEXT.addFailed);
    if (ok) await reloadList();
  }

  return (
    <div className="sell-page">
      <h1>{TEXT.title}</h1>
      <p>{TEXT.intro}</p>
      <p>
        <a className="sell-help-link" href="/faq#la-tienda-compra-cartas">
          {TEXT.helpLink}
        </a>
      </p>
      {done ? (
        <SellDone sale={done} days={buylist.status === 'done' ? buylist.value.terms.reservationDays : 14} onAnother={() => setDone(null)} />
      ) : (
        <div className="sell-layout">
          <div>
            <BuylistSearch buylist={buylist.status === 'done' ? buylist.value : null} onAdd={add} />
            {buylist.status === 'loading' ? (
              <Loading text={TEXT.loading} />
            ) : buylist.status === 'failed' ? (
              <div className="acct-actions">
                <p className="acct-error" role="alert">
                  {TEXT.loadFailed}
                </p>
                <button type="button" className="btn btn-outline" onClick={() => void load()}>
                  {COMMON_TEXT.retry}
                </button>
              </div>
            ) : null}
          </div>
          <div className="card sell-side">
            <p role="status" className="muted">
              {notice}
            </p>
            {askSignIn && !userId && (
              <p className="acct-note acct-note-info" role="alert">
                {TEXT.signInToSell} <a href="/auth?next=/vende">{TEXT.signIn}</a>
              </p>
            )}
            {userId && lines && buylist.status === 'done' && (
              <SellList
                lines={lines}
                items={buylist.value.items}
                terms={buylist.value.terms}
                onChanged={reloadList}
                onSubmitted={(sale) => {
                  setDone(sale);
                  void reloadList();
                  void load();
                }}
              />
            )}
          </div>
        </div>
      )}
    </div>
  );
}
