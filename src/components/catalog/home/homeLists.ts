/**
 * Which products the home sliders show.
 */
import { discountPercent, isListed, type Product } from '../../../domain/products.ts';

/** Products the home page lists, each list possibly empty (then its slider is not shown). */
export interface HomeLists {
  /** Discounted new arrivals ('Ofertas Especiales'). */
  specialOffers: Product[];
  destinedRivals: Product[];
  journeyTogether: Product[];
  newArrivals: Product[];
}

const isNewArrival = (product: Product) => product.type === 'newArrivals';
const isDiscounted = (product: Product) => product.discount || discountPercent(product) !== null;

/** Splits the catalogue into the home page's lists (at most `limit` products each). */
export function homeLists(products: readonly Product[], limit = 12): HomeLists {
  const listed = products.filter(isListed);
  return {
    specialOffers: listed.filter((product) => isNewArrival(product) && isDiscounted(product)).slice(0, limit),
    destinedRivals: listed.filter((product) => product.expansion_id === 'destined-rivals').slice(0, limit),
    journeyTogether: listed.filter((product) => product.expansion_id === 'journey-together').slice(0, limit),
    newArrivals: listed.filter(isNewArrival).slice(0, limit),
  };
}
