/**
 * Structured data and meta text of product pages, kept apart from the markup so they are tested.
 */
import { centavosToDecimalString } from './money.ts';
import { isSoldOut, type Product } from './products.ts';

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

/** One step of the breadcrumb trail. */
export interface Crumb {
  name: string;
  href: string;
}

/** JSON-LD graph with the Product (and its Offer) and the BreadcrumbList of a product page. */
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
        offers: {
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
  const base = product.description.trim() || `Compra ${product.name} en línea.`;
  const text = `${product.name} por ${priceText}. ${base}`.replace(/\s+/g, ' ');
  if (text.length <= 155) return text;
  const cut = text.slice(0, 154);
  return `${cut.slice(0, cut.lastIndexOf(' ') > 100 ? cut.lastIndexOf(' ') : 154)}…`;
}
