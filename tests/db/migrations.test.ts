/**
 * The migration runner and the demo seed on an in-memory PGlite: local bootstrap, migrations and
 * seed apply from scratch, a second run applies nothing, a new migration applies alone, and the
 * seed holds the catalogue, images and demo accounts the storefront and tests rely on.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import bcrypt from 'bcryptjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PGlite } from '@electric-sql/pglite';
import { expansions, franchises, productTypes } from '~/domain/catalog.ts';
import { pricedLine } from '~/domain/money.ts';
import { computeOrderAmounts, type AppliedPromotion } from '~/domain/pricing.ts';
import { applyMigrations, migrationFiles } from 'local-supabase/migrate';
import { parseSeedArgs } from '../../scripts/seed.ts';
import { buildSeed } from '../../scripts/seed/build.ts';
import { DEMO_ADDRESS_IDS, DEMO_ADMIN, DEMO_REWARD_POINTS, DEMO_SHOPPER, HERO_PRODUCT_ID } from '../../scripts/seed/constants.ts';
import { ensureDemoPhotos } from '../../scripts/seed/photos.ts';
import { ROOT_DIR } from './support.ts';

let db: PGlite;

function execOn(target: PGlite): (sql: string, name: string) => Promise<void> {
  return async (sql, name) => {
    try {
      await target.exec(sql);
    } catch (err) {
      throw new Error(`${name}: ${(err as Error).message}`, { cause: err });
    }
  };
}

async function rows<T = Record<string, unknown>>(sql: string, params: unknown[] = []): Promise<T[]> {
  return (await db.query<T>(sql, params)).rows;
}

beforeAll(async () => {
  db = new PGlite();
  await applyMigrations(execOn(db), ROOT_DIR, { seed: true });
});

afterAll(async () => {
  await db?.close();
});

describe('migration runner', () => {
  it('orders local bootstrap, then migrations by timestamp, then the seed', () => {
    const files = migrationFiles(ROOT_DIR);
    const kinds = files.map((f) => f.kind);
    expect(kinds.indexOf('migration')).toBeGreaterThan(kinds.lastIndexOf('local'));
    expect(kinds.at(-1)).toBe('seed');
    const migrations = files.filter((f) => f.kind === 'migration').map((f) => f.version);
    expect(migrations).toEqual([...migrations].sort());
    expect(migrations.every((v) => /^\d{14}$/.test(v))).toBe(true);
    expect(migrationFiles(ROOT_DIR, { seed: false }).some((f) => f.kind === 'seed')).toBe(false);
  });

  it('records every applied file', async () => {
    const recorded = (await rows<{ version: string }>('select version from supabase_migrations.schema_migrations')).map((r) => r.version);
    expect(recorded.sort()).toEqual(
      migrationFiles(ROOT_DIR)
        .map((f) => f.version)
        .sort(),
    );
  });

  it('applies nothing the second time (the seed would fail on duplicate keys otherwise)', async () => {
    const before = await rows<{ n: number }>('select count(*)::int as n from public.products');
    await applyMigrations(execOn(db), ROOT_DIR, { seed: true });
    expect(await rows('select count(*)::int as n from public.products')).toEqual(before);
  });

  it('applies only a migration added later', async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'tienda-migrate-'));
    try {
      fs.cpSync(path.join(ROOT_DIR, 'supabase/local'), path.join(root, 'supabase/local'), { recursive: true });
      fs.cpSync(path.join(ROOT_DIR, 'supabase/migrations'), path.join(root, 'supabase/migrations'), { recursive: true });
      fs.writeFileSync(
        path.join(root, 'supabase/migrations/29991231000000_extra.sql'),
        'create table public.extra_check (id int); insert into public.extra_check values (1);\n-- a $migration_body$ tag inside a file must not break the runner\n',
      );
      await applyMigrations(execOn(db), root, { seed: false });
      expect(await rows('select id from public.extra_check')).toEqual([{ id: 1 }]);
      const [last] = await rows<{ version: string; name: string }>(
        'select version, name from supabase_migrations.schema_migrations order by applied_at desc, version desc limit 1',
      );
      expect(last).toEqual({ version: '29991231000000', name: '29991231000000_extra.sql' });
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
      await db.exec('drop table if exists public.extra_check');
    }
  });

  it('reports the failing file by name', async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'tienda-migrate-'));
    try {
      fs.mkdirSync(path.join(root, 'supabase/migrations'), { recursive: true });
      fs.writeFileSync(path.join(root, 'supabase/migrations/29991231000001_broken.sql'), 'select * from no_such_table;');
      await expect(applyMigrations(execOn(db), root, { seed: false })).rejects.toThrow(/29991231000001_broken\.sql/);
      expect(await rows(`select 1 from supabase_migrations.schema_migrations where version = '29991231000001'`)).toEqual([]);
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });

  it('publishes the live tables to supabase_realtime', async () => {
    const published = (await rows<{ tablename: string }>(`select tablename from pg_publication_tables where pubname = 'supabase_realtime' order by 1`)).map(
      (r) => r.tablename,
    );
    expect(published).toEqual([
      'addresses',
      'buylist_submissions',
      'expansions',
      'favorites',
      'orders',
      'preorder_lines',
      'products',
      'profiles',
      'rewards',
      'store_credit_entries',
    ]);
  });
});

describe('demo seed', () => {
  it('is up to date with scripts/seed.ts (run npm run seed after changing it)', () => {
    const seed = buildSeed();
    expect(fs.readFileSync(path.join(ROOT_DIR, 'supabase/seed.sql'), 'utf8')).toBe(seed.sql);
    for (const image of seed.images) {
      const file = path.join(ROOT_DIR, 'supabase/storage', image.path);
      expect(fs.existsSync(file), image.path).toBe(true);
      expect(fs.readFileSync(file, 'utf8'), image.path).toBe(image.content);
    }
  });

  it('loads the whole static catalogue', async () => {
    const count = async (table: string) => (await rows<{ n: number }>(`select count(*)::int as n from public.${table}`))[0]!.n;
    expect(await count('franchises')).toBe(franchises.length);
    expect(await count('expansions')).toBe(expansions.length);
    expect(await count('product_types')).toBe(productTypes.length);
  });

  it('has at least 120 products covering every franchise, product type and expansion', async () => {
    expect((await rows<{ n: number }>('select count(*)::int as n from public.products'))[0]!.n).toBeGreaterThanOrEqual(120);
    const unused = await rows(`
      select 'franchise' as kind, id from public.franchises f where not exists (select 1 from public.products p where p.franchise_id = f.id)
      union all
      select 'type', id from public.product_types t where not exists (select 1 from public.products p where p.product_type_id = t.id)
      union all
      select 'expansion', id from public.expansions e where not exists (select 1 from public.products p where p.expansion_id = e.id)`);
    expect(unused).toEqual([]);
  });

  it('has the products the home page features', async () => {
    const [hero] = await rows<{ stock: number; preorder: boolean }>('select stock, preorder from public.products where id = $1', [HERO_PRODUCT_ID]);
    expect(hero).toBeDefined();
    expect(hero!.stock).toBeGreaterThan(0);
    const perExpansion = await rows<{ expansion_id: string; n: number }>(
      `select expansion_id, count(*)::int as n from public.products
        where expansion_id in ('destined-rivals', 'journey-together', 'prismatic-evolutions') group by 1 order by 1`,
    );
    for (const { expansion_id, n } of perExpansion) expect(n, expansion_id).toBeGreaterThan(5);
    expect(perExpansion).toHaveLength(3);
  });

  it('has discounted, preorder, sold-out and new-arrival products, and discounted new arrivals', async () => {
    const [flags] = await rows<Record<string, number>>(`
      select
        count(*) filter (where discount and original_price > price)::int as discounted,
        count(*) filter (where discount and not (original_price > price))::int as inconsistent_discounts,
        count(*) filter (where preorder and stock > 0)::int as preorders,
        count(*) filter (where stock = 0)::int as sold_out,
        count(*) filter (where type = 'newArrivals')::int as new_arrivals,
        count(*) filter (where type = 'newArrivals' and discount)::int as discounted_new_arrivals
      from public.products`);
    expect(flags!.inconsistent_discounts).toBe(0);
    expect(flags!.discounted).toBeGreaterThanOrEqual(10);
    expect(flags!.preorders).toBeGreaterThanOrEqual(3);
    expect(flags!.sold_out).toBeGreaterThanOrEqual(3);
    expect(flags!.new_arrivals).toBeGreaterThanOrEqual(10);
    // The "Ofertas Especiales" slider loops only with more than 5 products.
    expect(flags!.discounted_new_arrivals).toBeGreaterThan(5);
  });

  it('gives every product 1–4 generated images or demo photos that exist in the products bucket', async () => {
    // The demo photos are made on this machine, not kept in the repository (as npm run seed does).
    await ensureDemoPhotos(path.join(ROOT_DIR, 'supabase/storage'));
    const products = await rows<{ id: string; image: string; images: string[] }>('select id, image, images from public.products');
    for (const product of products) {
      expect(product.images.length, product.id).toBeGreaterThanOrEqual(1);
      expect(product.images.length, product.id).toBeLessThanOrEqual(4);
      expect(product.image).toBe(product.images[0]);
      for (const image of product.images) {
        expect(image).toMatch(/^products\/(?:[a-z0-9-]+-[1-4]\.svg|demo-foto-[1-4]\.1500x2100\.jpg)$/);
        expect(fs.existsSync(path.join(ROOT_DIR, 'supabase/storage', image)), image).toBe(true);
      }
    }
    const others = await rows<{ image: string }>('select image from public.expansions union all select image from public.product_types');
    for (const { image } of others) expect(fs.existsSync(path.join(ROOT_DIR, 'supabase/storage', image)), image).toBe(true);
  }, 180_000);

  it('creates the demo shopper with a bcrypt password, profile, addresses, points and a coupon', async () => {
    const [user] = await rows<{ email: string; encrypted_password: string; email_confirmed_at: Date | null }>(
      'select email, encrypted_password, email_confirmed_at from auth.users where id = $1',
      [DEMO_SHOPPER.id],
    );
    expect(user?.email).toBe('cliente@demo.mx');
    expect(user?.email_confirmed_at).toBeInstanceOf(Date);
    expect(user?.encrypted_password).toMatch(/^\$2[ab]\$10\$/);
    expect(await bcrypt.compare('Cliente123!', user!.encrypted_password)).toBe(true);
    expect(await bcrypt.compare('cliente123!', user!.encrypted_password)).toBe(false);

    const [profile] = await rows('select username, name, lastname, phone, is_admin from public.profiles where id = $1', [DEMO_SHOPPER.id]);
    expect(profile).toEqual({ username: 'anagarcia', name: 'Ana', lastname: 'García', phone: DEMO_SHOPPER.phone, is_admin: false });

    const addresses = await rows<{ id: string; is_default: boolean; country: string }>(
      'select id, is_default, country from public.addresses where user_id = $1 order by is_default desc, created_at desc',
      [DEMO_SHOPPER.id],
    );
    expect(addresses).toEqual([
      { id: DEMO_ADDRESS_IDS.home, is_default: true, country: 'México' },
      { id: DEMO_ADDRESS_IDS.office, is_default: false, country: 'México' },
    ]);
    expect(await rows('select points from public.rewards where user_id = $1', [DEMO_SHOPPER.id])).toEqual([{ points: DEMO_REWARD_POINTS }]);
    expect(await rows('select code from public.coupons where user_id = $1', [DEMO_SHOPPER.id])).toEqual([{ code: 'MEKACAT10' }]);
    // Rewards are earned: every demo account's points are what its paid orders gave, and every paid
    // order keeps its own copy of the address, as mark_order_paid leaves them.
    const consistency = await rows(
      `select r.user_id,
              r.points,
              (select coalesce(sum(o.points_awarded), 0)::integer from public.orders o where o.user_id = r.user_id) as earned,
              (select coalesce(sum(floor(o.subtotal - o.discount)), 0)::integer from public.orders o
                where o.user_id = r.user_id and o.status in ('Pagado', 'Procesando', 'Enviado', 'Completado')) as rule,
              (select count(*)::integer from public.orders o
                where o.user_id = r.user_id and o.paid_at is not null and o.status <> 'Reembolsado' and o.shipping_address is null) as without_copy
         from public.rewards r join public.orders o2 on o2.user_id = r.user_id
        group by r.user_id, r.points`,
    );
    expect(consistency.length).toBeGreaterThanOrEqual(2);
    for (const account of consistency) expect(account).toEqual({ ...account, points: account.earned, rule: account.earned, without_copy: 0 });
    expect(await rows(`select provider from auth.identities where user_id = $1`, [DEMO_SHOPPER.id])).toEqual([{ provider: 'email' }]);
  });

  it('creates the demo admin', async () => {
    const [admin] = await rows<{ encrypted_password: string; is_admin: boolean }>(
      'select u.encrypted_password, p.is_admin from auth.users u join public.profiles p on p.id = u.id where u.email = $1',
      [DEMO_ADMIN.email],
    );
    expect(admin?.is_admin).toBe(true);
    expect(await bcrypt.compare('Admin123!', admin!.encrypted_password)).toBe(true);
  });

  it('gives the shopper an order history with correct amounts, several statuses and months', async () => {
    const orders = await rows<Record<string, string> & { created_at: Date; paid_at: Date | null }>(
      'select id, status, subtotal, discount, shipping, total, coupon_code, created_at, paid_at from public.orders where user_id = $1',
      [DEMO_SHOPPER.id],
    );
    expect(orders.length).toBeGreaterThan(8);
    expect(new Set(orders.map((o) => o.status))).toEqual(new Set(['Pendiente', 'Pagado', 'Enviado', 'Completado', 'Cancelado']));
    expect(new Set(orders.map((o) => o.created_at.toISOString().slice(0, 7))).size).toBeGreaterThanOrEqual(3);
    expect(orders.some((o) => Date.now() - o.created_at.getTime() < 30 * 86_400_000)).toBe(true);

    for (const order of orders) {
      const items = await rows<{ price: string; quantity: number; product_price: string }>(
        `select i.price, i.quantity, p.price as product_price from public.order_items i
           join public.products p on p.id = i.product_id where i.order_id = $1`,
        [order.id],
      );
      expect(items.length, order.id).toBeGreaterThan(0);
      for (const item of items) expect(item.price).toBe(item.product_price);
      const [promotion] = await rows<AppliedPromotion>('select code, type, value::float8 as value from public.promotions where code = $1', [order.coupon_code]);
      expect(promotion === undefined, order.id).toBe(order.coupon_code === null);
      const amounts = computeOrderAmounts(items.map(pricedLine), promotion ?? null);
      expect(
        { subtotal: Number(order.subtotal), discount: Number(order.discount), shipping: Number(order.shipping), total: Number(order.total) },
        order.id,
      ).toEqual({ subtotal: amounts.subtotal, discount: amounts.discount, shipping: amounts.shipping, total: amounts.total });
      expect(order.paid_at !== null, order.status).toBe(['Pagado', 'Enviado', 'Completado'].includes(order.status));
    }
  });

  it('leaves the hero product and the newest sets buyable for the demo shopper', async () => {
    const history = await rows(
      `select i.product_id from public.order_items i join public.orders o on o.id = i.order_id
        join public.products p on p.id = i.product_id
        where o.user_id = $1 and (p.id = $2 or p.expansion_id in ('destined-rivals', 'journey-together'))`,
      [DEMO_SHOPPER.id, HERO_PRODUCT_ID],
    );
    expect(history).toEqual([]);
  });
});

describe('seed script options', () => {
  it('builds a large catalogue with unique ids for benchmarks', () => {
    const seed = buildSeed({ productCount: 2000 });
    expect(seed.products).toHaveLength(2000);
    expect(new Set(seed.products.map((p) => p.id)).size).toBe(2000);
    expect(seed.sql).toContain('insert into public.products');
  });

  it('loads the large catalogue SQL on a fresh database', async () => {
    const big = new PGlite();
    try {
      await applyMigrations(execOn(big), ROOT_DIR, { seed: false });
      await big.exec(buildSeed({ productCount: 800 }).sql);
      const { rows: counted } = await big.query<{ n: number }>('select count(*)::int as n from public.products');
      expect(counted).toEqual([{ n: 800 }]);
    } finally {
      await big.close();
    }
  });

  it('rejects a bad --products value and keeps the default output path', () => {
    expect(() => parseSeedArgs(['--products', 'mil'])).toThrow(/--products/);
    expect(() => parseSeedArgs(['--products', '0'])).toThrow(/--products/);
    expect(() => parseSeedArgs(['--otra'])).toThrow();
    expect(parseSeedArgs([]).out).toBe(path.join(ROOT_DIR, 'supabase/seed.sql'));
    expect(parseSeedArgs(['--products', '10000', '--out', '/tmp/x.sql'])).toEqual({ productCount: 10000, out: '/tmp/x.sql' });
  });
});
