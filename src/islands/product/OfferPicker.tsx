/**
 * The buy box of a single card: its offers (condition, language and finish; graded slabs listed
 * apart), each with its price and stock, the chosen one's price line, quantity and add button.
 *
 * The page is prebuilt with every offer in it and the cheapest in stock chosen. The island hydrates
 * on the first interaction: a tap on an offer before that is replayed by the directive, and a
 * choice already made in the page (the `?oferta=` of a shared link, set by the page's script) is
 * adopted at hydration. On hydration it reads each offer's live price and stock, so a stale page
 * never sells an offer that is gone or sold out. The choice is kept in the address
 * (`?oferta=<key>`, history.replaceState), so a shared link opens the same offer. Each offer has
 * a heart that keeps that offer in favorites: the page's delegated script handles its taps, before
 * and after hydration (src/scripts/favorite-hearts.ts); the island only draws its state. An offer
 * in an open preorder campaign (a copy of a card whose set is not out) reads 'Preventa · Sale el
 * …' and sells the units one order may take in the campaign instead of the empty shelf's; the
 * page's script wakes the island on a card that has one (src/scripts/live-stock.ts).
 */
import { useEffect, useLayoutEffect, useRef, useState, type RefObject } from 'react';
import { useStore } from '@nanostores/react';
import { fetchLiveOffersWithPreorders } from '~/data/preorder-offers.ts';
import type { LiveOffers } from '~/data/products.ts';
import { formatCentavos } from '~/domain/money.ts';
import { clampQuantity, discountPercent } from '~/domain/products.ts';
import { PRODUCT_MESSAGES } from '~/i18n/cart.ts';
import { PRODUCT_BUY_BOX_TEXT, PRODUCT_OFFER_PICKER_TEXT as TEXT } from '~/i18n/product.ts';
import { PRODUCT_FAVORITE_TEXT } from '~/i18n/favorites.ts';
import { PREORDER_PRODUCT_TEXT } from '~/i18n/preorders.ts';
import { favoriteKey } from '~/domain/favorite-hearts.ts';
import { $favoriteIds } from '~/stores/favorite-ids.ts';
import { CONDITION_LABELS, chooseOffer, gradeLabel, graderVerifyUrl, isSlab, offerKey, offerLabel, type SingleOffer } from '~/domain/singles.ts';
import { addToCart } from '~/stores/cart.ts';
import { showAddOutcome } from '~/stores/toast.ts';
import { useLiveRead } from './use-live-read.ts';
import { useQuantityField } from './use-quantity-field.ts';
import { BuyBox } from './BuyBox.tsx';
import { settleWithin } from './buy-box.ts';
import { showOfferImages } from './offer-images.ts';
import { IMAGE_SLOTS } from '~/domain/images.ts';
import { Picture } from '../ui/Picture.tsx';
import { hrefWithOffer, offerByKey, offerKeyFromSearch, withLiveOffers, type LiveOffer } from '~/domain/live-offers.ts';

/** What the prebuilt page knows about the card. */
export interface OfferPickerProduct {
  id: string;
  name: string;
  image: string;
  images: string[];
  /** A timed drop's instant (ISO); null: on sale now. */
  onSaleAt?: string | null;
}

interface Props {
  product: OfferPickerProduct;
  /** The card's offers, sorted (sortOffers); a slab's images already resolved for the page. */
  offers: SingleOffer[];
}

/** The radio group's name: one choice across raw copies and slabs. */
const RADIO_NAME = 'oferta';
const NO_LIVE = new Map<string, LiveOffer>();
const NO_PREORDERS = new Map<string, string>();
const RELEASE_DAY = new Intl.DateTimeFormat('es-MX', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });

/** 'Preventa · Sale el 5 de marzo de 2027' for a release date ('YYYY-MM-DD'). */
function releaseLine(day: string): string {
  const date = new Date(`${day}T00:00:00Z`);
  return Number.isNaN(date.getTime()) ? '' : PREORDER_PRODUCT_TEXT.releaseLine(RELEASE_DAY.format(date));
}

/** The offer picker and buy box of a single card. */
export default function OfferPicker({ product, offers }: Props) {
  const { live, state, liveRequest } = useLiveRead(product.id, fetchLiveOffersWithPreorders);
  const preorders = state === 'gone' ? NO_PREORDERS : (live?.preorders ?? NO_PREORDERS);
  const boxRef = useRef<HTMLDivElement>(null);
  const [note, setNote] = useState('');
  const [key, choose] = useChosenOffer(offers, boxRef, () => setNote(''));

  const liveOffers = state === 'gone' ? NO_LIVE : (live?.offers ?? null);
  const shown = withLiveOffers(offers, liveOffers);
  const chosen = offerByKey(shown, key) ?? shown[0];
  const stock = chosen ? chosen.stock : 0;
  const soldOut = stock <= 0;
  const field = useQuantityField(stock, setNote);
  const chosenImages = chosen?.images;

  // A slab's own photos lead the gallery while it is chosen.
  useEffect(() => showOfferImages(chosenImages ?? []), [chosenImages]);

  if (!chosen) return null;

  const add = async () => {
    // A click replayed right after hydration may beat the live check; wait briefly for it.
    const current = state === 'checking' ? await settledLive(liveRequest.current, liveOffers) : liveOffers;
    const offer = offerByKey(withLiveOffers(offers, current), key);
    if (!offer || offer.stock <= 0) {
      setNote(TEXT.gone);
      return;
    }
    field.commit();
    const label = offerLabel(offer);
    const outcome = addToCart(
      {
        id: product.id,
        name: product.name,
        priceCentavos: offer.priceCentavos,
        stock: offer.stock,
        image: product.image,
        images: product.images,
        offerId: offer.id,
        offerLabel: label,
      },
      clampQuantity(field.quantity, offer.stock),
    );
    showAddOutcome(`${product.name} (${label})`, outcome);
  };

  const group = (title: string, list: SingleOffer[], guide: boolean) =>
    list.length > 0 && (
      <fieldset className="offer-group">
        <legend>
          <h2 className="offer-heading">{title}</h2>
        </legend>
        {guide && (
          <p className="offer-guide">
            <a href="/guia-de-condiciones">{TEXT.guide}</a>
          </p>
        )}
        <ul className="offer-list">
          {list.map((offer) => (
            <OfferOption
              key={offer.id}
              offer={offer}
              chosen={offerKey(offer) === key}
              onChoose={choose}
              productId={product.id}
              productName={product.name}
              release={preorders.get(offer.id)}
            />
          ))}
        </ul>
      </fieldset>
    );

  return (
    <BuyBox
      className="offer-box"
      boxRef={boxRef}
      checking={state === 'checking'}
      heading={
        <p className="offer-chosen">
          <span className="visually-hidden">{TEXT.chosen}</span>
          {offerLabel(chosen)}
        </p>
      }
      price={{
        priceCentavos: chosen.priceCentavos,
        originalPriceCentavos: chosen.originalPriceCentavos,
        percent: discountPercent(chosen),
        preorder: preorders.has(chosen.id),
      }}
      stock={stock}
      soldOut={soldOut}
      soldOutText={PRODUCT_MESSAGES.soldOut}
      field={field}
      onAdd={() => void add()}
      note={note}
      onSaleAt={product.onSaleAt}
    >
      {group(
        TEXT.rawHeading,
        shown.filter((offer) => !isSlab(offer)),
        true,
      )}
      {group(
        TEXT.slabHeading,
        shown.filter((offer) => isSlab(offer)),
        false,
      )}
    </BuyBox>
  );
}

/**
 * The key of the chosen offer, and how to choose another (kept in the address as ?oferta=). It
 * starts with the cheapest in stock, as the prebuilt page; at hydration an offer chosen in the
 * page before (the link's ?oferta=, set by the page script, or a radio changed by keyboard) wins.
 */
function useChosenOffer(offers: SingleOffer[], boxRef: RefObject<HTMLDivElement | null>, onChoose: () => void) {
  const [key, setKey] = useState(() => {
    const first = chooseOffer(offers);
    return first ? offerKey(first) : '';
  });
  const choose = (next: string) => {
    setKey(next);
    onChoose();
    window.history.replaceState(window.history.state, '', hrefWithOffer(window.location.href, next));
  };
  useLayoutEffect(() => {
    // A tap replayed while React hydrates reaches the radio natively, not onChange: it is adopted
    // here like any choice made in the page before, and goes into the address too.
    const fromPage = boxRef.current?.querySelector<HTMLInputElement>(`input[name="${RADIO_NAME}"]:checked`)?.value;
    const fromLink = offerKeyFromSearch(window.location.search);
    if (fromPage && fromPage !== key && offerByKey(offers, fromPage)) choose(fromPage);
    else if (fromLink && fromLink !== key && offerByKey(offers, fromLink)) setKey(fromLink);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- runs once, at hydration
  }, []);
  return [key, choose] as const;
}

/**
 * The live offers once the request in flight answers (at most 1.5 s); what was known before when
 * it fails or takes longer. A card that is gone or not for sale has no offer left.
 */
async function settledLive(request: Promise<LiveOffers | null> | null, known: ReadonlyMap<string, LiveOffer> | null) {
  const answer = await settleWithin(request);
  if (answer === undefined) return known;
  return answer && answer.available ? answer.offers : NO_LIVE;
}

/** A comma a screen reader reads between the parts of an offer's label (the layout separates them on screen). */
function Pause() {
  return <span className="visually-hidden">, </span>;
}

/** A condition's name without its code ('Poco jugada'), the code being in the offer's label. */
function conditionName(offer: SingleOffer): string {
  return offer.condition ? CONDITION_LABELS[offer.condition].replace(/\s*\([^)]*\)$/, '') : '';
}

/** An offer's heart: keeps that offer (not the whole card) in favorites. */
function OfferHeart({ productId, offerId, name }: { productId: string; offerId: string; name: string }) {
  const pressed = useStore($favoriteIds).has(favoriteKey(productId, offerId));
  return (
    <button
      type="button"
      className="offer-fav"
      data-favorite-product={productId}
      data-favorite-offer={offerId}
      data-favorite-name={name}
      aria-pressed={pressed}
      aria-label={pressed ? PRODUCT_FAVORITE_TEXT.removeLabel(name) : PRODUCT_FAVORITE_TEXT.addLabel(name)}
    >
      <svg width="20" height="20" viewBox="0 0 24 24" aria-hidden="true" fill="none" stroke="currentColor" strokeWidth="1.8">
        <path d="M12 20.5s-7.5-4.6-9.3-9.4C1.5 7.7 3.7 4 7.3 4c2 0 3.6 1.1 4.7 2.8C13.1 5.1 14.7 4 16.7 4c3.6 0 5.8 3.7 4.6 7.1-1.8 4.8-9.3 9.4-9.3 9.4Z" />
      </svg>
    </button>
  );
}

/** One offer: a radio with its label, price and stock, and its heart; a slab adds its certificate, a link to verify it and its photos. */
function OfferOption({
  offer,
  chosen,
  onChoose,
  productId,
  productName,
  release,
}: {
  offer: SingleOffer;
  chosen: boolean;
  onChoose: (key: string) => void;
  productId: string;
  productName: string;
  /** The release date ('YYYY-MM-DD') of an offer sold as a preorder now. */
  release?: string | undefined;
}) {
  const key = offerKey(offer);
  const soldOut = offer.stock <= 0;
  const grade = offer.gradingCompany && offer.grade !== null ? gradeLabel(offer.gradingCompany, offer.grade) : null;
  return (
    <li className={`offer-option${soldOut ? ' is-sold-out' : ''}${chosen ? ' is-chosen' : ''}`}>
      <div className="offer-row">
        <label className="offer-label">
          <input type="radio" name={RADIO_NAME} value={key} checked={chosen} disabled={soldOut} onChange={() => onChoose(key)} />
          <span className="offer-text">
            <span className="offer-name">{offerLabel(offer)}</span>
            {!grade && (
              <span className="offer-condition">
                <Pause />
                {conditionName(offer)}
              </span>
            )}
            {release && (
              <span className="offer-condition offer-preorder">
                <Pause />
                {releaseLine(release)}
              </span>
            )}
          </span>
          <span className="offer-side">
            <span className="offer-price">
              <Pause />
              {formatCentavos(offer.priceCentavos)}
            </span>
            <Pause />
            <span className={soldOut ? 'offer-stock stock-out' : 'offer-stock'}>
              {soldOut ? PRODUCT_MESSAGES.soldOut : PRODUCT_BUY_BOX_TEXT.availableCount(offer.stock)}
            </span>
          </span>
        </label>
        <OfferHeart productId={productId} offerId={offer.id} name={`${productName} (${offerLabel(offer)})`} />
      </div>
      {grade && offer.gradingCompany && (
        <div className="slab-details">
          {offer.certificateNumber && <p>{TEXT.certificate(offer.certificateNumber)}</p>}
          {offer.certificateNumber && (
            <a href={graderVerifyUrl(offer.gradingCompany, offer.certificateNumber)} target="_blank" rel="noopener">
              {TEXT.verify(offer.gradingCompany)}
              <span className="visually-hidden">{TEXT.verifyHint(offer.certificateNumber)}</span>
            </a>
          )}
          {offer.images.length > 0 && (
            <ul className="slab-photos">
              {offer.images.map((src, index) => (
                <li key={src}>
                  <a href={src} target="_blank" rel="noopener">
                    <Picture
                      src={src}
                      frame={IMAGE_SLOTS.thumb72}
                      box={[72, 72]}
                      alt={TEXT.photoAlt(productName, grade, index + 1, offer.images.length)}
                      loading="lazy"
                    />
                  </a>
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
    </li>
  );
}
