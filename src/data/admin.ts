/**
 * What the back office reads and writes, one module per resource under ./admin/. Reads go to
 * Supabase with the admin's own session (row-level security and the admin-only functions decide);
 * order actions, refunds, the newsletter and rebuilds go through the shop's /api/admin endpoints
 * (./api.ts) with the admin's token.
 */
export * from './admin/summary.ts';
export * from './admin/orders.ts';
export * from './admin/rebuild.ts';
export * from './admin/newsletter.ts';
export * from './admin/products.ts';
