/**
 * Structured data and meta text of product pages, kept apart from the markup so they are tested.
 */
import { PRODUCT_SEO_TEXT } from '../i18n/product.ts';
import { centavosToDecimalString } from './money.ts';
import { isSoldOut, type Product } from './products.ts';
import { offerKey, offerLabel, offerPriceRange, type SingleOffer } from './singles.ts';

/** The fixed estimated release date every product page shows (30 May 2025). */
export const ESTIMATED_RELEASE = new Date(Date.UTC(2025, 4, 30));

// One formatter for every page: building an Intl formatter costs about 0.1 ms, which 100,000
// product pages would each pay.
const longDate = new Intl.DateTimeFormat('es-MX', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });

/** A date in long Mexican style, e.g. '30 de mayo de 2025'. */
export function formatLongDate(date: Date): string {
  return longDate.format(date);
}

/** schema.org availability of a product: sold out, preorder or in stock. */
export function availabilityOf(product: Pick<Product, 'stock' | 'preorder'>): string {
  if (isSoldOut(product)) return 'https://schema.org/OutOfStock';
  if (product.preorder) return 'https://schema.org/PreOrder';
  return 'https://schema.org/InStock';
}

/**
 * schema.org condition of a single card's offer: every raw copy left its pack (UsedCondition, NM
 * included), a damaged one is DamagedCondition, and a slab is a used card in a sealed case.
 */
export function offerItemCondition(offer: Pick<SingleOffer, 'condition'>): string {
  return offer.condition === 'DMG' ? 'https://schema.org/DamagedCondition' : 'https://schema.org/UsedCondition';
}

/** The address of a page with `?oferta=<key>`, the link that opens that offer. */
function offerUrl(pageUrl: string, key: string): string {
  const url = new URL(pageUrl);
  url.searchParams.set('oferta', key);
  return url.href;
}

/**
 * The `offers` of a single card: an AggregateOffer (lowest and highest price of the offers in stock,
 * or of all when none is, and how many there are) listing one Offer per offer, each with its own
 * link (`?oferta=`), price, availability and condition.
 */
export function singleOffersJsonLd(product: Pick<Product, 'id' | 'name' | 'available' | 'offers' | 'priceCentavos'>, pageUrl: string) {
  const inStock = product.offers.filter((offer) => offer.stock > 0);
  const range = offerPriceRange(inStock.length > 0 ? inStock : product.offers) ?? { low: product.priceCentavos, high: product.priceCentavos };
  return {
    '@type': 'AggregateOffer',
    url: pageUrl,
    priceCurrency: 'MXN',
    lowPrice: centavosToDecimalString(range.low),
    highPrice: centavosToDecimalString(range.high),
    offerCount: product.offers.length,
    availability: product.available && inStock.length > 0 ? 'https://schema.org/InStock' : 'https://schema.org/OutOfStock',
    offers: product.offers.map((offer) => {
      const key = offerKey(offer);
      const label = offerLabel(offer);
      return {
        '@type': 'Offer',
        url: offerUrl(pageUrl, key),
        name: `${product.name} · ${label}`,
        sku: `${product.id}-${key}`,
        price: centavosToDecimalString(offer.priceCentavos),
        priceCurrency: 'MXN',
        availability: product.available && offer.stock > 0 ? 'https://schema.org/InStock' : 'https://schema.org/OutOfStock',
        itemCondition: offerItemCondition(offer),
      };
    }),
  };
}

/** One step of the breadcrumb trail. */
export interface Crumb {
  name: string;
  href: string;
}

/**
 * JSON-LD graph with the Product and the BreadcrumbList of a product page. A sealed product has
 * one Offer; a single card an AggregateOffer with one Offer per offer (singleOffersJsonLd).
 */
export function productJsonLd(product: Product, options: { url: string; images: string[]; brand?: string; crumbs: Crumb[]; site: string }): string {
  const data = {
    '@context': 'https://schema.org',
    '@graph': [
      {
        '@type': 'Product',
        '@id': `${options.url}#producto`,
        name: product.name,
        sku: product.id,
        description: product.description || product.name,
        image: options.images,
        ...(options.brand ? { brand: { '@type': 'Brand', name: options.brand } } : {}),
        offers:
          product.offers.length > 0
            ? singleOffersJsonLd(product, options.url)
            : {
                '@type': 'Offer',
                url: options.url,
                price: centavosToDecimalString(product.priceCentavos),
                priceCurrency: 'MXN',
                availability: availabilityOf(product),
                itemCondition: 'https://schema.org/NewCondition',
              },
      },
      {
        '@type': 'BreadcrumbList',
        itemListElement: options.crumbs.map((crumb, index) => ({
          '@type': 'ListItem',
          position: index + 1,
          name: crumb.name,
          item: new URL(crumb.href, options.site).href,
        })),
      },
    ],
  };
  // '<' escaped so a product name can never close the script element.
  return JSON.stringify(data).replace(/</g, '\\u003c');
}

/** Meta description of a product page: its own text, cut at a word near 155 characters. */
export function productMetaDescription(product: Pick<Product, 'name' | 'description'>, priceText: string): string {
  const base = product.description.trim() || PRODUCT_SEO_TEXT.buyOnline(product.name);
  const text = PRODUCT_SEO_TEXT.metaDescription(product.name, priceText, base).replace(/\s+/g, ' ');
  if (text.length <= 155) return text;
  const cut = text.slice(0, 154);
  return `${cut.slice(0, cut.lastIndexOf(' ') > 100 ? cut.lastIndexOf(' ') : 154)}…`;
}
