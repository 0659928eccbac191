/**
 * The shop's texts in Spanish (México), every one the interface and the e-mails show: one module
 * per feature, all exported here. Import from the feature's module (`~/i18n/checkout`) so a page's
 * scripts carry only the texts they use; this index is the whole catalogue, and two of its modules
 * cannot export the same name (it would not compile). Each text is typed by its `as const` object;
 * a text with a value in it is a small function.
 */
export * from './account';
export * from './addresses';
export * from './admin';
export * from './alerts';
export * from './api';
export * from './auth';
export * from './buylist';
export * from './buylist-editor';
export * from './cart';
export * from './catalog';
export * from './checkout';
export * from './common';
export * from './credit-notes';
export * from './drops';
export * from './favorites';
export * from './invoices';
export * from './mail';
export * from './media';
export * from './orders';
export * from './payments';
export * from './points';
export * from './preorders';
export * from './product';
export * from './promotions';
export * from './search';
export * from './sepomex';
export * from './storefront';
export * from './tax-data';
export * from './validation';
