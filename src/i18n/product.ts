/** The product page's buy box, offers and singles, and the product's own texts (SEO, brand, images). */
export {};
