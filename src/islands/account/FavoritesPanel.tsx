/**
 * The Favoritos tab: the products the shopper keeps with the heart, and the single offers kept
 * with an offer's heart (named with the offer's label, 'NM · Español · Normal'), with their price
 * and stock as the database has them now, to remove or add to the cart. Read when the tab opens
 * and again when the shopper's favorites change on another device or tab (followFavorites).
 */
import { useEffect } from 'react';
import { useStore } from '@nanostores/react';
import { supabaseUrl } from '~/data/supabase.ts';
import { IMAGE_SLOTS, resolveImage } from '~/domain/images.ts';
import { formatCentavos } from '~/domain/money.ts';
import { isSoldOut } from '~/domain/products.ts';
import { productPath } from '~/domain/routes.ts';
import { ACCOUNT_FAVORITES_TEXT } from '~/i18n/account.ts';
import { PRODUCT_MESSAGES } from '~/i18n/cart.ts';
import { PRODUCT_BUY_BOX_TEXT } from '~/i18n/product.ts';
import { addToCart } from '~/stores/cart.ts';
import { $favorites, followFavorites, reloadFavorites, toggleFavorite, type Favorite } from '~/stores/favorites.ts';
import { notify, showAddOutcome } from '~/stores/toast.ts';
import { stockText } from '../product/buy-box.ts';
import { AsyncState, Loading } from '../ui/AsyncState.tsx';
import { Picture } from '../ui/Picture.tsx';
import PriceAlertToggle from './PriceAlertToggle.tsx';

export default function FavoritesPanel({ userId }: { userId: string }) {
  const favorites = useStore($favorites);
  useEffect(() => {
    void reloadFavorites(userId);
    return followFavorites(userId);
  }, [userId]);

  return (
    <>
      <h2>{ACCOUNT_FAVORITES_TEXT.title}</h2>
      <AsyncState
        state={favorites}
        loading={<Loading text={ACCOUNT_FAVORITES_TEXT.loading} />}
        failed={ACCOUNT_FAVORITES_TEXT.loadFailed}
        onRetry={() => void reloadFavorites(userId)}
      >
        {(list) =>
          list.length === 0 ? (
            <p className="muted">{ACCOUNT_FAVORITES_TEXT.empty}</p>
          ) : (
            <ul className="acct-lines acct-favorites" aria-label={ACCOUNT_FAVORITES_TEXT.title}>
              {list.map((favorite) => (
                <FavoriteLine key={favorite.id} favorite={favorite} />
              ))}
            </ul>
          )
        }
      </AsyncState>
    </>
  );
}

/** What a favorite line sells: the product, or the kept offer of a single (null when it is gone). */
function lineOf(favorite: Favorite) {
  const live = favorite.live;
  if (!live) return null;
  if (!favorite.offerId) return { priceCentavos: live.priceCentavos, stock: live.stock, soldOut: !live.available || isSoldOut(live) };
  const offer = favorite.offer;
  if (!offer) return null;
  return { priceCentavos: offer.priceCentavos, stock: offer.stock, soldOut: !live.available || offer.stock <= 0 };
}

function FavoriteLine({ favorite }: { favorite: Favorite }) {
  const line = lineOf(favorite);
  const soldOut = !line || line.soldOut;
  const offer = favorite.offer;
  const name = offer ? `${favorite.name} (${offer.label})` : favorite.name;
  const remove = async () => {
    const outcome = await toggleFavorite(favorite.productId, favorite.offerId);
    notify(outcome === 'removed' ? ACCOUNT_FAVORITES_TEXT.removed : ACCOUNT_FAVORITES_TEXT.removeFailed, outcome === 'removed' ? 'success' : 'error');
  };
  const add = () => {
    if (!line || soldOut) return;
    const item = { id: favorite.productId, name: favorite.name, priceCentavos: line.priceCentavos, stock: line.stock, image: favorite.image };
    const outcome = addToCart(offer ? { ...item, offerId: offer.id, offerLabel: offer.label } : item);
    showAddOutcome(name, outcome);
  };
  return (
    <li data-testid="favorite">
      {favorite.image ? (
        <Picture src={resolveImage(favorite.image, supabaseUrl())} frame={IMAGE_SLOTS.thumb48} box={[48, 48]} alt="" loading="lazy" />
      ) : (
        <span aria-hidden="true" />
      )}
      <span>
        <a href={productPath(favorite.productId)}>{favorite.name}</a>
        {offer && (
          <>
            <br />
            <span className="acct-favorite-offer">{offer.label}</span>
          </>
        )}
        <br />
        <span className="muted">{soldOut || !line ? PRODUCT_MESSAGES.soldOut : stockText(line.stock)}</span>
      </span>
      <span className="acct-favorite-actions">
        <strong>{line ? formatCentavos(line.priceCentavos) : '-'}</strong>
        <button type="button" className="btn btn-primary" disabled={soldOut} onClick={add}>
          {PRODUCT_BUY_BOX_TEXT.add}
        </button>
        <button type="button" className="btn btn-outline" onClick={() => void remove()} aria-label={ACCOUNT_FAVORITES_TEXT.removeLabel(name)}>
          {ACCOUNT_FAVORITES_TEXT.remove}
        </button>
        <PriceAlertToggle favoriteId={favorite.id} />
      </span>
    </li>
  );
}
