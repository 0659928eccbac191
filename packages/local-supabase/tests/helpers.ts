/** Starts a whole local stack in-process for backend tests. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SHOP_STACK } from '../../../scripts/backend.ts';
import { startStack, type RunningStack, type StartOptions } from '../src/index.ts';

export interface TestStack {
  url: string;
  anonKey: string;
  serviceRoleKey: string;
  jwtSecret: string;
  /** Temp folder holding storage and mailbox (and the database unless `memory`). */
  dataDir: string;
  stack: RunningStack;
  /** Stops the stack and deletes its temp folder. */
  stop(): Promise<void>;
}

/**
 * Starts a stack on a free port with a fresh database (in memory by default) and a
 * temp data folder, with the shop's configuration (brand, e-mails, migrations and seed).
 * Pass `setupSql` for extra tables, `migrate: false` for a bare database.
 */
export async function startTestStack(options: Omit<StartOptions, 'port' | 'host'> = {}): Promise<TestStack> {
  const dataDir = options.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'tienda-stack-'));
  const ownsDir = options.dataDir === undefined;
  const stack = await startStack({
    ...SHOP_STACK,
    memory: true,
    autoconfirm: true,
    // A fixed site, so CORS and redirect checks do not depend on the shell's SITE_URL.
    siteUrl: 'http://localhost:4321',
    ...options,
    dataDir,
    port: 0,
    host: '127.0.0.1',
    databaseUrl: options.databaseUrl ?? '',
    verbose: false,
  });
  return {
    url: stack.url,
    anonKey: stack.config.anonKey,
    serviceRoleKey: stack.config.serviceRoleKey,
    jwtSecret: stack.config.jwtSecret,
    dataDir,
    stack,
    async stop() {
      await stack.stop();
      if (ownsDir) fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A small self-contained schema (roles, auth helpers, RLS) for the REST API suites. */

export const USER_A = '00000000-0000-4000-8000-00000000000a';
export const USER_B = '00000000-0000-4000-8000-00000000000b';
export const ORDER_A1 = '10000000-0000-4000-8000-000000000001';
export const ORDER_A2 = '10000000-0000-4000-8000-000000000002';
export const ORDER_B1 = '10000000-0000-4000-8000-000000000003';

export const FIXTURE_SQL = `
do $$ begin
  if not exists (select 1 from pg_roles where rolname = 'anon') then create role anon nologin noinherit; end if;
  if not exists (select 1 from pg_roles where rolname = 'authenticated') then create role authenticated nologin noinherit; end if;
  if not exists (select 1 from pg_roles where rolname = 'service_role') then create role service_role nologin noinherit bypassrls; end if;
end $$;
create schema if not exists auth;
create or replace function auth.uid() returns uuid language sql stable as $f$
  select nullif(coalesce(nullif(current_setting('request.jwt.claim.sub', true), ''), current_setting('request.jwt.claims', true)::jsonb ->> 'sub'), '')::uuid
$f$;
grant usage on schema auth to anon, authenticated, service_role;
grant usage on schema public to anon, authenticated, service_role;

create table fx_products (
  id serial primary key,
  name text not null,
  price numeric(12,2) not null check (price >= 0),
  stock int,
  tags text[] not null default '{}',
  details jsonb,
  created_at timestamptz not null default '2026-01-15T10:00:00Z'
);
create table fx_orders (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null,
  status text not null default 'Pendiente',
  total numeric(12,2) not null default 0,
  created_at timestamptz not null default now()
);
create table fx_order_items (
  id serial primary key,
  order_id uuid not null references fx_orders(id) on delete cascade,
  product_id int not null references fx_products(id),
  quantity int not null check (quantity > 0)
);
create table fx_notes (
  id serial primary key,
  owner uuid not null default auth.uid(),
  body text not null
);
create unique index fx_products_name_key on fx_products (name);

alter table fx_products enable row level security;
alter table fx_orders enable row level security;
alter table fx_order_items enable row level security;
alter table fx_notes enable row level security;
create policy "read products" on fx_products for select to anon, authenticated using (true);
create policy "read own orders" on fx_orders for select to authenticated using (user_id = auth.uid());
create policy "read own items" on fx_order_items for select to authenticated
  using (exists (select 1 from fx_orders o where o.id = order_id and o.user_id = auth.uid()));
create policy "own notes" on fx_notes for all to authenticated using (owner = auth.uid()) with check (owner = auth.uid());

grant select on all tables in schema public to anon, authenticated;
grant insert, update, delete on fx_notes to authenticated;
grant all on all tables in schema public to service_role;
grant usage on all sequences in schema public to authenticated, service_role;

insert into fx_products (name, price, stock, tags, details) values
  ('Caja de sobres Rivales Destinados', 2899.00, 5, '{pokemon,sellado}', '{"idioma":"es","cartas":36}'),
  ('Sobre Viaje Juntos', 99.50, null, '{pokemon}', '{"idioma":"en"}'),
  ('Mazo inicial One Piece', 450.00, 0, '{onepiece,mazo}', null),
  ('Carta suelta Pikachu', 15.25, 12, '{pokemon,suelta}', '{"idioma":"ja"}'),
  ('Funda 100% protectora', 120.00, 30, '{}', null);
insert into fx_orders (id, user_id, status, total, created_at) values
  ('${ORDER_A1}', '${USER_A}', 'Pagado', 3098.00, '2026-02-01T12:00:00Z'),
  ('${ORDER_A2}', '${USER_A}', 'Pendiente', 99.50, '2026-03-01T12:00:00Z'),
  ('${ORDER_B1}', '${USER_B}', 'Pagado', 450.00, '2026-02-15T12:00:00Z');
insert into fx_order_items (order_id, product_id, quantity) values
  ('${ORDER_A1}', 1, 1), ('${ORDER_A1}', 2, 2), ('${ORDER_A2}', 2, 1), ('${ORDER_B1}', 3, 1);
insert into fx_notes (owner, body) values ('${USER_A}', 'nota de A'), ('${USER_B}', 'nota de B');

create function fx_add(a int, b int default 10) returns int language sql immutable as $f$ select a + b $f$;
create function fx_cheap(max_price numeric) returns setof fx_products language sql stable as $f$
  select * from fx_products where price <= max_price order by id
$f$;
create function fx_touch() returns void language sql as $f$ update fx_products set stock = stock where false $f$;
create function fx_whoami() returns text language sql stable as $f$ select coalesce(auth.uid()::text, 'nadie') $f$;
create function fx_header(name text) returns text language sql stable as $f$
  select current_setting('request.headers', true)::json ->> name
$f$;
create function fx_fail(msg text) returns int language plpgsql as $f$ begin raise exception '%', msg; end $f$;
create function fx_bump(product int) returns int language sql as $f$
  update fx_products set stock = coalesce(stock, 0) + 1 where id = product returning stock
$f$;
grant execute on all functions in schema public to anon, authenticated, service_role;
`;
