/**
 * A heart: a button with the product it keeps (`data-favorite-offer` too for one offer of a
 * single). A module of its own so the header's script on every page, which needs only this,
 * does not carry the hearts' rules (./favorite-hearts.ts).
 */
export const HEART = 'button[data-favorite-product]';
