/**
 * Builds the seed: the SQL text of supabase/seed.sql (catalogue only, safe for any project), the
 * local-only demo accounts of supabase/local/seed/ and the SVG files of the storage buckets.
 * Pure apart from reading the catalogue modules, so tests can build it in memory.
 */
import { createHash } from 'node:crypto';
import bcrypt from 'bcryptjs';
import { collections, expansions, franchises, getCollection, isSinglesType, productTypes } from '~/domain/catalog.ts';
import { pricedLine } from '~/domain/money.ts';
import { computeOrderAmounts, type AppliedPromotion } from '~/domain/pricing.ts';
import { DEMO_ADDRESS_IDS, DEMO_ADMIN, DEMO_CUSTOMER, DEMO_CUSTOMER_ADDRESS_ID, DEMO_SHOPPER, DEMO_SUBSCRIBERS } from './constants.ts';
import { NEW_ARRIVAL_EXPANSIONS, demoProducts, productTypeKind, scaledProducts, type SeedProduct } from './products.ts';
import type { SeedOffer } from './singles.ts';
import * as sql from './sql.ts';
import { expansionSvg, productSvg, productTypeSvg } from './svg.ts';

/** A generated file: path relative to supabase/storage, and its content. */
export interface SeedImage {
  path: string;
  content: string;
}

/** A past order of the demo shopper. */
export interface SeedOrder {
  id: string;
  daysAgo: number;
  status: 'Pendiente' | 'Pagado' | 'Procesando' | 'Enviado' | 'Completado' | 'Cancelado' | 'Fallido' | 'Reembolsado';
  coupon: string | null;
  provider: 'stripe' | 'paypal';
  lines: { productId: string; price: number; quantity: number }[];
  subtotal: number;
  discount: number;
  shipping: number;
  total: number;
  addressId: string;
  /** Whose order it is (the demo shopper unless said otherwise). */
  userId?: string;
  /** 'Enviado' and 'Completado' orders: how they travel. */
  carrier?: string;
  trackingNumber?: string;
}

/** The whole seed. */
export interface Seed {
  /** supabase/seed.sql: the catalogue only, no accounts or personal data. */
  sql: string;
  /**
   * The local-only demo accounts (shopper and admin with addresses, rewards, coupons and orders),
   * applied by the embedded stack after supabase/seed.sql; never deployed.
   */
  demoSql: string;
  images: SeedImage[];
  products: SeedProduct[];
  orders: SeedOrder[];
}

/**
 * A bcrypt hash ($2b$, cost 10) with a salt derived from the e-mail, so regenerating the seed
 * gives the same file. Only for the public demo accounts.
 */
export function demoPasswordHash(email: string, password: string): string {
  const bytes = [...createHash('sha256').update(`tienda-demo:${email}`).digest().subarray(0, 16)];
  return bcrypt.hashSync(password, `$2b$10$${bcrypt.encodeBase64(bytes, 16)}`);
}

/**
 * A demo order's id. The shop shows an order as '#' + the last six characters of its id
 * (orderDisplayId), so those six are the order's number: 100001, 100002, … for the demo shopper,
 * 200001, … for the demo customer, never the same twice.
 */
function demoOrderId(group: string, number: number): string {
  return `c0ffee00-0000-4000-${group}-${String(number).padStart(12, '0')}`;
}

/** The seeded promotions (20261129013000_promotions.sql) the demo orders used, as the checkout prices them. */
const SEED_PROMOTIONS: Readonly<Record<string, AppliedPromotion>> = {
  MEKACAT10: { code: 'MEKACAT10', type: 'percent', value: 10 },
  ENVIOGRATIS: { code: 'ENVIOGRATIS', type: 'shipping', value: 0 },
};

const ORDER_PLAN: { daysAgo: number; status: SeedOrder['status']; coupon: string | null; lines: number }[] = [
  { daysAgo: 3, status: 'Pendiente', coupon: null, lines: 1 },
  { daysAgo: 9, status: 'Pagado', coupon: 'MEKACAT10', lines: 2 },
  { daysAgo: 17, status: 'Enviado', coupon: null, lines: 3 },
  { daysAgo: 26, status: 'Cancelado', coupon: null, lines: 1 },
  { daysAgo: 38, status: 'Completado', coupon: 'ENVIOGRATIS', lines: 2 },
  { daysAgo: 52, status: 'Completado', coupon: null, lines: 1 },
  { daysAgo: 67, status: 'Enviado', coupon: null, lines: 2 },
  { daysAgo: 81, status: 'Completado', coupon: 'MEKACAT10', lines: 3 },
  { daysAgo: 103, status: 'Cancelado', coupon: null, lines: 2 },
  { daysAgo: 128, status: 'Completado', coupon: null, lines: 1 },
  { daysAgo: 160, status: 'Pagado', coupon: null, lines: 2 },
];

/**
 * The demo shopper's order history. Products of the newest sets are left out, and each product
 * appears once with fewer units than its per-customer limit, so the shopper can still buy
 * everything the storefront features.
 */
export function demoOrders(products: readonly SeedProduct[]): SeedOrder[] {
  const pool = products.filter(
    (p) => p.limitPerCustomer >= 4 && !p.preorder && !isSinglesType(p.productTypeId) && !NEW_ARRIVAL_EXPANSIONS.includes(p.expansionId ?? ''),
  );
  let next = 0;
  return ORDER_PLAN.map((plan, i) => {
    const lines = Array.from({ length: plan.lines }, (_, j) => {
      const product = pool[(next++ * 7) % pool.length]!;
      return { productId: product.id, price: product.price, quantity: 1 + ((i + j) % 2) };
    });
    const amounts = computeOrderAmounts(lines.map(pricedLine), plan.coupon ? (SEED_PROMOTIONS[plan.coupon] ?? null) : null);
    return {
      id: demoOrderId('8000', 100_001 + i),
      daysAgo: plan.daysAgo,
      status: plan.status,
      coupon: amounts.promotion?.code ?? null,
      provider: i % 3 === 2 ? 'paypal' : 'stripe',
      lines,
      subtotal: amounts.subtotal,
      discount: amounts.discount,
      shipping: amounts.shipping,
      total: amounts.total,
      addressId: i % 4 === 3 ? DEMO_ADDRESS_IDS.office : DEMO_ADDRESS_IDS.home,
    };
  });
}

const CUSTOMER_ORDER_PLAN: { daysAgo: number; status: SeedOrder['status']; coupon: string | null; lines: number; carrier?: string }[] = [
  { daysAgo: 0, status: 'Pendiente', coupon: null, lines: 1 },
  { daysAgo: 1, status: 'Pagado', coupon: null, lines: 2 },
  { daysAgo: 2, status: 'Pagado', coupon: 'MEKACAT10', lines: 1 },
  { daysAgo: 3, status: 'Procesando', coupon: null, lines: 1 },
  { daysAgo: 5, status: 'Enviado', coupon: null, lines: 2, carrier: 'DHL' },
  { daysAgo: 7, status: 'Fallido', coupon: null, lines: 1 },
  { daysAgo: 9, status: 'Completado', coupon: 'ENVIOGRATIS', lines: 1, carrier: 'Estafeta' },
  { daysAgo: 12, status: 'Reembolsado', coupon: null, lines: 1 },
  { daysAgo: 14, status: 'Cancelado', coupon: null, lines: 1 },
  { daysAgo: 18, status: 'Pagado', coupon: null, lines: 3 },
  { daysAgo: 22, status: 'Enviado', coupon: null, lines: 1, carrier: '99minutos' },
  { daysAgo: 27, status: 'Completado', coupon: null, lines: 2, carrier: 'FedEx' },
];

/**
 * The second demo customer's orders: every status the back office handles, most in the last 30
 * days so 'Resumen' has a chart. Products come from the end of the pool, one unit each.
 */
export function customerOrders(products: readonly SeedProduct[]): SeedOrder[] {
  const pool = products.filter(
    (p) => p.limitPerCustomer >= 4 && !p.preorder && !isSinglesType(p.productTypeId) && !NEW_ARRIVAL_EXPANSIONS.includes(p.expansionId ?? ''),
  );
  let next = 0;
  return CUSTOMER_ORDER_PLAN.map((plan, i) => {
    const lines = Array.from({ length: plan.lines }, () => {
      const product = pool[pool.length - 1 - ((next++ * 5) % pool.length)]!;
      return { productId: product.id, price: product.price, quantity: 1 };
    });
    const amounts = computeOrderAmounts(lines.map(pricedLine), plan.coupon ? (SEED_PROMOTIONS[plan.coupon] ?? null) : null);
    return {
      id: demoOrderId('9000', 200_001 + i),
      daysAgo: plan.daysAgo,
      status: plan.status,
      coupon: amounts.promotion?.code ?? null,
      provider: i % 2 === 0 ? 'paypal' : 'stripe',
      lines,
      subtotal: amounts.subtotal,
      discount: amounts.discount,
      shipping: amounts.shipping,
      total: amounts.total,
      addressId: DEMO_CUSTOMER_ADDRESS_ID,
      userId: DEMO_CUSTOMER.id,
      carrier: plan.carrier,
      trackingNumber: plan.carrier ? `MX${String(7_340_000_000 + i * 7919)}` : undefined,
    };
  });
}

/** Reward points of paid, processing, shipped and completed orders: one per peso of subtotal - discount. */
function pointsOf(orders: readonly SeedOrder[]): number {
  return orders
    .filter((o) => ['Pagado', 'Procesando', 'Enviado', 'Completado'].includes(o.status))
    .reduce((sum, o) => sum + Math.max(0, Math.floor(o.subtotal - o.discount)), 0);
}

function catalogSql(): string[] {
  const out: string[] = ['-- Catalogue (src/domain/catalog.ts)'];
  out.push(
    `insert into public.franchises (id, name, logo) values\n${franchises
      .map((f) => `  (${sql.text(f.id)}, ${sql.text(f.name)}, ${sql.text(f.logo)})`)
      .join(',\n')};`,
  );
  out.push(
    `insert into public.collections (id, name, franchise_id) values\n${collections
      .map((c) => `  (${sql.text(c.id)}, ${sql.text(c.name)}, ${sql.text(c.franchiseId)})`)
      .join(',\n')};`,
  );
  out.push(
    `insert into public.expansions (id, name, franchise_id, collection_id, image, release_date) values\n${expansions
      .map(
        (e) =>
          `  (${sql.text(e.id)}, ${sql.text(e.name)}, ${sql.text(e.franchiseId)}, ${sql.text(e.collectionId)}, ${sql.text(e.image)}, ${sql.date(e.releaseDate)})`,
      )
      .join(',\n')};`,
  );
  out.push(
    `insert into public.product_types (id, name, franchise_id, image) values\n${productTypes
      .map((t) => `  (${sql.text(t.id)}, ${sql.text(t.name)}, ${sql.text(t.franchiseId)}, ${sql.text(t.image)})`)
      .join(',\n')};`,
  );
  return out;
}

function productsSql(products: readonly SeedProduct[]): string[] {
  const out: string[] = [`-- Products (${products.length})`];
  const columns =
    'id, name, description, price, original_price, discount, preorder, stock, limit_per_customer, available, release_date, image, images, tags, type, franchise_id, collection_id, expansion_id, product_type_id';
  for (let start = 0; start < products.length; start += 500) {
    const rows = products
      .slice(start, start + 500)
      .map(
        (p) =>
          `  (${[
            sql.text(p.id),
            sql.text(p.name),
            sql.text(p.description),
            sql.money(p.price),
            p.originalPrice === null ? 'null' : sql.money(p.originalPrice),
            sql.bool(p.discount),
            sql.bool(p.preorder),
            sql.int(p.stock),
            sql.int(p.limitPerCustomer),
            sql.bool(p.available),
            sql.date(p.releaseDate),
            sql.text(p.image),
            sql.textArray(p.images),
            sql.textArray(p.tags),
            sql.text(p.type),
            sql.text(p.franchiseId),
            sql.text(p.collectionId),
            sql.text(p.expansionId),
            sql.text(p.productTypeId),
          ].join(', ')})`,
      );
    out.push(`insert into public.products (${columns}) values\n${rows.join(',\n')};`);
  }
  return out;
}

/** A field of a packed single row: text without the separators the SQL splits on. */
function packed(value: string | number | null, separators: string): string {
  const text = value === null ? '' : String(value);
  for (const c of separators) if (text.includes(c)) throw new Error(`Dato de carta con '${c}': ${text}`);
  return text;
}

/** A single's offers packed in one text: 'condition,language,finish,price,original price,stock,grader,grade,certificate,image;…'. */
export function packOffers(offers: readonly SeedOffer[]): string {
  if (offers.some((o) => o.images.length > 1)) throw new Error('Una oferta de la semilla lleva una foto como mucho.');
  return offers
    .map((o) =>
      [
        o.condition,
        o.language,
        o.finish,
        sql.money(o.price),
        o.originalPrice === null ? null : sql.money(o.originalPrice),
        o.stock,
        o.gradingCompany,
        o.grade,
        o.certificateNumber,
        o.images[0] ?? null,
      ]
        .map((field) => packed(field, ',;'))
        .join(','),
    )
    .join(';');
}

/**
 * The printings and offers of the singles, after the products they belong to: one row per single
 * (product id, printing packed as 'set|number|rarity|English name|Spanish name', offers packed by
 * packOffers) that one statement per thousand singles unpacks into both tables. A row per offer
 * would be four times the literals; the local stack parses a whole seed file at once, and a
 * 100,000-product catalogue of single rows did not fit its memory. Offer ids are
 * md5('card_offers:' || product id || ':' || key)::uuid, as offerId in scripts/seed/singles.ts.
 */
function singlesSql(products: readonly SeedProduct[]): string[] {
  const singles = products.filter((p) => p.printing);
  const offerCount = singles.reduce((sum, p) => sum + (p.offers?.length ?? 0), 0);
  const out: string[] = [`-- Single cards: printings (${singles.length}) and their offers (${offerCount}), packed one row per single`];
  for (let start = 0; start < singles.length; start += 1000) {
    const rows = singles.slice(start, start + 1000).map((p) => {
      const pr = p.printing!;
      const printing = [pr.setCode, pr.collectorNumber, pr.rarity, pr.nameEn, pr.nameEs].map((field) => packed(field, '|')).join('|');
      return `  (${sql.text(p.id)}, ${sql.text(printing)}, ${sql.text(packOffers(p.offers ?? []))})`;
    });
    out.push(`with single (product_id, printing, offers) as (values
${rows.join(',\n')}
), printings as (
  insert into public.card_printings (product_id, franchise, expansion, collector_number, rarity, name_en, name_es)
  select s.product_id, p.franchise_id, split_part(s.printing, '|', 1), split_part(s.printing, '|', 2), split_part(s.printing, '|', 3),
    split_part(s.printing, '|', 4), nullif(split_part(s.printing, '|', 5), '')
  from single s join public.products p on p.id = s.product_id
)
insert into public.card_offers (id, product_id, condition, language, finish, price, original_price, stock, grading_company, grade, certificate_number, images, position)
select md5('card_offers:' || s.product_id || ':' || case when f[7] = '' then f[1] || '-' || f[2] || '-' || f[3] else lower(f[7] || '-' || f[9]) end)::uuid,
  s.product_id, nullif(f[1], '')::public.card_condition, f[2], f[3], f[4]::numeric, nullif(f[5], '')::numeric, f[6]::integer,
  nullif(f[7], '')::public.grading_company, nullif(f[8], '')::numeric, nullif(f[9], ''),
  case when f[10] = '' then '{}'::text[] else array[f[10]] end, (o.n - 1)::integer
from single s
  cross join lateral unnest(string_to_array(s.offers, ';')) with ordinality as o(packed, n)
  cross join lateral string_to_array(o.packed, ',') as f;`);
  }
  return out;
}

function userSql(user: typeof DEMO_SHOPPER | typeof DEMO_ADMIN | typeof DEMO_CUSTOMER, daysAgo: number): string[] {
  const meta = { username: user.username, name: user.name, lastname: user.lastname, phone: user.phone };
  const since = `now() - interval '${daysAgo} days'`;
  return [
    `insert into auth.users (id, aud, role, email, encrypted_password, email_confirmed_at, last_sign_in_at, raw_user_meta_data, raw_app_meta_data, created_at, updated_at)
values (${sql.text(user.id)}, 'authenticated', 'authenticated', ${sql.text(user.email)}, ${sql.text(demoPasswordHash(user.email, user.password))}, ${since}, now() - interval '1 day', ${sql.jsonb(meta)}, ${sql.jsonb({ provider: 'email', providers: ['email'] })}, ${since}, ${since});`,
    `insert into auth.identities (user_id, provider, provider_id, identity_data, email, created_at, updated_at)
values (${sql.text(user.id)}, 'email', ${sql.text(user.id)}, ${sql.jsonb({ sub: user.id, email: user.email, email_verified: true, phone_verified: false })}, ${sql.text(user.email)}, ${since}, ${since});`,
  ];
}

function accountsSql(orders: readonly SeedOrder[], customer: readonly SeedOrder[]): string[] {
  const out: string[] = ['-- Demo accounts (passwords in scripts/seed/constants.ts; the profile comes from the sign-up trigger)'];
  out.push(...userSql(DEMO_SHOPPER, 240), ...userSql(DEMO_ADMIN, 300), ...userSql(DEMO_CUSTOMER, 60));
  out.push(`update public.profiles set is_admin = true where id = ${sql.text(DEMO_ADMIN.id)};`);
  // The demo shopper's points are exactly what their paid orders earned (one per peso of
  // subtotal - discount, as mark_order_paid grants them); a test keeps DEMO_REWARD_POINTS equal.
  out.push(`update public.rewards set points = ${sql.int(pointsOf(orders))} where user_id = ${sql.text(DEMO_SHOPPER.id)};`);
  out.push(
    `insert into public.addresses (id, user_id, label, street, exterior_number, interior_number, neighborhood, municipality, city, state, zip, country, phone, is_default, created_at) values
  (${sql.text(DEMO_ADDRESS_IDS.home)}, ${sql.text(DEMO_SHOPPER.id)}, 'Casa', 'Av. Insurgentes Sur', '1602', '4B', 'Crédito Constructor', 'Benito Juárez', 'Ciudad de México', 'CDMX', '03940', 'México', '5512345678', true, now() - interval '230 days');`,
    `insert into public.addresses (id, user_id, label, street, exterior_number, interior_number, neighborhood, municipality, city, state, zip, country, phone, is_default, created_at) values
  (${sql.text(DEMO_ADDRESS_IDS.office)}, ${sql.text(DEMO_SHOPPER.id)}, 'Oficina', 'Av. Chapultepec', '480', 'Piso 12', 'Roma Norte', 'Cuauhtémoc', 'Ciudad de México', 'CDMX', '06700', 'México', '5512345678', false, now() - interval '120 days');`,
    `insert into public.addresses (user_id, label, street, exterior_number, interior_number, neighborhood, municipality, city, state, zip, country, phone, created_at) values
  (${sql.text(DEMO_ADMIN.id)}, 'Tienda', 'Av. Chapultepec', '15', null, 'Americana', 'Guadalajara', 'Guadalajara', 'Jalisco', '44160', 'México', '3312345678', now() - interval '290 days');`,
  );
  out.push(
    `insert into public.coupons (user_id, code, description, kind, value, expires_at) values
  (${sql.text(DEMO_SHOPPER.id)}, 'MEKACAT10', '10% de descuento en tu próxima compra', 'percent', 10, now() + interval '60 days');`,
  );
  out.push(
    `update public.rewards set points = ${sql.int(pointsOf(customer))} where user_id = ${sql.text(DEMO_CUSTOMER.id)};`,
    `insert into public.addresses (id, user_id, label, street, exterior_number, interior_number, neighborhood, municipality, city, state, zip, country, phone, is_default, created_at) values
  (${sql.text(DEMO_CUSTOMER_ADDRESS_ID)}, ${sql.text(DEMO_CUSTOMER.id)}, 'Casa', 'Av. Constitución', '2050', null, 'Obispado', 'Monterrey', 'Monterrey', 'Nuevo León', '64060', 'México', '8112345678', true, now() - interval '60 days');`,
  );
  out.push(`-- Order history of the demo shopper (${orders.length} orders, amounts from src/domain/pricing.ts)`);
  for (const order of orders) {
    const created = `now() - interval '${order.daysAgo} days'`;
    const paid = ['Pagado', 'Procesando', 'Enviado', 'Completado'].includes(order.status);
    const points = paid ? Math.max(0, Math.floor(order.subtotal - order.discount)) : 0;
    // A paid order keeps its own copy of the address it ships to, as mark_order_paid makes it.
    const copy = paid
      ? `(select jsonb_build_object('label', a.label, 'street', a.street, 'city', a.city, 'state', a.state, 'zip', a.zip, 'country', a.country) from public.addresses a where a.id = ${sql.text(order.addressId)})`
      : 'null';
    out.push(
      `insert into public.orders (id, user_id, created_at, status, paid_at, shipping_address_id, shipping_address, subtotal, discount, shipping, total, coupon_code, payment_provider, payment_ref, expires_at, points_awarded) values
  (${sql.text(order.id)}, ${sql.text(DEMO_SHOPPER.id)}, ${created}, ${sql.text(order.status)}, ${paid ? `${created} + interval '4 minutes'` : 'null'}, ${sql.text(order.addressId)}, ${copy}, ${sql.money(order.subtotal)}, ${sql.money(order.discount)}, ${sql.money(order.shipping)}, ${sql.money(order.total)}, ${sql.text(order.coupon)}, ${paid ? sql.text(order.provider) : 'null'}, ${paid ? sql.text(`demo_${order.provider}_${order.id.slice(-4)}`) : 'null'}, null, ${sql.int(points)});`,
      `insert into public.order_items (order_id, product_id, quantity, price) values\n${order.lines
        .map((l) => `  (${sql.text(order.id)}, ${sql.text(l.productId)}, ${sql.int(l.quantity)}, ${sql.money(l.price)})`)
        .join(',\n')};`,
    );
  }
  out.push(
    `-- Newsletter subscribers for the back office's 'Boletín'
insert into public.newsletter_subscribers (email, created_at) values
${DEMO_SUBSCRIBERS.map((email, i) => `  (${sql.text(email)}, now() - interval '${i * 4 + 1} days')`).join(',\n')};`,
  );
  out.push(`-- Orders of the demo customer (${customer.length}, one or more in every status) for the back office`);
  for (const order of customer) {
    const created = `now() - interval '${order.daysAgo} days' - interval '${(order.daysAgo * 37) % 600} minutes'`;
    const paid = ['Pagado', 'Procesando', 'Enviado', 'Completado', 'Reembolsado'].includes(order.status);
    const shipped = ['Enviado', 'Completado'].includes(order.status);
    const ref = `demo_${order.provider}_cliente_${order.id.slice(-4)}`;
    const points = ['Pagado', 'Procesando', 'Enviado', 'Completado'].includes(order.status) ? Math.max(0, Math.floor(order.subtotal - order.discount)) : 0;
    out.push(
      `insert into public.orders (id, user_id, created_at, status, paid_at, shipping_address_id, shipping_address, subtotal, discount, shipping, total, coupon_code, payment_provider, payment_ref, expires_at, carrier, tracking_number, shipped_at, completed_at, refunded_at, refund_ref, points_awarded) values
  (${sql.text(order.id)}, ${sql.text(DEMO_CUSTOMER.id)}, ${created}, ${sql.text(order.status)}, ${paid ? `${created} + interval '4 minutes'` : 'null'}, ${sql.text(order.addressId)}, ${order.status === 'Pendiente' ? 'null' : sql.jsonb({ label: 'Casa', street: 'Av. Constitución 2050, Col. Obispado', city: 'Monterrey', state: 'Nuevo León', zip: '64060', country: 'México' })}, ${sql.money(order.subtotal)}, ${sql.money(order.discount)}, ${sql.money(order.shipping)}, ${sql.money(order.total)}, ${sql.text(order.coupon)}, ${paid ? sql.text(order.provider) : 'null'}, ${paid ? sql.text(ref) : 'null'}, null, ${shipped ? sql.text(order.carrier ?? null) : 'null'}, ${shipped ? sql.text(order.trackingNumber ?? null) : 'null'}, ${shipped ? `${created} + interval '1 day'` : 'null'}, ${order.status === 'Completado' ? `${created} + interval '3 days'` : 'null'}, ${order.status === 'Reembolsado' ? `${created} + interval '1 day'` : 'null'}, ${order.status === 'Reembolsado' ? sql.text(`re_${ref}`) : 'null'}, ${sql.int(points)});`,
      `insert into public.order_items (order_id, product_id, quantity, price) values\n${order.lines
        .map((l) => `  (${sql.text(order.id)}, ${sql.text(l.productId)}, ${sql.int(l.quantity)}, ${sql.money(l.price)})`)
        .join(',\n')};`,
      // The history the order would have had, in place of the one event its insert recorded.
      `delete from public.order_events where order_id = ${sql.text(order.id)};`,
      `insert into public.order_events (order_id, created_at, from_status, to_status, actor, note) values\n${historyOf(order)
        .map(
          (e) =>
            `  (${sql.text(order.id)}, ${created} + interval '${e.minutes} minutes', ${sql.text(e.from)}, ${sql.text(e.to)}, ${e.admin ? sql.text(DEMO_ADMIN.id) : 'null'}, ${sql.text(e.note)})`,
        )
        .join(',\n')};`,
    );
  }
  return out;
}

/** The status changes a demo order went through: minutes after creation, from, to, by an admin, note. */
function historyOf(order: SeedOrder): Array<{ minutes: number; from: string | null; to: string; admin: boolean; note: string | null }> {
  const created = { minutes: 0, from: null, to: 'Pendiente', admin: false, note: null };
  const paid = { minutes: 4, from: 'Pendiente', to: 'Pagado', admin: false, note: `Pago confirmado por ${order.provider}` };
  const shipped = { minutes: 24 * 60, from: 'Pagado', to: 'Enviado', admin: true, note: `Enviado por ${order.carrier}, guía ${order.trackingNumber}` };
  switch (order.status) {
    case 'Pendiente':
      return [created];
    case 'Pagado':
      return [created, paid];
    case 'Procesando':
      return [created, paid, { minutes: 60, from: 'Pagado', to: 'Procesando', admin: true, note: 'Preparando el envío' }];
    case 'Enviado':
      return [created, paid, shipped];
    case 'Completado':
      return [created, paid, shipped, { minutes: 3 * 24 * 60, from: 'Enviado', to: 'Completado', admin: true, note: 'Pedido entregado' }];
    case 'Fallido':
      return [created, { minutes: 5, from: 'Pendiente', to: 'Fallido', admin: false, note: 'El pago fue rechazado' }];
    case 'Reembolsado':
      return [created, paid, { minutes: 24 * 60, from: 'Pagado', to: 'Reembolsado', admin: false, note: 'Reembolsado por la tienda' }];
    default:
      return [created, { minutes: 30, from: 'Pendiente', to: 'Cancelado', admin: false, note: 'La reserva expiró' }];
  }
}

function imagesFor(products: readonly SeedProduct[]): SeedImage[] {
  const images: SeedImage[] = [];
  for (const product of products) {
    for (const [i, image] of product.images.entries()) {
      if (!image.startsWith('products/')) continue;
      const view = ((i % 4) + 1) as 1 | 2 | 3 | 4;
      const caption = product.expansionId ? (expansions.find((e) => e.id === product.expansionId)?.name ?? '') : '';
      images.push({
        path: image,
        content: productSvg({ id: product.id, name: product.name, caption, franchiseId: product.franchiseId, kind: product.kind, view }),
      });
    }
    // A slab's own photo: the card in its graded case.
    for (const offer of product.offers ?? []) {
      for (const image of offer.images) {
        if (!image.startsWith('products/')) continue;
        const caption = `${offer.gradingCompany} ${offer.grade} · ${offer.certificateNumber}`;
        images.push({ path: image, content: productSvg({ id: image, name: product.name, caption, franchiseId: product.franchiseId, kind: 'slab', view: 1 }) });
      }
    }
  }
  for (const expansion of expansions) {
    images.push({
      path: expansion.image,
      content: expansionSvg({
        id: expansion.id,
        name: expansion.name,
        franchiseId: expansion.franchiseId,
        year: expansion.releaseDate?.slice(0, 4),
        collection: getCollection(expansion.collectionId)?.name ?? '',
      }),
    });
  }
  for (const type of productTypes) {
    images.push({
      path: type.image,
      content: productTypeSvg({ id: type.id, name: type.name, franchiseId: type.franchiseId, kind: productTypeKind(type.id) }),
    });
  }
  return images;
}

/**
 * The demo accounts as one guarded block: a database that already holds them (seeded before they
 * moved out of supabase/seed.sql) keeps its data instead of failing on duplicate keys.
 */
function demoAccountsSql(orders: readonly SeedOrder[], customer: readonly SeedOrder[]): string {
  const statements = accountsSql(orders, customer);
  const body = statements.map((st) => (st.startsWith('--') ? `  ${st}` : `  ${st.replace(/\n/g, '\n  ')}`)).join('\n\n');
  return `do $demo$
begin
  if exists (select 1 from auth.users where id = ${sql.text(DEMO_SHOPPER.id)} or email in (${sql.text(DEMO_SHOPPER.email)}, ${sql.text(DEMO_ADMIN.email)}, ${sql.text(DEMO_CUSTOMER.email)})) then
    raise notice 'Las cuentas de demostración ya existen; no se cargan de nuevo.';
    return;
  end if;

${body}
end
$demo$;`;
}

/** Builds the seed with the demo catalogue, or a larger catalogue of `productCount` products. */
export function buildSeed(options: { productCount?: number } = {}): Seed {
  const products = options.productCount === undefined ? demoProducts() : scaledProducts(options.productCount);
  const orders = demoOrders(products);
  const parts = [
    '-- Catalogue of the shop (franchises, collections, expansions, product types, products, and the\n' +
      '-- printings and offers of the single cards).\n' +
      '-- GENERATED by scripts/seed.ts (npm run seed); do not edit by hand.\n' +
      '-- No accounts, passwords or personal data: the demo accounts live in\n' +
      '-- supabase/local/seed/ and only the local stack loads them.',
    ...catalogSql(),
    ...productsSql(products),
    ...singlesSql(products),
  ];
  const demoParts = [
    '-- Demo accounts of the LOCAL stack only: shopper and admin with public passwords, their\n' +
      '-- addresses, rewards, coupon and orders. GENERATED by scripts/seed.ts (npm run seed); do not\n' +
      '-- edit by hand. Applied by packages/local-supabase after supabase/seed.sql (the orders point at\n' +
      '-- its products); never push it to a hosted project.',
    demoAccountsSql(orders, customerOrders(products)),
  ];
  return {
    sql: `${parts.join('\n\n')}\n`,
    demoSql: `${demoParts.join('\n\n')}\n`,
    images: imagesFor(products),
    products,
    orders,
  };
}
