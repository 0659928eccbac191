/**
 * The shop's identity, in one place: the header, footer, page titles and Open Graph tags, the
 * screens that name the shop, the server's pages and e-mails and the local stack's auth e-mails
 * all read it here.
 */
import { PRODUCT_BRAND_TEXT } from '../i18n/product.ts';

/** The shop's name (a brand, the same in every language), with its tagline and description from the catalogue. */
export const BRAND = {
  name: 'Cartas Mx',
  ...PRODUCT_BRAND_TEXT,
} as const;
