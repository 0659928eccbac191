/**
 * Row-level security and grants, table by table and role by role, acting the way PostgREST does:
 * `begin; set local role …; set_config('request.jwt.claims', …, true); <statement>; rollback`.
 *
 * Each row of the matrix is one statement about user A's data (or the catalogue); the columns
 * say what happens for each caller:
 *   ok     the statement succeeds and touches / returns the row
 *   none   the statement succeeds but RLS hides the row (0 rows)
 *   denied the database refuses (SQLSTATE 42501: missing grant, RLS check or order guard)
 *   refused a shop function refuses with its own message (SQLSTATE P0001)
 *   —      not applicable (the service role has no user of its own)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PGlite } from '@electric-sql/pglite';
import { attempt, commit, migratedPglite, type ApiRole } from './support.ts';

const A = '00000000-0000-4000-a000-00000000000a';
const B = '00000000-0000-4000-a000-00000000000b';
const ADMIN = '00000000-0000-4000-a000-0000000000ad';
const NO_PROFILE = '00000000-0000-4000-a000-0000000000cc';
const ADDR_A1 = '00000000-0000-4000-b000-0000000000a1';
const ADDR_A2 = '00000000-0000-4000-b000-0000000000a2';
const ADDR_B1 = '00000000-0000-4000-b000-0000000000b1';
const ORDER_A = '00000000-0000-4000-c000-0000000000a1';
const ORDER_B = '00000000-0000-4000-c000-0000000000b1';
const ALERT_A = '00000000-0000-4000-d000-0000000000a1';
const SALE_A = '00000000-0000-4000-f000-0000000000a1';

type Expect = 'ok' | 'none' | 'denied' | 'refused' | '—';
type Actor = 'anon' | 'userA' | 'userB' | 'admin' | 'service';
const ACTORS: Actor[] = ['anon', 'userA', 'userB', 'admin', 'service'];
const ACTOR_ROLE: Record<Actor, [ApiRole, string | undefined]> = {
  anon: ['anon', undefined],
  userA: ['authenticated', A],
  userB: ['authenticated', B],
  admin: ['authenticated', ADMIN],
  service: ['service_role', undefined],
};

interface Row {
  table: string;
  what: string;
  sql: string;
  expect: Record<Actor, Expect>;
}

/** One matrix row; the five outcomes are in the order anon, user A, user B, admin, service. */
function row(table: string, what: string, sql: string, outcomes: [Expect, Expect, Expect, Expect, Expect]): Row {
  return { table, what, sql, expect: Object.fromEntries(ACTORS.map((a, i) => [a, outcomes[i]])) as Record<Actor, Expect> };
}

const NEW_PRODUCT = `insert into public.products (id, name, price, franchise_id) values ('pk-new', 'Nuevo', 10, 'pokemon') returning id`;
const NEW_ADDRESS_FOR_SELF = `insert into public.addresses (user_id, street, city, state, zip) values (auth.uid(), 'Calle 1', 'León', 'Guanajuato', '37000') returning id`;

// prettier-ignore
const MATRIX: Row[] = [
  //                                                                                                        anon      user A    user B    admin     service
  row('products', 'read a product', `select id from public.products where id = 'pk-test'`,                  ['ok',     'ok',     'ok',     'ok',     'ok']),
  row('products', 'insert a product', NEW_PRODUCT,                                                             ['denied', 'denied', 'denied', 'ok',     'ok']),
  row('products', 'change a price', `update public.products set price = 1 where id = 'pk-test' returning id`,  ['denied', 'none',   'none',   'ok',     'ok']),
  row('products', 'delete a product', `delete from public.products where id = 'pk-test' returning id`,        ['denied', 'none',   'none',   'ok',     'ok']),
  row('franchises', 'read', `select id from public.franchises where id = 'pokemon'`,                           ['ok',     'ok',     'ok',     'ok',     'ok']),
  row('franchises', 'rename', `update public.franchises set name = 'X' where id = 'pokemon' returning id`,     ['denied', 'none',   'none',   'ok',     'ok']),
  row('expansions', 'read', `select id from public.expansions where id = 'exp-test'`,                          ['ok',     'ok',     'ok',     'ok',     'ok']),
  row('expansions', 'insert', `insert into public.expansions (id, name, franchise_id) values ('exp-new', 'N', 'pokemon') returning id`, ['denied', 'denied', 'denied', 'ok', 'ok']),
  row('product_types', 'read', `select id from public.product_types where id = 'type-test'`,                   ['ok',     'ok',     'ok',     'ok',     'ok']),
  row('product_types', 'delete', `delete from public.product_types where id = 'type-unused' returning id`,     ['denied', 'none',   'none',   'ok',     'ok']),
  row('collections', 'read', `select id from public.collections where id = 'col-test'`,                        ['ok',     'ok',     'ok',     'ok',     'ok']),
  row('card_printings', 'read a printing', `select product_id from public.card_printings where product_id = 'pk-test-single'`, ['ok', 'ok',   'ok',     'ok',     'ok']),
  row('card_printings', 'change a rarity', `update public.card_printings set rarity = 'rare' where product_id = 'pk-test-single' returning product_id`, ['denied', 'none', 'none', 'ok', 'ok']),
  row('card_offers', 'read an offer', `select id from public.card_offers where product_id = 'pk-test-single'`,        ['ok',     'ok',     'ok',     'ok',     'ok']),
  row('card_offers', 'add an offer', `insert into public.card_offers (product_id, condition, language, finish, price) values ('pk-test-single', 'LP', 'es', 'holo', 1) returning id`, ['denied', 'denied', 'denied', 'ok', 'ok']),
  row('card_offers', 'change an offer’s price', `update public.card_offers set price = 1 where product_id = 'pk-test-single' returning id`, ['denied', 'none', 'none', 'ok', 'ok']),
  row('card_offers', 'delete an offer', `delete from public.card_offers where product_id = 'pk-test-single' returning id`, ['denied', 'none', 'none', 'ok', 'ok']),

  row('profiles', "read A's profile", `select id from public.profiles where id = '${A}'`,                      ['denied', 'ok',     'none',   'none',   'ok']),
  row('profiles', "edit A's name", `update public.profiles set name = 'Zoe' where id = '${A}' returning id`,   ['denied', 'ok',     'none',   'none',   'ok']),
  row('profiles', 'make A admin', `update public.profiles set is_admin = true where id = '${A}' returning id`,  ['denied', 'denied', 'denied', 'denied', 'ok']),
  row('profiles', "set A's Stripe customer", `update public.profiles set stripe_customer_id = 'cus_x' where id = '${A}' returning id`, ['denied', 'denied', 'denied', 'denied', 'ok']),
  row('profiles', "delete A's profile", `delete from public.profiles where id = '${A}' returning id`,          ['denied', 'denied', 'denied', 'denied', 'ok']),
  row('profiles', 'create a profile for a user without one', `insert into public.profiles (id, name) values ('${NO_PROFILE}', 'C') returning id`, ['denied', 'denied', 'denied', 'denied', 'ok']),
  row('profiles', 'create own profile as admin', `insert into public.profiles (id, is_admin) values (auth.uid(), true) returning id`, ['denied', 'denied', 'denied', 'denied', '—']),

  row('addresses', "read A's address", `select id from public.addresses where id = '${ADDR_A1}'`,              ['denied', 'ok',     'none',   'none',   'ok']),
  row('addresses', 'add an address for oneself', NEW_ADDRESS_FOR_SELF,                                         ['denied', 'ok',     'ok',     'ok',     '—']),
  row('addresses', 'add an address for A', `insert into public.addresses (user_id, street, city, state, zip) values ('${A}', 'Calle 2', 'León', 'Gto', '37000') returning id`, ['denied', 'ok', 'denied', 'denied', 'ok']),
  row('addresses', "edit A's address", `update public.addresses set city = 'Puebla' where id = '${ADDR_A1}' returning id`, ['denied', 'ok', 'none', 'none', 'ok']),
  row('addresses', "give A's address to B", `update public.addresses set user_id = '${B}' where id = '${ADDR_A1}' returning id`, ['denied', 'denied', 'none', 'none', 'denied']),
  row('addresses', "delete A's second address", `delete from public.addresses where id = '${ADDR_A2}' returning id`, ['denied', 'ok', 'none', 'none', 'ok']),

  row('orders', "read A's order", `select id from public.orders where id = '${ORDER_A}'`,                      ['denied', 'ok',     'none',   'ok',     'ok']),
  row('orders', "set A's carrier directly", `update public.orders set carrier = 'DHL', tracking_number = '1' where id = '${ORDER_A}' returning id`, ['denied', 'denied', 'denied', 'denied', 'ok']),
  row('orders', 'insert an order for A directly', `insert into public.orders (user_id, total, subtotal) values ('${A}', 1, 1) returning id`, ['denied', 'denied', 'denied', 'denied', 'ok']),
  row('orders', "ship A's order to A's address", `update public.orders set shipping_address_id = '${ADDR_A2}' where id = '${ORDER_A}' returning id`, ['denied', 'ok', 'none', 'none', 'ok']),
  row('orders', "ship A's order to B's address", `update public.orders set shipping_address_id = '${ADDR_B1}' where id = '${ORDER_A}' returning id`, ['denied', 'denied', 'none', 'none', 'ok']),
  row('orders', "mark A's order paid", `update public.orders set status = 'Pagado', paid_at = now() where id = '${ORDER_A}' returning id`, ['denied', 'denied', 'denied', 'denied', 'ok']),
  row('orders', "lower A's order total", `update public.orders set total = 1, subtotal = 1, shipping = 0, discount = 0 where id = '${ORDER_A}' returning id`, ['denied', 'denied', 'denied', 'denied', 'ok']),
  row('orders', "delete A's order", `delete from public.orders where id = '${ORDER_A}' returning id`,          ['denied', 'denied', 'denied', 'denied', 'ok']),

  row('order_items', "read A's order items", `select id from public.order_items where order_id = '${ORDER_A}'`, ['denied', 'ok',    'none',   'ok',     'ok']),
  row('order_items', "add an item to A's order", `insert into public.order_items (order_id, product_id, quantity, price) values ('${ORDER_A}', 'pk-test', 1, 0) returning id`, ['denied', 'denied', 'denied', 'denied', 'ok']),
  row('order_items', "change a price in A's order", `update public.order_items set price = 0 where order_id = '${ORDER_A}' returning id`, ['denied', 'denied', 'denied', 'denied', 'ok']),
  row('order_items', "remove A's order items", `delete from public.order_items where order_id = '${ORDER_A}' returning id`, ['denied', 'denied', 'denied', 'denied', 'ok']),

  row('rewards', "read A's points", `select points from public.rewards where user_id = '${A}'`,                ['denied', 'ok',     'none',   'none',   'ok']),
  row('rewards', "raise A's points", `update public.rewards set points = 99999 where user_id = '${A}' returning user_id`, ['denied', 'denied', 'denied', 'denied', 'ok']),
  row('coupons', "read A's coupons", `select id from public.coupons where user_id = '${A}'`,                   ['denied', 'ok',     'none',   'none',   'ok']),
  row('coupons', 'grant A a coupon', `insert into public.coupons (user_id, code) values ('${A}', 'GRATIS') returning id`, ['denied', 'denied', 'denied', 'denied', 'ok']),

  row('newsletter_subscribers', 'subscribe', `insert into public.newsletter_subscribers (email) values ('nuevo@correo.mx')`, ['ok', 'ok', 'ok', 'ok', 'ok']),
  row('newsletter_subscribers', 'read the subscribers', `select email from public.newsletter_subscribers`,     ['denied', 'denied', 'denied', 'denied', 'ok']),
  row('newsletter_subscribers', 'unsubscribe someone', `delete from public.newsletter_subscribers returning id`, ['denied', 'denied', 'denied', 'denied', 'ok']),
  row('mail_outbox', 'queue an e-mail', `insert into public.mail_outbox (to_address, subject, html, text_body, kind) values ('a@correo.mx', 'Asunto', '<p>Hola</p>', 'Hola', 'order_paid') returning id`, ['denied', 'denied', 'denied', 'denied', 'ok']),
  row('mail_outbox', 'claim the due e-mails', `select count(*) from public.mail_outbox_claim(10)`,            ['denied', 'denied', 'denied', 'denied', 'ok']),
  row('order_events', "read A's order history", `select id from public.order_events where order_id = '${ORDER_A}'`, ['denied', 'ok', 'none', 'ok', 'ok']),
  row('order_events', 'write a history entry', `insert into public.order_events (order_id, to_status) values ('${ORDER_A}', 'Enviado') returning id`, ['denied', 'denied', 'denied', 'denied', 'ok']),
  row('payment_attempts', 'read the open payments', `select id from public.payment_attempts`,                  ['denied', 'none',   'none',   'ok',     'ok']),
  row('payment_attempts', 'record a payment', `insert into public.payment_attempts (order_id, provider, ref) values ('${ORDER_A}', 'stripe', 'pi_new') returning id`, ['denied', 'denied', 'denied', 'denied', 'ok']),
  row('payment_refunds', 'read the refunds', `select id from public.payment_refunds`,                          ['denied', 'none',   'none',   'ok',     'ok']),
  row('payment_refunds', 'mark a refund done', `update public.payment_refunds set status = 'succeeded' returning id`, ['denied', 'denied', 'denied', 'denied', 'ok']),
  row('store_credit_accounts', "read A's balance", `select user_id from public.store_credit_accounts where user_id = '${A}'`, ['denied', 'ok', 'none', 'ok', 'ok']),
  row('store_credit_accounts', "raise A's balance", `update public.store_credit_accounts set balance = 99999 where user_id = '${A}' returning user_id`, ['denied', 'denied', 'denied', 'denied', 'denied']),
  row('store_credit_entries', "read A's movements", `select id from public.store_credit_entries where user_id = '${A}'`, ['denied', 'ok', 'none', 'ok', 'ok']),
  row('store_credit_entries', 'add a credit directly', `insert into public.store_credit_entries (user_id, amount, balance_after, reason) values ('${A}', 100, 100, 'adjustment') returning id`, ['denied', 'denied', 'denied', 'denied', 'denied']),
  row('points_rate', 'read the points rate', `select id from public.points_rate`,                               ['ok',     'ok',     'ok',     'ok',     'ok']),
  row('points_rate', 'change the points rate', `update public.points_rate set pesos_per_block = 20 returning id`, ['denied', 'none',   'none',   'ok',     'ok']),
  row('points_rate', 'add a second rate', `insert into public.points_rate (id) values (true) returning id`,   ['denied', 'denied', 'denied', 'denied', 'denied']),
  row('points_rate_changes', "read the rate's history", `select id from public.points_rate_changes`,         ['denied', 'none',   'none',   'ok',     'ok']),
  row('points_rate_changes', 'write history directly', `insert into public.points_rate_changes (old_points_per_block, old_pesos_per_block, old_min_points, points_per_block, pesos_per_block, min_points) values (1, 1, 1, 1, 1, 1) returning id`, ['denied', 'denied', 'denied', 'denied', 'denied']),
  row('points_redemptions', "read A's redemptions", `select id from public.points_redemptions where user_id = '${A}'`, ['denied', 'ok', 'none', 'ok', 'ok']),
  row('points_redemptions', 'add a redemption directly', `insert into public.points_redemptions (user_id, request_id, points, credit, points_per_block, pesos_per_block, points_after) values ('${A}', gen_random_uuid(), 100, 1000, 100, 10, 0) returning id`, ['denied', 'denied', 'denied', 'denied', 'denied']),
  row('functions', 'redeem_points (A has 200 points)', `select public.redeem_points(100, gen_random_uuid())`, ['denied', 'ok',     'refused', 'refused', 'denied']),
  row('favorites', "read A's favorites", `select id from public.favorites where user_id = '${A}'`,            ['denied', 'ok',     'none',   'none',   'ok']),
  row('favorites', 'add a favorite for oneself', `insert into public.favorites (product_id) values ('pk-test-single') returning id`, ['denied', 'ok', 'ok', 'ok', '—']),
  row('favorites', 'add a favorite for A', `insert into public.favorites (user_id, product_id) values ('${A}', 'pk-test-single') returning id`, ['denied', 'denied', 'denied', 'denied', 'ok']),
  row('favorites', "move A's favorite", `update public.favorites set product_id = 'pk-test-single' where user_id = '${A}' returning id`, ['denied', 'denied', 'denied', 'denied', 'ok']),
  row('favorites', "remove A's favorite", `delete from public.favorites where user_id = '${A}' returning id`,  ['denied', 'ok',     'none',   'none',   'ok']),
  row('favorites', "turn on a price alert on A's favorite", `update public.favorites set price_alert = true where user_id = '${A}' returning id`, ['denied', 'ok', 'none', 'none', 'ok']),
  row('favorites', "set the price A's alert compares with", `update public.favorites set price_alert_base = 1 where user_id = '${A}' returning id`, ['denied', 'denied', 'denied', 'denied', 'ok']),
  row('preorder_campaigns', 'read a published campaign', `select id from public.preorder_campaigns where product_id = 'pk-test'`, ['ok', 'ok', 'ok', 'ok', 'ok']),
  row('preorder_campaigns', 'change the allocation directly', `update public.preorder_campaigns set allocation = 1 returning id`, ['denied', 'denied', 'denied', 'denied', 'ok']),
  row('preorder_lines', "read A's preorder line", `select order_id from public.preorder_lines where user_id = '${A}'`, ['denied', 'ok', 'none', 'ok', 'ok']),
  row('preorder_lines', "mark A's line allocated directly", `update public.preorder_lines set status = 'allocated' returning order_id`, ['denied', 'denied', 'denied', 'denied', 'ok']),
  row('preorder_arrivals', 'read the arrivals', `select id from public.preorder_arrivals`,                     ['denied', 'none',   'none',   'ok',     'ok']),
  row('preorder_events', 'read the preorder history', `select id from public.preorder_events`,                ['denied', 'none',   'none',   'ok',     'ok']),
  row('functions', 'admin_save_preorder_campaign', `select public.admin_save_preorder_campaign('pk-test', null, '2027-02-12', now(), now() + interval '2 days', 0, 2, 2)`, ['denied', 'denied', 'denied', 'ok', 'denied']),
  row('functions', 'admin_preorder_campaigns', `select * from public.admin_preorder_campaigns()`,            ['denied', 'denied', 'denied', 'ok',     'denied']),
  row('functions', 'preorder_availability', `select * from public.preorder_availability('pk-test')`,         ['ok',     'ok',     'ok',     'ok',     'ok']),
  row('functions', 'preorder_register_arrival', `select public.preorder_register_arrival((select id from public.preorder_campaigns where product_id = 'pk-test'), 1, 'llegada-rls-1', null)`, ['denied', 'denied', 'denied', 'denied', 'ok']),
  row('promotions', 'read a promotion', `select id from public.promotions where code = 'MEKACAT10'`,           ['denied', 'none',   'none',   'ok',     'ok']),
  row('promotions', 'add a promotion directly', `insert into public.promotions (code, type, value) values ('DIRECTA', 'percent', 50) returning id`, ['denied', 'denied', 'denied', 'denied', 'ok']),
  row('promotions', 'raise a discount directly', `update public.promotions set value = 90 where code = 'MEKACAT10' returning id`, ['denied', 'denied', 'denied', 'denied', 'ok']),
  row('promotion_redemptions', "read A's use of a promotion", `select id from public.promotion_redemptions where order_id = '${ORDER_A}'`, ['denied', 'none', 'none', 'ok', 'ok']),
  row('promotion_redemptions', 'forget a use directly', `delete from public.promotion_redemptions returning id`, ['denied', 'denied', 'denied', 'denied', 'ok']),
  row('promotion_events', 'read the promotions history', `select id from public.promotion_events`,          ['denied', 'none',   'none',   'ok',     'ok']),
  row('promotion_check_failures', "read A's unknown coupon checks", `select id from public.promotion_check_failures`, ['denied', 'none', 'none', 'ok', 'ok']),
  row('promotion_check_failures', 'forget the unknown coupon checks directly', `delete from public.promotion_check_failures returning id`, ['denied', 'denied', 'denied', 'denied', 'ok']),
  row('functions', 'check_promotion', `select public.check_promotion('MEKACAT10', '[{"product_id":"pk-test","quantity":1}]')`, ['ok', 'ok', 'ok', 'ok', 'ok']),
  row('functions', 'admin_save_promotion', `select public.admin_save_promotion(null, '{"code":"NUEVA","type":"shipping"}')`, ['denied', 'denied', 'denied', 'ok', 'denied']),
  row('functions', 'admin_set_promotion_active', `select public.admin_set_promotion_active((select id from public.promotions where code = 'ENVIOGRATIS'), false)`, ['denied', 'denied', 'denied', 'ok', 'denied']),
  row('functions', 'admin_promotions', `select * from public.admin_promotions()`,                             ['denied', 'denied', 'denied', 'ok',     'denied']),
  row('stock_alerts', "read A's alerts", `select id from public.stock_alerts where user_id = '${A}'`,          ['denied', 'ok',     'none',   'none',   'ok']),
  row('stock_alerts', 'ask for an alert for oneself', `insert into public.stock_alerts (product_id) values ('pk-out-2') returning id`, ['denied', 'ok', 'ok', 'ok', '—']),
  row('stock_alerts', 'ask for an alert for A', `insert into public.stock_alerts (user_id, product_id) values ('${A}', 'pk-out-2') returning id`, ['denied', 'denied', 'denied', 'denied', 'ok']),
  row('stock_alerts', "read A's cancel token", `select cancel_token from public.stock_alerts where user_id = '${A}'`, ['denied', 'denied', 'denied', 'denied', 'ok']),
  row('stock_alerts', "cancel A's alert directly", `update public.stock_alerts set cancelled_at = now() where user_id = '${A}' returning id`, ['denied', 'denied', 'denied', 'denied', 'ok']),
  row('functions', 'cancel_stock_alert', `select 1 where public.cancel_stock_alert('${ALERT_A}')`,             ['denied', 'ok',     'none',   'none',   '—']),
  row('functions', 'cancel_stock_alert_by_token', `select public.cancel_stock_alert_by_token('x')`,            ['denied', 'denied', 'denied', 'denied', 'ok']),
  row('functions', 'stock_alert_by_token', `select * from public.stock_alert_by_token('x')`,                   ['denied', 'denied', 'denied', 'denied', 'none']),
  row('functions', 'alert_mail_due', `select * from public.alert_mail_due(10)`,                                ['denied', 'denied', 'denied', 'denied', 'ok']),
  row('functions', 'admin_stock_demand', `select * from public.admin_stock_demand()`,                          ['denied', 'denied', 'denied', 'ok',     'denied']),
  row('functions', 'set_my_newsletter', `select public.set_my_newsletter(true)`,                               ['denied', 'ok',     'ok',     'ok',     'denied']),
  row('restock_events', 'read the restocks', `select id from public.restock_events`,                           ['denied', 'denied', 'denied', 'denied', 'ok']),
  row('alert_mail_queue', 'read the alert e-mails owed', `select id from public.alert_mail_queue`,             ['denied', 'denied', 'denied', 'denied', 'ok']),
  row('notification_settings', "read A's settings", `select user_id from public.notification_settings where user_id = '${A}'`, ['denied', 'ok', 'none', 'none', 'ok']),
  row('notification_settings', 'create own settings', `insert into public.notification_settings (restock_alerts) values (false) on conflict (user_id) do nothing returning user_id`, ['denied', 'none', 'ok', 'ok', '—']),
  row('notification_settings', "change A's settings", `update public.notification_settings set price_alerts = false where user_id = '${A}' returning user_id`, ['denied', 'ok', 'none', 'none', 'ok']),
  row('notification_settings', "give A's settings to B", `update public.notification_settings set user_id = '${B}' where user_id = '${A}' returning user_id`, ['denied', 'denied', 'denied', 'denied', 'ok']),
  row('tax_profiles', "read A's tax data", `select user_id from public.tax_profiles where user_id = '${A}'`, ['denied', 'ok',     'none',   'none',   'ok']),
  row('tax_profiles', 'save own tax data', `insert into public.tax_profiles (rfc, legal_name, tax_regime, tax_zip, invoice_email) values ('GODE561231GR8', 'Emilio Gómez Díaz', '612', '06700', 'e@correo.mx') on conflict (user_id) do nothing returning user_id`, ['denied', 'none', 'ok', 'ok', '—']),
  row('tax_profiles', 'save tax data for another user', `insert into public.tax_profiles (user_id, rfc, legal_name, tax_regime, tax_zip, invoice_email) values ('${NO_PROFILE}', 'GODE561231GR8', 'X', '612', '06700', 'e@correo.mx') returning user_id`, ['denied', 'denied', 'denied', 'denied', 'ok']),
  row('tax_profiles', "change A's razón social", `update public.tax_profiles set legal_name = 'Otra' where user_id = '${A}' returning user_id`, ['denied', 'ok', 'none', 'none', 'ok']),
  row('tax_profiles', "give A's tax data to B", `update public.tax_profiles set user_id = '${B}' where user_id = '${A}' returning user_id`, ['denied', 'denied', 'denied', 'denied', 'ok']),
  row('tax_profiles', "delete A's tax data", `delete from public.tax_profiles where user_id = '${A}' returning user_id`, ['denied', 'ok', 'none', 'none', 'ok']),
  row('order_chargebacks', 'read the chargebacks', `select id from public.order_chargebacks`,                ['denied', 'none',   'none',   'ok',     'ok']),
  row('order_chargebacks', 'close a chargeback directly', `update public.order_chargebacks set status = 'credit_kept' returning id`, ['denied', 'denied', 'denied', 'denied', 'denied']),
  row('functions', 'record_chargeback', `select public.record_chargeback('${ORDER_A}', 'stripe', 'pi_a', 'dp_new')`, ['denied', 'denied', 'denied', 'denied', 'ok']),
  row('functions', 'admin_resolve_chargeback', `select public.admin_resolve_chargeback((select id from public.order_chargebacks limit 1), false)`, ['denied', 'denied', 'denied', 'ok', 'denied']),
  row('sweeper_leases', 'take the sweeper lease', `insert into public.sweeper_leases (name, holder, expires_at) values ('x', 'y', now()) returning name`, ['denied', 'denied', 'denied', 'denied', 'ok']),
  row('rebuild_jobs', 'queue a rebuild directly', `insert into public.rebuild_jobs (site) values ('x') returning id`, ['denied', 'denied', 'denied', 'denied', 'ok']),
  row('rebuild_change_keys', 'mark a change as asked for', `insert into public.rebuild_change_keys (site, key) values ('x', 'y') returning key`, ['denied', 'denied', 'denied', 'denied', 'ok']),
  row('rebuild_admin_requests', "record an admin's request", `insert into public.rebuild_admin_requests (admin_id) values ('${A}') returning id`, ['denied', 'denied', 'denied', 'denied', 'ok']),
  row('functions', 'request_catalogue_rebuild', `select public.request_catalogue_rebuild('x', 'admin')`,    ['denied', 'denied', 'denied', 'denied', 'ok']),
  row('functions', 'claim_catalogue_rebuild', `select public.claim_catalogue_rebuild('x', 'y', 5)`,         ['denied', 'denied', 'denied', 'denied', 'ok']),
  row('functions', 'take_rebuild_request', `select public.take_rebuild_request('${A}', 6, 3600)`,          ['denied', 'denied', 'denied', 'denied', 'ok']),
  row('postal_settlements', 'read the postal-code catalogue', `select id from public.postal_settlements where postal_code = '06700'`, ['denied', 'denied', 'denied', 'denied', 'ok']),
  row('postal_settlements', 'add a settlement', `insert into public.postal_settlements (postal_code, settlement, settlement_type, municipality, state, state_key, municipality_key, settlement_key) values ('06701', 'X', 'Colonia', 'Cuauhtémoc', 'Ciudad de México', '09', '015', '9999') returning id`, ['denied', 'denied', 'denied', 'denied', 'ok']),
  row('postal_settlements', 'empty the catalogue', `delete from public.postal_settlements returning id`,      ['denied', 'denied', 'denied', 'denied', 'ok']),
  row('functions', 'postal_code_lookup', `select 1 where public.postal_code_lookup('06700') is not null`,   ['ok',     'ok',     'ok',     'ok',     'ok']),

  row('storage.objects', 'read a product image', `select name from storage.objects where bucket_id = 'products'`, ['ok', 'ok',     'ok',     'ok',     'ok']),
  row('storage.objects', 'upload a product image', `insert into storage.objects (bucket_id, name) values ('products', 'nuevo.svg') returning id`, ['denied', 'denied', 'denied', 'ok', 'ok']),
  row('storage.objects', 'replace a product image', `update storage.objects set metadata = '{}' where bucket_id = 'products' returning id`, ['none', 'none', 'none', 'ok', 'ok']),
  row('storage.objects', 'delete a product image', `delete from storage.objects where bucket_id = 'products' returning id`, ['none', 'none', 'none', 'ok', 'ok']),

  row('functions', 'create_order', `select public.create_order('[{"product_id":"pk-test","quantity":1}]'::jsonb)`, ['denied', 'ok', 'ok', 'ok', 'denied']),
  row('functions', 'mark_order_paid', `select public.mark_order_paid('${ORDER_A}', 'stripe', 'pi_1', 19900, 'mxn')`,         ['denied', 'denied', 'denied', 'denied', 'ok']),
  row('functions', 'cancel_expired_orders (internal)', `select public.cancel_expired_orders()`,            ['denied', 'denied', 'denied', 'denied', 'denied']),
  row('functions', 'release_expired_orders', `select public.release_expired_orders()`,                         ['denied', 'denied', 'denied', 'denied', 'ok']),
  row('functions', 'sweep_expired_orders', `select public.sweep_expired_orders('test', 1)`,                   ['denied', 'denied', 'denied', 'denied', 'ok']),
  row('functions', 'claim_refund', `select public.claim_refund('${ORDER_A}', 'stripe', 'pi_claim', 1, 'late_payment')`, ['denied', 'denied', 'denied', 'denied', 'ok']),
  row('functions', 'complete_refund', `select public.complete_refund(gen_random_uuid(), 're_x')`,              ['denied', 'denied', 'denied', 'denied', 'refused']),
  row('functions', 'admin_set_order_status (cancel pending A)', `select public.admin_set_order_status('${ORDER_A}', 'Cancelado')`, ['denied', 'denied', 'denied', 'ok', 'denied']),
  row('functions', 'admin_set_order_status (ship a pending order)', `select public.admin_set_order_status('${ORDER_A}', 'Enviado', 'DHL', '123')`, ['denied', 'denied', 'denied', 'refused', 'denied']),
  row('functions', 'admin_orders', `select id from public.admin_orders()`,                                     ['denied', 'denied', 'denied', 'ok',     'denied']),
  row('functions', 'admin_summary', `select public.admin_summary()`,                                           ['denied', 'denied', 'denied', 'ok',     'denied']),
  row('functions', "cancel A's order", `select public.cancel_order('${ORDER_A}')`,                              ['denied', 'ok',     'refused', 'refused', 'refused']),
  row('buylist_settings', 'read the buylist rules', `select id from public.buylist_settings`,                ['ok',     'ok',     'ok',     'ok',     'ok']),
  row('buylist_settings', 'change the saldo bonus', `update public.buylist_settings set credit_bonus_percent = 30 returning id`, ['denied', 'none', 'none', 'ok', 'ok']),
  row('buylist_entries', 'read the published buylist', `select id from public.buylist_entries where product_id = 'pk-test-single'`, ['ok', 'ok', 'ok', 'ok', 'ok']),
  row('buylist_entries', 'buy a printing in another language', `insert into public.buylist_entries (product_id, language, wanted) values ('pk-test-single', 'en', 3) returning id`, ['denied', 'denied', 'denied', 'ok', 'ok']),
  row('buylist_entries', 'change how many the shop wants', `update public.buylist_entries set wanted = 9 returning id`, ['denied', 'none', 'none', 'ok', 'ok']),
  row('buylist_entries', 'free the reserved copies directly', `update public.buylist_entries set reserved = 0 returning id`, ['denied', 'denied', 'denied', 'denied', 'ok']),
  row('buylist_items', 'read the buylist with its prices', `select entry_id from public.buylist_items where product_id = 'pk-test-single'`, ['ok', 'ok', 'ok', 'ok', 'ok']),
  row('buylist_sell_list_items', "read A's sell list", `select id from public.buylist_sell_list_items where user_id = '${A}'`, ['denied', 'ok', 'none', 'none', 'ok']),
  row('buylist_sell_list_items', 'add to one\'s own sell list', `insert into public.buylist_sell_list_items (product_id, condition, language, finish, quantity) values ('pk-test-single', 'LP', 'en', 'holo', 1) returning id`, ['denied', 'ok', 'ok', 'ok', '—']),
  row('buylist_sell_list_items', "add to A's sell list", `insert into public.buylist_sell_list_items (user_id, product_id, condition, language, finish, quantity) values ('${A}', 'pk-test-single', 'LP', 'en', 'holo', 1) returning id`, ['denied', 'denied', 'denied', 'denied', 'ok']),
  row('buylist_sell_list_items', "change A's quantity", `update public.buylist_sell_list_items set quantity = 2 where user_id = '${A}' returning id`, ['denied', 'ok', 'none', 'none', 'ok']),
  row('buylist_sell_list_items', "remove A's line", `delete from public.buylist_sell_list_items where user_id = '${A}' returning id`, ['denied', 'ok', 'none', 'none', 'ok']),
  row('buylist_submissions', "read A's submission", `select id from public.buylist_submissions where id = '${SALE_A}'`, ['denied', 'ok', 'none', 'ok', 'ok']),
  row('buylist_submissions', "mark A's submission paid directly", `update public.buylist_submissions set status = 'pagada' where id = '${SALE_A}' returning id`, ['denied', 'denied', 'denied', 'denied', 'ok']),
  row('buylist_submission_lines', "read A's submitted cards", `select id from public.buylist_submission_lines where submission_id = '${SALE_A}'`, ['denied', 'ok', 'none', 'ok', 'ok']),
  row('buylist_submission_lines', "raise a line's price directly", `update public.buylist_submission_lines set unit_cash = 9999 returning id`, ['denied', 'denied', 'denied', 'denied', 'ok']),
  row('buylist_payouts', "read A's payout", `select id from public.buylist_payouts where submission_id = '${SALE_A}'`, ['denied', 'ok', 'none', 'ok', 'ok']),
  row('buylist_payouts', 'raise a payout directly', `update public.buylist_payouts set amount = 9999 returning id`, ['denied', 'denied', 'denied', 'denied', 'ok']),
  row('buylist_events', "read A's submission history", `select id from public.buylist_events where submission_id = '${SALE_A}'`, ['denied', 'ok', 'none', 'ok', 'ok']),
  row('buylist_events', 'erase the history', `delete from public.buylist_events returning id`,                ['denied', 'denied', 'denied', 'denied', 'ok']),
  row('buylist_settings', "publish the shop's receiving address", `update public.buylist_settings set ship_name = 'Tienda', ship_street = 'Calle 1', ship_colonia = 'Centro', ship_zip = '06000', ship_municipio = 'Cuauhtémoc', ship_state = 'Ciudad de México' returning id`, ['denied', 'none', 'none', 'ok', 'ok']),
  row('buylist_rule_events', "read the buylist rules' history", `select id from public.buylist_rule_events`,   ['denied', 'none',   'none',   'ok',     'ok']),
  row('buylist_rule_events', 'write the history directly', `insert into public.buylist_rule_events (subject, action, changes) values ('settings', 'updated', '{}') returning id`, ['denied', 'denied', 'denied', 'denied', 'denied']),
  row('buylist_rule_events', 'erase the history', `delete from public.buylist_rule_events returning id`,      ['denied', 'denied', 'denied', 'denied', 'denied']),
  row('functions', 'admin_buylist_entries', `select count(*) from public.admin_buylist_entries()`,           ['denied', 'denied', 'denied', 'ok',     'denied']),
  row('functions', 'submit_buylist', `select public.submit_buylist(gen_random_uuid(), '[{"productId":"pk-test-single","condition":"NM","language":"es","finish":"holo","quantity":1}]', 'saldo')`, ['denied', 'ok', 'ok', 'ok', 'refused']),
  row('functions', 'admin_buylist_receive', `select public.admin_buylist_receive('${SALE_A}')`,               ['denied', 'denied', 'denied', 'ok',     'denied']),
  row('functions', 'release_expired_buylist_submissions', `select public.release_expired_buylist_submissions()`, ['denied', 'denied', 'denied', 'denied', 'ok']),
  row('functions', 'clabe_is_valid', `select public.clabe_is_valid('002010077777777771')`,                  ['ok',     'ok',     'ok',     'ok',     'ok']),
  row('invoices', "read A's factura", `select id from public.invoices where order_id = '${ORDER_A}'`,          ['denied', 'ok',     'none',   'ok',     'ok']),
  row('invoices', "change A's factura", `update public.invoices set status = 'cancelled' where order_id = '${ORDER_A}' returning id`, ['denied', 'denied', 'denied', 'denied', 'denied']),
  row('invoices', 'insert a factura', `insert into public.invoices (kind, order_id, user_id, customer, payment_form, concepts, subtotal, iva, total, provider) values ('order', '${ORDER_B}', auth.uid(), '{}', '04', '[{}]', 171.55, 27.45, 199, 'simulated') returning id`, ['denied', 'denied', 'denied', 'denied', 'denied']),
  row('invoice_events', "read A's factura's events", `select e.id from public.invoice_events e join public.invoices i on i.id = e.invoice_id where i.order_id = '${ORDER_A}'`, ['denied', 'ok', 'none', 'ok', 'ok']),
  row('invoice_orders', "read a factura global's orders", `select order_id from public.invoice_orders where order_id = '${ORDER_B}'`, ['denied', 'none', 'none', 'ok', 'ok']),
  row('functions', 'request_order_invoice', `select public.request_order_invoice('${A}', '${ORDER_A}', 'clave-rls-1', '04', '[]', 'simulated')`, ['denied', 'denied', 'denied', 'denied', 'refused']),
];

let db: PGlite;

async function setup(): Promise<void> {
  const users = [
    [A, 'a@correo.mx', 'usuarioa'],
    [B, 'b@correo.mx', 'usuariob'],
    [ADMIN, 'admin@correo.mx', 'jefa'],
    [NO_PROFILE, 'c@correo.mx', 'c'],
  ];
  const statements = [
    ...users.map(
      ([id, email, username]) =>
        `insert into auth.users (id, email, raw_user_meta_data) values ('${id}', '${email}', '{"username":"${username}","name":"N","lastname":"L"}')`,
    ),
    `delete from public.profiles where id = '${NO_PROFILE}'`,
    `update public.profiles set is_admin = true where id = '${ADMIN}'`,
    `insert into public.franchises (id, name) values ('pokemon', 'Pokémon')`,
    `insert into public.collections (id, name, franchise_id) values ('col-test', 'Colección', 'pokemon')`,
    `insert into public.expansions (id, name, franchise_id, collection_id) values ('exp-test', 'Expansión', 'pokemon', 'col-test')`,
    `insert into public.product_types (id, name, franchise_id) values ('type-test', 'Tipo', 'pokemon'), ('type-unused', 'Sin uso', 'pokemon')`,
    `insert into public.products (id, name, price, stock, limit_per_customer, franchise_id, expansion_id, product_type_id)
       values ('pk-test', 'Producto de prueba', 100, 50, 10, 'pokemon', 'exp-test', 'type-test'),
              ('pk-test-single', 'Carta de prueba', 100, 0, 10, 'pokemon', 'exp-test', 'type-test')`,
    // A single card of its own: an order line of a single needs an offer, and the order rows below are sealed.
    `insert into public.card_printings (product_id, expansion, collector_number, rarity) values ('pk-test-single', 'sv08', '199/165', 'hyper-rare')`,
    `insert into public.card_offers (product_id, condition, language, finish, price, stock) values ('pk-test-single', 'NM', 'es', 'holo', 100, 1)`,
    `insert into public.addresses (id, user_id, street, city, state, zip, created_at) values
       ('${ADDR_A1}', '${A}', 'Calle A1', 'Monterrey', 'Nuevo León', '64000', now() - interval '2 days')`,
    `insert into public.addresses (id, user_id, street, city, state, zip) values ('${ADDR_A2}', '${A}', 'Calle A2', 'Monterrey', 'Nuevo León', '64000')`,
    `insert into public.addresses (id, user_id, street, city, state, zip) values ('${ADDR_B1}', '${B}', 'Calle B1', 'Mérida', 'Yucatán', '97000')`,
    `insert into public.orders (id, user_id, subtotal, discount, shipping, total, expires_at) values
       ('${ORDER_A}', '${A}', 100, 0, 99, 199, now() + interval '30 minutes'),
       ('${ORDER_B}', '${B}', 100, 0, 99, 199, now() + interval '30 minutes')`,
    `insert into public.order_items (order_id, product_id, quantity, price) values ('${ORDER_A}', 'pk-test', 1, 100), ('${ORDER_B}', 'pk-test', 1, 100)`,
    `insert into public.payment_attempts (order_id, provider, ref) values ('${ORDER_A}', 'stripe', 'pi_a')`,
    `insert into public.payment_refunds (order_id, provider, payment_ref, amount, reason) values ('${ORDER_A}', 'stripe', 'pi_a_late', 199, 'late_payment')`,
    `select public.store_credit_post('${A}', 500, 'adjustment')`,
    `update public.rewards set points = 200 where user_id = '${A}'`,
    `insert into public.points_redemptions (user_id, request_id, points, credit, points_per_block, pesos_per_block, points_after) values ('${A}', gen_random_uuid(), 100, 1000, 100, 10, 200)`,
    `insert into public.points_rate_changes (old_points_per_block, old_pesos_per_block, old_min_points, points_per_block, pesos_per_block, min_points) values (100, 10, 100, 100, 10, 100)`,
    `insert into public.order_chargebacks (order_id, provider, payment_ref, dispute_ref, credit_held) values ('${ORDER_A}', 'stripe', 'pi_a', 'dp_a', 5)`,
    `insert into public.coupons (user_id, code) values ('${A}', 'MEKACAT10'), ('${B}', 'MEKACAT10')`,
    `insert into public.favorites (user_id, product_id) values ('${A}', 'pk-test')`,
    `insert into public.promotion_redemptions (promotion_id, order_id, user_id, code, discount)
       select id, '${ORDER_A}', '${A}', code, 10 from public.promotions where code = 'MEKACAT10'`,
    `insert into public.promotion_events (promotion_id, action) select id, 'created' from public.promotions`,
    `insert into public.promotion_check_failures (caller, code) values ('user:${A}', 'ADIVINA')`,
    `insert into public.preorder_campaigns (product_id, release_date, opens_at, closes_at, per_customer_limit, per_order_limit)
       values ('pk-test', '2027-02-12', now() - interval '1 day', now() + interval '1 day', 2, 2)`,
    `insert into public.preorder_lines (order_id, campaign_id, user_id, product_id, quantity)
       select '${ORDER_A}', id, '${A}', 'pk-test', 1 from public.preorder_campaigns where product_id = 'pk-test'`,
    `insert into public.preorder_arrivals (campaign_id, idempotency_key, quantity) select id, 'llegada-rls-0', 0 from public.preorder_campaigns`,
    `insert into public.preorder_events (campaign_id, to_status) select id, 'saved' from public.preorder_campaigns`,
    `insert into public.products (id, name, price, stock, franchise_id) values ('pk-out', 'Agotado', 100, 0, 'pokemon'), ('pk-out-2', 'Agotado 2', 100, 0, 'pokemon')`,
    `insert into public.stock_alerts (id, user_id, product_id) values ('${ALERT_A}', '${A}', 'pk-out')`,
    `insert into public.notification_settings (user_id) values ('${A}')`,
    `insert into public.tax_profiles (user_id, rfc, legal_name, tax_regime, tax_zip, invoice_email) values ('${A}', 'EKU9003173C9', 'ESCUELA KEMPER URGATE', '601', '42501', 'a@correo.mx')`,
    `insert into public.restock_events (product_id, units, cap) values ('pk-out', 1, 3)`,
    `insert into public.alert_mail_queue (kind, user_id, product_id, favorite_id, old_price, new_price)
       select 'price_drop', user_id, product_id, id, 100, 90 from public.favorites where user_id = '${A}'`,
    `insert into public.newsletter_subscribers (email) values ('ya@correo.mx')`,
    `insert into public.buylist_entries (product_id, wanted, nm_price) values ('pk-test-single', 50, 200)`,
    `insert into public.buylist_sell_list_items (user_id, product_id, condition, language, finish, quantity) values ('${A}', 'pk-test-single', 'NM', 'es', 'holo', 1)`,
    `insert into public.buylist_submissions (id, user_id, request_id, payout, credit_bonus_percent, submitted_cash, submitted_credit, expires_at)
       values ('${SALE_A}', '${A}', gen_random_uuid(), 'saldo', 25, 200, 250, now() + interval '14 days')`,
    `insert into public.buylist_submission_lines (submission_id, position, entry_id, product_id, name, collector_number, condition, language, finish, quantity, nm_price, unit_cash, unit_credit)
       select '${SALE_A}', 1, id, product_id, 'Carta de prueba', '199/165', 'NM', 'es', 'holo', 1, 200, 200, 250 from public.buylist_entries`,
    `insert into public.buylist_payouts (submission_id, user_id, method, amount, status) values ('${SALE_A}', '${A}', 'transferencia', 200, 'pendiente')`,
    `insert into public.buylist_events (submission_id, action, to_status) values ('${SALE_A}', 'submitted', 'por_recibir')`,
    `insert into public.postal_settlements (postal_code, settlement, settlement_type, municipality, state, city, state_key, municipality_key, settlement_key)
       values ('06700', 'Roma Norte', 'Colonia', 'Cuauhtémoc', 'Ciudad de México', 'Ciudad de México', '09', '015', '0001')`,
    `insert into storage.objects (bucket_id, name) values ('products', 'pk-test-1.svg')`,
    `insert into public.invoices (kind, order_id, user_id, customer, payment_form, concepts, subtotal, iva, total, provider)
       values ('order', '${ORDER_A}', '${A}', '{}', '04', '[{}]', 171.55, 27.45, 199, 'simulated')`,
    `with g as (insert into public.invoices (kind, customer, payment_form, concepts, subtotal, iva, total, period_year, period_month, provider)
       values ('global', '{}', '01', '[{}]', 171.55, 27.45, 199, 2026, 1, 'simulated') returning id)
     insert into public.invoice_orders (invoice_id, order_id, total) select id, '${ORDER_B}', 199 from g`,
  ];
  for (const statement of statements) {
    const outcome = await commit(db, 'postgres', undefined, statement);
    if (!outcome.ok) throw new Error(`${statement}: ${outcome.error?.message}`);
  }
}

beforeAll(async () => {
  db = await migratedPglite();
  await setup();
});

afterAll(async () => {
  await db?.close();
});

describe('row-level security matrix', () => {
  for (const entry of MATRIX) {
    it(`${entry.table}: ${entry.what}`, async () => {
      const actual: Record<string, string> = {};
      const expected: Record<string, string> = {};
      for (const actor of ACTORS) {
        if (entry.expect[actor] === '—') continue;
        const [role, sub] = ACTOR_ROLE[actor];
        const outcome = await attempt(db, role, sub, entry.sql);
        let got: string;
        if (outcome.ok) got = outcome.affected > 0 ? 'ok' : 'none';
        // Only a permission refusal counts as 'denied'; any other error is a broken case.
        else if (outcome.error?.code === '42501') got = 'denied';
        else if (outcome.error?.code === 'P0001') got = 'refused';
        else got = `error ${outcome.error?.code}: ${outcome.error?.message}`;
        actual[actor] = got;
        expected[actor] = entry.expect[actor];
      }
      expect(actual).toEqual(expected);
    });
  }
});

describe('row-level security coverage', () => {
  it('is enabled on every table of the public schema', async () => {
    const { rows } = await db.query<{ relname: string; relrowsecurity: boolean }>(
      `select c.relname, c.relrowsecurity from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = 'public' and c.relkind = 'r' order by 1`,
    );
    expect(rows.length).toBeGreaterThanOrEqual(12);
    expect(rows.filter((r) => !r.relrowsecurity).map((r) => r.relname)).toEqual([]);
  });

  it('gives every table in the matrix at least one case', async () => {
    const { rows } = await db.query<{ relname: string }>(
      `select c.relname from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = 'public' and c.relkind = 'r'`,
    );
    const covered = new Set(MATRIX.map((r) => r.table));
    expect(rows.map((r) => r.relname).filter((t) => !covered.has(t))).toEqual([]);
  });

  it('pins search_path on every security definer function', async () => {
    const { rows } = await db.query<{ proname: string }>(
      `select p.proname from pg_proc p join pg_namespace n on n.oid = p.pronamespace
        where n.nspname = 'public' and p.prosecdef
          and not exists (select 1 from unnest(coalesce(p.proconfig, '{}')) c where c like 'search_path=%')`,
    );
    expect(rows).toEqual([]);
  });

  it('lets nobody but the service role truncate a table (truncate ignores RLS)', async () => {
    for (const role of ['anon', 'authenticated'] as const) {
      const outcome = await attempt(db, role, role === 'anon' ? undefined : A, 'truncate public.orders cascade');
      expect(outcome.error?.code, role).toBe('42501');
    }
  });

  it('lets a user read the orders another user cannot, through the same request shape', async () => {
    const own = await attempt<{ id: string }>(db, 'authenticated', B, 'select id from public.orders');
    expect(own.rows.map((r) => r.id)).toEqual([ORDER_B]);
  });
});
