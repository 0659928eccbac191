/**
 * /explore's search as a Postgres function, measured: the alternative to searching the catalogue
 * in the Node server's memory (src/domain/explore-query.ts). Builds a made-up catalogue shaped like
 * the shop's (products, a third of them singles with 1–4 card offers), creates `explore_search`
 * (full-text search with simple + Spanish + English configurations over unaccented names, pg_trgm
 * word similarity for typos when the words find fewer than 3 products, disjunctive facet counts for
 * franchise, type, expansion, condition, language and in stock, sorting and a page), and times 20
 * varied calls on two engines:
 *
 *   - a throwaway PostgreSQL server (initdb/pg_ctl on 127.0.0.1, through tests/db/pg-server.ts),
 *     called with the `pg` client over TCP: one `select explore_search(...)` per call;
 *   - PGlite in this process (what the shop's offline local stack runs), same SQL;
 *
 * and, for comparison on the same catalogue and calls, the shop's own in-memory search
 * (searchExplore in src/domain/explore-query.ts, engine `memory`).
 *
 * The calls are plain queries in a loop, no HTTP: Supabase's PostgREST (`rpc`) and the network
 * between the shop's server and the database come on top of these figures. Besides each call's
 * wall time, the engine's mean CPU time per call is printed (the server's backend and its parallel
 * workers, from /proc; this process for PGlite and the in-memory search): on a busy machine the
 * wall time includes waiting for a core, the CPU time much less so.
 *
 *   npx tsx scripts/bench/explore-postgres.ts                   100,000 products, every engine
 *   PRODUCTS=5000 npx tsx scripts/bench/explore-postgres.ts     a small run
 *   ENGINES=postgres ROUNDS=5 npx tsx …                         some engines (memory, postgres, pglite), more rounds
 *   EXPLAIN=0,12 npx tsx …                                      the server's plans of calls 0 and 12 (EXPLAIN=1: all) on stderr
 *   FUNCTION_JIT=on npx tsx …                                   the function without its own `jit = off`
 *
 * Calls without words are checked against the same counts computed here in JavaScript, so the
 * figures are for a function that gives the right answers.
 */
import fs from 'node:fs';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { unaccent } from '@electric-sql/pglite/contrib/unaccent';
import { startPgServer } from '../../tests/db/pg-server.ts';
import { expansions, franchises, productTypes, SINGLES_TYPE_IDS } from '~/domain/catalog.ts';
import type { Centavos } from '~/domain/money.ts';
import { EMPTY_FILTERS, type ExploreData, type ExploreProduct } from '~/domain/explore.ts';
import { searchExplore, type FacetCount } from '~/domain/explore-query.ts';
import { SYLLABLES } from './made-up.ts';
import { seededRandom } from '../seed/singles.ts';

const PRODUCTS = Number(process.env.PRODUCTS || 100_000);
const ROUNDS = Number(process.env.ROUNDS || 3);
const ENGINES = (process.env.ENGINES || 'memory,postgres,pglite').split(',').map((name) => name.trim());
const PAGE = 24;
const SEED = 20261126;

// ---------------------------------------------------------------------------------------------
// A made-up catalogue, the same for every run and engine.

interface Product {
  id: string;
  name: string;
  price: number;
  original_price: number | null;
  discount: boolean;
  preorder: boolean;
  stock: number;
  release_date: string | null;
  franchise_id: string;
  expansion_id: string;
  product_type_id: string;
}

interface Offer {
  product_id: string;
  condition: string | null;
  language: string;
  finish: string;
  grading_company: string | null;
  grade: number | null;
  certificate_number: string | null;
  price: number;
  stock: number;
  position: number;
}

/** Card names people search for, and many more made of syllables (a real game has about 1,500). */
const KNOWN_CARDS: Record<string, string[]> = {
  pokemon: [
    'Pikachu',
    'Charmander',
    'Charizard',
    'Bulbasaur',
    'Squirtle',
    'Eevee',
    'Mewtwo',
    'Gengar',
    'Lucario',
    'Umbreon',
    'Sylveon',
    'Rayquaza',
    'Gardevoir',
    'Greninja',
    'Snorlax',
    'Dragonite',
    'Mew',
    'Lugia',
    'Espeon',
    'Arceus',
  ],
  'one-piece': [
    'Monkey.D.Luffy',
    'Roronoa Zoro',
    'Nami',
    'Sanji',
    'Portgas.D.Ace',
    'Shanks',
    'Trafalgar Law',
    'Yamato',
    'Kaido',
    'Boa Hancock',
    'Nico Robin',
    'Tony Tony Chopper',
  ],
  riftbound: ['Jinx', 'Ahri', 'Yasuo', 'Lux', 'Garen', 'Teemo', 'Darius', 'Vi', 'Annie', 'Master Yi', 'Viktor', 'Sett'],
};
const SUFFIXES: Record<string, string[]> = {
  pokemon: ['ex', 'V', 'VMAX', 'VSTAR', 'GX', 'Full Art', 'Alt Art', 'Holo', 'Reverse Holo', 'Secret Rare', ''],
  'one-piece': ['Leader', 'Parallel', 'Manga', 'SP', 'Alt Art', ''],
  riftbound: ['Champion', 'Showcase', 'Signature', 'Overnumbered', ''],
};
const LANGUAGES: Record<string, string[]> = { pokemon: ['es', 'en', 'ja'], 'one-piece': ['en', 'ja'], riftbound: ['en', 'zh', 'es'] };
const FINISHES: Record<string, string[]> = {
  pokemon: ['normal', 'holo', 'reverse-holo'],
  'one-piece': ['normal', 'parallel', 'manga'],
  riftbound: ['normal', 'foil'],
};
const CONDITIONS = ['NM', 'LP', 'MP', 'HP', 'DMG'];
const CONDITION_WEIGHTS = [0.5, 0.25, 0.13, 0.08, 0.04];
const GRADERS = ['PSA', 'BGS', 'CGC'];
const PREFIX: Record<string, string> = { pokemon: 'pk', 'one-piece': 'op', riftbound: 'rb' };

function slug(value: string): string {
  return value
    .toLowerCase()
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

function makeCatalog(count: number): { products: Product[]; offers: Offer[] } {
  const random = seededRandom(SEED);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
  const between = (low: number, high: number) => low + Math.floor(random() * (high - low + 1));
  const weighted = <T>(list: readonly T[], weights: readonly number[]): T => {
    let r = random();
    for (let k = 0; k < list.length; k++) if ((r -= weights[k]!) < 0) return list[k]!;
    return list[list.length - 1]!;
  };
  const pools: Record<string, string[]> = {};
  for (const franchise of franchises) {
    const pool = [...KNOWN_CARDS[franchise.id]!];
    while (pool.length < 500) {
      let card = '';
      for (let s = between(2, 4); s > 0; s--) card += pick(SYLLABLES);
      pool.push(card[0]!.toUpperCase() + card.slice(1));
    }
    pools[franchise.id] = pool;
  }
  const shares = [0.6, 0.25, 0.15];
  const products: Product[] = [];
  const offers: Offer[] = [];
  const seenIds = new Set<string>();
  let certificate = 10_000_000;
  for (let i = 0; i < count; i++) {
    const franchise = weighted(franchises, shares).id;
    const expansion = pick(expansions.filter((e) => e.franchiseId === franchise));
    const isSingle = i % 3 === 0;
    const types = productTypes.filter((t) => t.franchiseId === franchise && SINGLES_TYPE_IDS.includes(t.id) === isSingle);
    const type = pick(types);
    // Known names are asked for more often than the rest, as in a real shop.
    const pool = pools[franchise]!;
    const card = random() < 0.15 ? pool[Math.floor(random() * KNOWN_CARDS[franchise]!.length)]! : pick(pool);
    const suffix = pick(SUFFIXES[franchise]!);
    const number = `${between(1, 250)}/${between(150, 250)}`;
    let name = isSingle
      ? `${card}${suffix ? ` ${suffix}` : ''} ${number} – ${type.name} (${expansion.name})`
      : `${type.name} ${expansion.name}${random() < 0.5 ? '' : ` ${pick(['(Inglés)', '(Español)', 'Edición especial', 'Bundle', 'Caja sellada'])}`}`;
    let id = `${PREFIX[franchise]}-${type.id.replace(/^(op|rb)-/, '').replace('single-card', 'single')}-${expansion.id}-${isSingle ? slug(`${card} ${suffix} ${number}`) : i}`;
    if (seenIds.has(id)) {
      id = `${id}-${i}`;
      name = `${name} #${i}`;
    }
    seenIds.add(id);
    const sealedPrice = between(60, 6000);
    const singlePrice = Math.round(Math.exp(random() * Math.log(3000)) * 100) / 100 + 5;
    const price = isSingle ? singlePrice : sealedPrice;
    const onSale = random() < 0.1;
    const product: Product = {
      id,
      name,
      price,
      original_price: onSale ? Math.round(price * 1.2 * 100) / 100 : null,
      discount: onSale,
      preorder: random() < 0.05,
      stock: random() < 0.3 ? 0 : between(1, 20),
      release_date: random() < 0.95 ? (expansion.releaseDate ?? null) : null,
      franchise_id: franchise,
      expansion_id: expansion.id,
      product_type_id: type.id,
    };
    if (isSingle) {
      const wanted = between(1, 4);
      const used = new Set<string>();
      let stock = 0;
      for (let k = 0; k < wanted; k++) {
        const slab = random() < 0.05;
        const condition = slab ? null : weighted(CONDITIONS, CONDITION_WEIGHTS);
        const language = pick(LANGUAGES[franchise]!);
        const finish = pick(FINISHES[franchise]!);
        const key = `${condition}.${language}.${finish}`;
        if (!slab && used.has(key)) continue;
        used.add(key);
        const copies = random() < 0.35 ? 0 : between(1, 5);
        stock += copies;
        offers.push({
          product_id: id,
          condition,
          language,
          finish,
          grading_company: slab ? pick(GRADERS) : null,
          grade: slab ? between(12, 20) / 2 : null,
          certificate_number: slab ? String(certificate++) : null,
          price: Math.round(price * (slab ? 4 : condition === 'NM' ? 1 : 0.7) * 100) / 100,
          stock: copies,
          position: k,
        });
      }
      product.stock = stock;
    }
    products.push(product);
  }
  return { products, offers };
}

// ---------------------------------------------------------------------------------------------
// The schema and the function, as a Supabase migration would create them.

const SCHEMA = /* sql */ `
create extension if not exists pg_trgm;
create extension if not exists unaccent;

create table public.franchises (id text primary key, name text not null);
create table public.expansions (id text primary key, name text not null, franchise_id text not null references public.franchises (id), release_date date);
create table public.product_types (id text primary key, name text not null, franchise_id text not null references public.franchises (id));

-- unaccent() is only stable (its dictionary could change); a generated column and an index need an
-- immutable wrapper with the dictionary named.
-- The words of a name as search sees them: lower case, no accents, any punctuation a space
-- ('Monkey.D.Luffy OP05-119' is 'monkey d luffy op05 119').
create function public.explore_words(value text) returns text
language sql immutable strict parallel safe
as $$ select lower(regexp_replace(public.unaccent('public.unaccent'::regdictionary, value), '[^[:alnum:]]+', ' ', 'g')) $$;

create table public.products (
  id text primary key,
  name text not null,
  description text not null default '',
  price numeric(12, 2) not null check (price >= 0),
  original_price numeric(12, 2),
  discount boolean not null default false,
  preorder boolean not null default false,
  stock integer not null default 0 check (stock >= 0),
  limit_per_customer integer not null default 1,
  available boolean not null default true,
  release_date date,
  image text,
  images text[] not null default '{}',
  tags text[] not null default '{}',
  franchise_id text not null references public.franchises (id),
  expansion_id text references public.expansions (id),
  product_type_id text references public.product_types (id),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  -- Whole words (simple, weight A) plus Spanish and English stems, all without accents.
  search tsvector generated always as (
    setweight(to_tsvector('simple'::regconfig, public.explore_words(name)), 'A')
    || setweight(to_tsvector('spanish'::regconfig, public.explore_words(name)), 'B')
    || setweight(to_tsvector('english'::regconfig, public.explore_words(name)), 'C')
  ) stored
);
create index products_franchise_id_idx on public.products (franchise_id);
create index products_expansion_id_idx on public.products (expansion_id);
create index products_product_type_id_idx on public.products (product_type_id);
create index products_price_idx on public.products (price);
create index products_release_date_idx on public.products (release_date desc nulls last);
create index products_name_lower_idx on public.products (lower(name));
create index products_name_idx on public.products (name, id);
-- What the counts read, so they can come from the index alone (no tsvector-wide heap rows).
create index products_explore_facets_idx on public.products (franchise_id, product_type_id, expansion_id) include (stock, available, id);
create index products_search_idx on public.products using gin (search);
create index products_name_trgm_idx on public.products using gin (public.explore_words(name) gin_trgm_ops);

create type public.card_condition as enum ('NM', 'LP', 'MP', 'HP', 'DMG');
create type public.grading_company as enum ('PSA', 'BGS', 'CGC');
create table public.card_offers (
  id uuid primary key default gen_random_uuid(),
  product_id text not null references public.products (id) on delete cascade,
  condition public.card_condition,
  language text not null check (language ~ '^[a-z]{2}$'),
  finish text not null,
  price numeric(10, 2) not null check (price >= 0),
  original_price numeric(10, 2),
  stock integer not null default 0 check (stock >= 0),
  grading_company public.grading_company,
  grade numeric(3, 1),
  certificate_number text unique,
  images text[] not null default '{}',
  position integer not null default 0,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index card_offers_product_id_idx on public.card_offers (product_id, position);
create unique index card_offers_raw_unique_idx on public.card_offers (product_id, condition, language, finish) where grading_company is null;
-- The copy filters: the cards with a copy in stock of a condition and language.
create index card_offers_in_stock_idx on public.card_offers (condition, language, product_id) where stock > 0;
`;

/**
 * explore_search: one page of /explore, its total and every filter's counts.
 *
 * Words: each word must match as a prefix of a name word (simple) or by its Spanish or English
 * stem; accents do not matter. When the words find fewer than 3 products in the whole catalogue,
 * names whose words are similar to the query (pg_trgm word similarity ≥ 0.4) are found too
 * ('chramander' finds Charmander). Counts are disjunctive: a value's count is the results with
 * that value chosen instead, every other filter kept; with a franchise chosen, choosing another
 * one drops a chosen type or expansion of the first (as src/domain/explore-query.ts counts).
 * The copy filters (condition, language) keep the singles with a copy in stock that has both;
 * their counts count each card once per value.
 */
const FUNCTION = /* sql */ `
create or replace function public.explore_search(
  q text, franchise text, type text, expansion text, in_stock boolean,
  condition text, language text, sort text, page_offset integer, page_limit integer
) returns jsonb
language plpgsql stable
set plan_cache_mode = force_custom_plan
set pg_trgm.word_similarity_threshold = 0.4
-- Hash tables over 100,000 products' ids do not fit Supabase's few MB of work_mem.
set work_mem = '16MB'
${process.env.FUNCTION_JIT === 'on' ? '' : 'set jit = off\n'}as $fn$
#variable_conflict use_column
declare
  v_q text := nullif(btrim(public.explore_words(coalesce(q, ''))), '');
  v_f text := nullif(franchise, '');
  v_t text := nullif(type, '');
  v_e text := nullif(expansion, '');
  v_s boolean := coalesce(in_stock, false);
  v_c public.card_condition := nullif(condition, '')::public.card_condition;
  v_l text := nullif(language, '');
  v_copies boolean := nullif(condition, '') is not null or nullif(language, '') is not null;
  v_sort text := coalesce(nullif(sort, ''), 'relevancia');
  v_tf text;
  v_ef text;
  v_tsq tsquery;
  v_part tsquery;
  v_word text;
  v_typo boolean := false;
  v_counts jsonb;
  v_page jsonb;
  v_order text;
begin
  select pt.franchise_id into v_tf from public.product_types pt where pt.id = v_t;
  select ex.franchise_id into v_ef from public.expansions ex where ex.id = v_e;

  if v_q is not null then
    foreach v_word in array string_to_array(v_q, ' ') loop
      -- Words like 'de' or 'the' are left out unless they are all there is.
      continue when numnode(plainto_tsquery('spanish', v_word)) = 0 or numnode(plainto_tsquery('english', v_word)) = 0;
      v_part := to_tsquery('simple', quote_literal(v_word) || ':*') || plainto_tsquery('spanish', v_word) || plainto_tsquery('english', v_word);
      v_tsq := case when v_tsq is null then v_part else v_tsq && v_part end;
    end loop;
    if v_tsq is null then
      v_tsq := to_tsquery('simple', array_to_string(array(select quote_literal(w) || ':*' from unnest(string_to_array(v_q, ' ')) w), ' & '));
    end if;
    select count(*) < 3 into v_typo from (select 1 from public.products p where p.search @@ v_tsq limit 3) few;
  end if;

  -- One pass over the matching products (kept narrow, in memory), grouped by what the filters
  -- look at: every count but the copy filters' is a sum over these few groups; the copy filters'
  -- join the matching cards' copies in stock.
  with matched as materialized (
    select p.id, p.franchise_id as f, p.product_type_id as t, p.expansion_id as e, p.stock > 0 as s,
      (not v_copies or p.id in (
        select o.product_id from public.card_offers o
        where o.stock > 0 and (v_c is null or o.condition = v_c) and (v_l is null or o.language = v_l)
      )) as c
    from public.products p
    where p.available
      and (v_q is null or p.search @@ v_tsq or (v_typo and v_q <% public.explore_words(p.name)))
  ),
  groups as (
    select f, t, e, s, c, count(*)::int as n,
      (v_f is null or f = v_f) as ok_f,
      (v_t is null or t = v_t) as ok_t,
      (v_e is null or e = v_e) as ok_e,
      (not v_s or s) as ok_s
    from matched group by f, t, e, s, c
  ),
  copies as (
    select o.product_id, o.condition, o.language
    from matched m
    join public.card_offers o on o.product_id = m.id and o.stock > 0
    where (v_f is null or m.f = v_f) and (v_t is null or m.t = v_t) and (v_e is null or m.e = v_e) and (not v_s or m.s)
  )
  select jsonb_build_object(
    'total', (select coalesce(sum(n), 0) from groups where ok_f and ok_t and ok_e and ok_s and c),
    'franchises', (select coalesce(jsonb_object_agg(f, n), '{}') from (
      select f, sum(n) as n from groups
      where (ok_t or (v_f is not null and v_tf is distinct from f)) and (ok_e or (v_f is not null and v_ef is distinct from f)) and ok_s and c group by f) x),
    'types', (select coalesce(jsonb_object_agg(t, n), '{}') from (
      select t, sum(n) as n from groups where ok_f and ok_e and ok_s and c and t is not null group by t) x),
    'expansions', (select coalesce(jsonb_object_agg(e, n), '{}') from (
      select e, sum(n) as n from groups where ok_f and ok_t and ok_s and c and e is not null group by e) x),
    'inStock', (select coalesce(sum(n), 0) from groups where ok_f and ok_t and ok_e and c and s),
    'conditions', (select coalesce(jsonb_object_agg(k, n), '{}') from (
      select k, count(*) as n from (
        select distinct condition::text as k, product_id from copies
        where condition is not null and (v_l is null or language = v_l)) d group by k) x),
    'languages', (select coalesce(jsonb_object_agg(k, n), '{}') from (
      select k, count(*) as n from (
        select distinct language as k, product_id from copies
        where (v_c is null or condition = v_c)) d group by k) x)
  ) into v_counts;

  -- The page, with the order written out so the planner can read it from an index (price,
  -- release date, name) and stop after the page when there are no words.
  v_order := case v_sort
    when 'precio-asc' then 'p.price asc, p.name, p.id'
    when 'precio-desc' then 'p.price desc, p.name, p.id'
    when 'nuevos' then 'p.release_date desc nulls last, p.name, p.id'
    when 'nombre' then 'p.name, p.id'
    else case
      when v_q is null then 'p.name, p.id'
      when v_typo then 'word_similarity($1, public.explore_words(p.name)) desc, p.name, p.id'
      else 'ts_rank(p.search, $2) desc, p.name, p.id'
    end
  end;
  execute format($page$
    select coalesce(jsonb_agg(jsonb_build_object(
      'id', r.id, 'name', r.name, 'price', r.price, 'originalPrice', r.original_price,
      'stock', r.stock, 'preorder', r.preorder, 'released', r.release_date,
      'franchiseId', r.franchise_id, 'expansionId', r.expansion_id, 'typeId', r.product_type_id
    ) order by r.ord), '[]')
    from (
      select p.*, row_number() over () as ord from (
        select p.* from public.products p
        where p.available
          and ($1 is null or p.search @@ $2 or ($3 and $1 <%% public.explore_words(p.name)))
          and ($4 is null or p.franchise_id = $4)
          and ($5 is null or p.product_type_id = $5)
          and ($6 is null or p.expansion_id = $6)
          and (not $7 or p.stock > 0)
          and (not $10 or exists (
            select 1 from public.card_offers o
            where o.product_id = p.id and o.stock > 0 and ($8 is null or o.condition = $8) and ($9 is null or o.language = $9)))
        order by %s
        limit $11 offset $12
      ) p
    ) r
  $page$, v_order)
  into v_page
  using v_q, v_tsq, v_typo, v_f, v_t, v_e, v_s, v_c, v_l, v_copies, page_limit, page_offset;

  return v_counts || jsonb_build_object('typo', v_typo, 'products', v_page);
end
$fn$;
`;

// ---------------------------------------------------------------------------------------------
// Engines: the same SQL on a PostgreSQL server and on PGlite.

interface Engine {
  name: string;
  version: string;
  exec(sql: string): Promise<void>;
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
  close(): Promise<void>;
  /** CPU time the engine has used so far, in ms: the server's backend process, or this process for PGlite. */
  cpuMs(): Promise<number>;
}

/** A process's parent and CPU times in ms from /proc (clock ticks of 10 ms): its own, and its exited children's. */
function procStat(pid: number): { parent: number; own: number; children: number } {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  // The fields after the name: state, ppid, …, utime (12th), stime, cutime, cstime.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = (k: number) => Number(fields[k]) * 10;
  return { parent: Number(fields[1]), own: ticks(11) + ticks(12), children: ticks(13) + ticks(14) };
}

const ownCpuMs = () => {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
};

async function postgresEngine(): Promise<Engine> {
  const server = await startPgServer();
  const client = new pg.Client({ host: server.host, port: server.port, user: server.user, database: 'postgres' });
  await client.connect();
  const version = (await client.query('show server_version')).rows[0].server_version as string;
  const backend = (await client.query('select pg_backend_pid() as pid')).rows[0].pid as number;
  // EXPLAIN=1: the plans of each statement inside the function (auto_explain) go to stderr.
  client.on('notice', (notice) => {
    if (process.env.EXPLAIN) console.error(notice.message);
  });
  return {
    name: 'PostgreSQL server',
    version: `PostgreSQL ${version}`,
    async exec(sql) {
      await client.query(sql);
    },
    async query(sql, params) {
      return (await client.query(sql, params as unknown[])).rows;
    },
    async close() {
      await client.end().catch(() => undefined);
      await server.stop();
    },
    async cpuMs() {
      // The backend's own time and that of the parallel workers it started, which the postmaster
      // (its parent) has reaped by now.
      const own = procStat(backend);
      return own.own + procStat(own.parent).children;
    },
  };
}

async function pgliteEngine(): Promise<Engine> {
  const db = await PGlite.create({ extensions: { pg_trgm, unaccent } });
  const version = (await db.query<{ v: string }>(`select split_part(version(), ' on ', 1) as v`)).rows[0]!.v;
  return {
    name: 'PGlite',
    version,
    async exec(sql) {
      await db.exec(sql);
    },
    async query(sql, params) {
      return (await db.query(sql, params)).rows as never;
    },
    async close() {
      await db.close();
    },
    async cpuMs() {
      return ownCpuMs();
    },
  };
}

async function load(engine: Engine, products: Product[], offers: Offer[]): Promise<number> {
  const started = performance.now();
  await engine.exec(SCHEMA);
  await engine.exec(FUNCTION);
  await engine.query(`insert into public.franchises (id, name) select id, name from jsonb_to_recordset($1::jsonb) as r(id text, name text)`, [
    JSON.stringify(franchises.map(({ id, name }) => ({ id, name }))),
  ]);
  await engine.query(
    `insert into public.expansions (id, name, franchise_id, release_date) select * from jsonb_to_recordset($1::jsonb) as r(id text, name text, franchise_id text, release_date date)`,
    [JSON.stringify(expansions.map((e) => ({ id: e.id, name: e.name, franchise_id: e.franchiseId, release_date: e.releaseDate ?? null })))],
  );
  await engine.query(
    `insert into public.product_types (id, name, franchise_id) select * from jsonb_to_recordset($1::jsonb) as r(id text, name text, franchise_id text)`,
    [JSON.stringify(productTypes.map((t) => ({ id: t.id, name: t.name, franchise_id: t.franchiseId })))],
  );
  const BATCH = 5000;
  for (let k = 0; k < products.length; k += BATCH) {
    await engine.query(
      `insert into public.products (id, name, price, original_price, discount, preorder, stock, release_date, franchise_id, expansion_id, product_type_id, image, images)
       select r.*, 'products/' || r.id || '-1.webp', array['products/' || r.id || '-1.webp']
       from jsonb_to_recordset($1::jsonb) as r(id text, name text, price numeric, original_price numeric, discount boolean, preorder boolean,
         stock integer, release_date date, franchise_id text, expansion_id text, product_type_id text)`,
      [JSON.stringify(products.slice(k, k + BATCH))],
    );
  }
  for (let k = 0; k < offers.length; k += BATCH) {
    await engine.query(
      `insert into public.card_offers (product_id, condition, language, finish, grading_company, grade, certificate_number, price, stock, position)
       select * from jsonb_to_recordset($1::jsonb) as r(product_id text, condition public.card_condition, language text, finish text,
         grading_company public.grading_company, grade numeric, certificate_number text, price numeric, stock integer, position integer)`,
      [JSON.stringify(offers.slice(k, k + BATCH))],
    );
  }
  await engine.exec('vacuum analyze');
  return performance.now() - started;
}

// ---------------------------------------------------------------------------------------------
// The calls: what a shopper does on /explore.

interface Call {
  label: string;
  q?: string;
  franchise?: string;
  type?: string;
  expansion?: string;
  inStock?: boolean;
  condition?: string;
  language?: string;
  sort?: string;
  offset?: number;
}

const CALLS: Call[] = [
  { label: 'nothing chosen' },
  { label: 'franchise', franchise: 'pokemon' },
  { label: 'franchise + in stock', franchise: 'pokemon', inStock: true },
  { label: 'price ascending', sort: 'precio-asc' },
  { label: 'franchise + price descending', franchise: 'one-piece', sort: 'precio-desc' },
  { label: 'condition + language', condition: 'NM', language: 'es' },
  { label: 'franchise + type + condition', franchise: 'pokemon', type: 'single-card', condition: 'LP' },
  { label: 'expansion, newest', expansion: 'surging-sparks', sort: 'nuevos' },
  { label: "word 'pikachu'", q: 'pikachu' },
  { label: "misspelt 'chramander'", q: 'chramander' },
  { label: "'charizard' + franchise + in stock + price desc", q: 'charizard', franchise: 'pokemon', inStock: true, sort: 'precio-desc' },
  { label: "words 'caja de sobres'", q: 'caja de sobres' },
  { label: "word 'carta' by name", q: 'carta', sort: 'nombre' },
  { label: "words 'elite trainer' + in stock", q: 'elite trainer', inStock: true },
  { label: "'luffy' + franchise + language", q: 'luffy', franchise: 'one-piece', language: 'ja' },
  { label: 'franchise, newest, page 5', franchise: 'riftbound', sort: 'nuevos', offset: 4 * PAGE },
  { label: "'pikachu ex' + condition", q: 'pikachu ex', condition: 'NM' },
  { label: "unaccented 'coleccion'", q: 'coleccion' },
  { label: "misspelt 'lufy' + in stock", q: 'lufy', inStock: true },
  { label: 'type + in stock + price asc, page 2', type: 'booster-box', inStock: true, sort: 'precio-asc', offset: PAGE },
];

function params(call: Call): unknown[] {
  return [
    call.q ?? null,
    call.franchise ?? null,
    call.type ?? null,
    call.expansion ?? null,
    call.inStock ?? false,
    call.condition ?? null,
    call.language ?? null,
    call.sort ?? 'relevancia',
    call.offset ?? 0,
    PAGE,
  ];
}

const SQL_CALL = 'select public.explore_search($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) as answer';

interface Answer {
  total: number;
  typo: boolean;
  franchises: Record<string, number>;
  types: Record<string, number>;
  expansions: Record<string, number>;
  conditions: Record<string, number>;
  languages: Record<string, number>;
  inStock: number;
  products: Array<{ id: string; name: string; price: number }>;
}

/** The counts of a call without words, computed here from the generated rows. */
function expected(call: Call, products: Product[], offersOf: Map<string, Offer[]>): Omit<Answer, 'products' | 'typo'> {
  const typeFranchise = productTypes.find((t) => t.id === call.type)?.franchiseId;
  const expansionFranchise = expansions.find((e) => e.id === call.expansion)?.franchiseId;
  const copyOk = (o: Offer, except: 'condition' | 'language' | null) =>
    o.stock > 0 &&
    (except === 'condition' || !call.condition || o.condition === call.condition) &&
    (except === 'language' || !call.language || o.language === call.language);
  const answer = { total: 0, franchises: {}, types: {}, expansions: {}, conditions: {}, languages: {}, inStock: 0 } as Omit<Answer, 'products' | 'typo'>;
  const add = (map: Record<string, number>, key: string) => (map[key] = (map[key] ?? 0) + 1);
  for (const p of products) {
    const offers = offersOf.get(p.id) ?? [];
    const okF = !call.franchise || p.franchise_id === call.franchise;
    const okT = !call.type || p.product_type_id === call.type;
    const okE = !call.expansion || p.expansion_id === call.expansion;
    const okS = !call.inStock || p.stock > 0;
    const okC = (!call.condition && !call.language) || offers.some((o) => copyOk(o, null));
    if (okF && okT && okE && okS && okC) answer.total++;
    if ((okT || (call.franchise && typeFranchise !== p.franchise_id)) && (okE || (call.franchise && expansionFranchise !== p.franchise_id)) && okS && okC)
      add(answer.franchises, p.franchise_id);
    if (okF && okE && okS && okC) add(answer.types, p.product_type_id);
    if (okF && okT && okS && okC) add(answer.expansions, p.expansion_id);
    if (okF && okT && okE && okC && p.stock > 0) answer.inStock++;
    if (okF && okT && okE && okS) {
      const conditions = new Set(offers.filter((o) => o.condition && copyOk(o, 'condition')).map((o) => o.condition!));
      const languages = new Set(offers.filter((o) => copyOk(o, 'language')).map((o) => o.language));
      for (const c of conditions) add(answer.conditions, c);
      for (const l of languages) add(answer.languages, l);
    }
  }
  return answer;
}

function sameCounts(a: Record<string, number>, b: Record<string, number>): boolean {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  return [...keys].every((k) => Number(a[k] ?? 0) === Number(b[k] ?? 0));
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const rank = Math.ceil((p / 100) * sorted.length) - 1;
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank))]!;
}

const ms = (value: number) => value.toFixed(1);
const MEMORY = 'In memory (searchExplore)';

interface EngineResult {
  name: string;
  version: string;
  loadMs: number;
  sizes: string;
  settings: string;
  perCall: number[][];
  /** Mean CPU time of the engine per timed call, in ms (load on the machine does not lengthen it as much as the wall time). */
  cpuPerCall: number;
  answers: Answer[];
  failures: string[];
}

async function measure(engine: Engine, products: Product[], offers: Offer[]): Promise<EngineResult> {
  const offersOf = new Map<string, Offer[]>();
  for (const o of offers) offersOf.set(o.product_id, [...(offersOf.get(o.product_id) ?? []), o]);
  console.error(`[${engine.name}] loading ${products.length} products and ${offers.length} offers…`);
  const loadMs = await load(engine, products, offers);
  const sizes = await engine.query<{ t: string; total: string; table: string; indexes: string }>(
    `select c.relname as t, pg_size_pretty(pg_total_relation_size(c.oid)) as total, pg_size_pretty(pg_table_size(c.oid)) as table,
       pg_size_pretty(pg_indexes_size(c.oid)) as indexes
     from pg_class c where c.relname in ('products', 'card_offers') and c.relnamespace = 'public'::regnamespace order by c.relname desc`,
  );
  const settings = await engine.query<{ name: string; setting: string; unit: string | null }>(
    `select name, setting, unit from pg_settings where name in ('shared_buffers', 'work_mem', 'jit', 'max_parallel_workers_per_gather') order by name`,
  );
  const config = await engine.query<{ c: string }>(`select array_to_string(proconfig, ', ') as c from pg_proc where proname = 'explore_search'`);
  console.error(`[${engine.name}] loaded in ${ms(loadMs)} ms; warming up…`);
  for (let w = 0; w < 2; w++) for (const call of CALLS) await engine.query(SQL_CALL, params(call));
  if (process.env.EXPLAIN && engine.name.startsWith('PostgreSQL')) {
    await engine.exec(`load 'auto_explain'; set auto_explain.log_min_duration = 0; set auto_explain.log_analyze = on;
      set auto_explain.log_nested_statements = on; set auto_explain.log_level = notice; set client_min_messages = notice`);
    for (const [k, call] of CALLS.entries()) {
      if (process.env.EXPLAIN !== '1' && !process.env.EXPLAIN.split(',').includes(String(k))) continue;
      console.error(`--- ${call.label}`);
      await engine.query(SQL_CALL, params(call));
    }
    await engine.exec(`set auto_explain.log_min_duration = -1; set client_min_messages = warning`);
  }
  const perCall: number[][] = CALLS.map(() => []);
  const answers: Answer[] = [];
  const cpuBefore = await engine.cpuMs();
  for (let round = 0; round < ROUNDS; round++) {
    for (const [k, call] of CALLS.entries()) {
      const started = performance.now();
      const rows = await engine.query<{ answer: Answer | string }>(SQL_CALL, params(call));
      perCall[k]!.push(performance.now() - started);
      const answer = rows[0]!.answer;
      answers[k] = typeof answer === 'string' ? (JSON.parse(answer) as Answer) : answer;
    }
  }
  const cpuPerCall = ((await engine.cpuMs()) - cpuBefore) / (ROUNDS * CALLS.length);
  return {
    name: engine.name,
    cpuPerCall,
    version: engine.version,
    loadMs,
    sizes: sizes.map((s) => `${s.t} ${s.total} (table ${s.table}, indexes ${s.indexes})`).join('; '),
    settings: `server: ${settings.map((s) => `${s.name}=${s.setting}${s.unit ?? ''}`).join(', ')}; the function's own: ${config[0]?.c ?? ''}`,
    perCall,
    answers,
    failures: checkAnswers(answers, products, offersOf),
  };
}

/** Differences between the answers of the calls without words and the counts computed here. */
function checkAnswers(answers: Answer[], products: Product[], offersOf: Map<string, Offer[]>): string[] {
  const failures: string[] = [];
  for (const [k, call] of CALLS.entries()) {
    const answer = answers[k]!;
    if (answer.products.length > PAGE) failures.push(`${call.label}: ${answer.products.length} products on a page`);
    if (call.q) continue;
    const want = expected(call, products, offersOf);
    for (const key of ['franchises', 'types', 'expansions', 'conditions', 'languages'] as const)
      if (!sameCounts(answer[key], want[key])) failures.push(`${call.label}: ${key} ${JSON.stringify(answer[key])} ≠ ${JSON.stringify(want[key])}`);
    if (Number(answer.total) !== want.total) failures.push(`${call.label}: total ${answer.total} ≠ ${want.total}`);
    if (Number(answer.inStock) !== want.inStock) failures.push(`${call.label}: inStock ${answer.inStock} ≠ ${want.inStock}`);
  }
  return failures;
}

/** The shop's in-memory search over the same catalogue, timed the same way (after the same warm-up). */
function measureMemory(products: Product[], offers: Offer[]): EngineResult {
  const offersOf = new Map<string, Offer[]>();
  for (const o of offers) offersOf.set(o.product_id, [...(offersOf.get(o.product_id) ?? []), o]);
  const started = performance.now();
  const cents = (pesos: number) => Math.round(pesos * 100) as Centavos;
  const data: ExploreData = {
    franchises: franchises.map(({ id, name }) => ({ id, name })),
    expansions: expansions.map((e) => ({ id: e.id, name: e.name, franchiseId: e.franchiseId })),
    types: productTypes.map((t) => ({ id: t.id, name: t.name, franchiseId: t.franchiseId })),
    products: products.map((p): ExploreProduct => {
      const single = SINGLES_TYPE_IDS.includes(p.product_type_id);
      const tokens = [
        ...new Set((offersOf.get(p.id) ?? []).filter((o) => o.stock > 0).map((o) => `${o.grading_company ? 'G' : o.condition}.${o.language}.${o.finish}`)),
      ];
      return {
        id: p.id,
        name: p.name,
        priceCentavos: cents(p.price),
        originalPriceCentavos: p.original_price === null ? null : cents(p.original_price),
        stock: p.stock,
        preorder: p.preorder,
        sale: p.discount,
        franchiseId: p.franchise_id,
        expansionId: p.expansion_id,
        typeId: p.product_type_id,
        image: `products/${p.id}-1.webp`,
        released: p.release_date ?? '',
        ...(single ? { rarity: '', offers: tokens.join(' ') } : {}),
      };
    }),
  };
  const loadMs = performance.now() - started;
  const run = (call: Call) =>
    searchExplore(
      data,
      {
        ...EMPTY_FILTERS,
        q: call.q ?? '',
        franchise: call.franchise ?? '',
        type: call.type ?? '',
        expansion: call.expansion ?? '',
        inStock: call.inStock ?? false,
        condition: call.condition ?? '',
        language: call.language ?? '',
        sort: (call.sort ?? 'relevancia') as typeof EMPTY_FILTERS.sort,
      },
      call.offset ?? 0,
      PAGE,
    );
  console.error(`[memory] warming up (the first call prepares the columns)…`);
  const first = performance.now();
  run(CALLS[0]!);
  const prepareMs = performance.now() - first;
  for (let w = 0; w < 2; w++) for (const call of CALLS) run(call);
  const perCall: number[][] = CALLS.map(() => []);
  const answers: Answer[] = [];
  const cpuBefore = ownCpuMs();
  const record = (facets: FacetCount[]) => Object.fromEntries(facets.filter((f) => f.count > 0).map((f) => [f.id, f.count]));
  for (let round = 0; round < ROUNDS; round++) {
    for (const [k, call] of CALLS.entries()) {
      const t0 = performance.now();
      const answer = run(call);
      perCall[k]!.push(performance.now() - t0);
      answers[k] = {
        total: answer.total,
        typo: false,
        franchises: record(answer.facets.franchises),
        types: record(answer.facets.types),
        expansions: record(answer.facets.expansions),
        conditions: record(answer.facets.conditions),
        languages: record(answer.facets.languages),
        inStock: answer.facets.inStock,
        products: answer.products.map((p) => ({ id: p.id, name: p.name, price: p.priceCentavos / 100 })),
      };
    }
  }
  const cpuPerCall = (ownCpuMs() - cpuBefore) / (ROUNDS * CALLS.length);
  return {
    name: MEMORY,
    cpuPerCall,
    version: `Node ${process.version}`,
    loadMs: loadMs + prepareMs,
    sizes: '—',
    settings: `first call (prepares the columns) ${ms(prepareMs)} ms`,
    perCall,
    answers,
    failures: checkAnswers(answers, products, offersOf),
  };
}

async function main(): Promise<void> {
  const started = new Date();
  console.error(`Generating ${PRODUCTS} products…`);
  const { products, offers } = makeCatalog(PRODUCTS);
  const results: EngineResult[] = [];
  const broken: string[] = [];
  for (const name of ENGINES) {
    if (!['memory', 'postgres', 'pglite'].includes(name)) throw new Error(`unknown engine ${name} (memory, postgres or pglite)`);
    // An engine that fails is reported and the others still run.
    const before = results.length;
    try {
      if (name === 'memory') results.push(measureMemory(products, offers));
      else {
        const engine = name === 'postgres' ? await postgresEngine() : await pgliteEngine();
        try {
          results.push(await measure(engine, products, offers));
        } finally {
          await engine.close();
        }
      }
    } catch (error) {
      console.error(`[${name}] failed:`, error);
      broken.push(`${name}: ${(error as Error).message}`);
    }
    const last = results.length > before ? results[results.length - 1] : undefined;
    if (last) {
      const all = last.perCall.flat().sort((a, b) => a - b);
      console.error(`[${last.name}] p50 ${ms(percentile(all, 50))} ms, p95 ${ms(percentile(all, 95))} ms, CPU per call ${ms(last.cpuPerCall)} ms`);
    }
  }

  const out: string[] = [];
  out.push(`## explore_search at ${PRODUCTS.toLocaleString('en-US')} products (${offers.length.toLocaleString('en-US')} card offers)`);
  out.push('');
  out.push(
    `${started.toISOString()} · ${os.cpus().length} cores (${os.cpus()[0]?.model ?? '?'}) · load average at the end ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(', ')} · ${ROUNDS} rounds of ${CALLS.length} calls after 2 warm-up rounds, page of ${PAGE}`,
  );
  out.push('');
  out.push('| Engine | p50 | p95 | max | CPU per call (mean) | load + indexes | sizes | settings |');
  out.push('|---|---|---|---|---|---|---|---|');
  for (const r of results) {
    const all = r.perCall.flat().sort((a, b) => a - b);
    out.push(
      `| ${r.name} (${r.version}) | ${ms(percentile(all, 50))} ms | ${ms(percentile(all, 95))} ms | ${ms(all[all.length - 1]!)} ms | ${ms(r.cpuPerCall)} ms | ${(r.loadMs / 1000).toFixed(1)} s | ${r.sizes} | ${r.settings} |`,
    );
  }
  out.push('');
  const sql = results.filter((r) => r.name !== MEMORY);
  const memory = results.find((r) => r.name === MEMORY);
  out.push(`| Call | total (SQL)${memory ? ' | total (memory)' : ''} | ${results.map((r) => `${r.name} median (min–max)`).join(' | ')} |`);
  out.push(`|---|---|${memory ? '---|' : ''}${results.map(() => '---|').join('')}`);
  for (const [k, call] of CALLS.entries()) {
    const answer = sql[0]?.answers[k];
    const total = answer ? `${answer.total}${answer.typo ? ' (typo)' : ''}` : '';
    const cells = results.map((r) => {
      const times = [...r.perCall[k]!].sort((a, b) => a - b);
      return `${ms(percentile(times, 50))} ms (${ms(times[0]!)}–${ms(times[times.length - 1]!)})`;
    });
    out.push(`| ${call.label} | ${total}${memory ? ` | ${memory.answers[k]!.total}` : ''} | ${cells.join(' | ')} |`);
  }
  const agree = sql.length < 2 || sql.every((r) => r.answers.every((a, k) => a.total === sql[0]!.answers[k]!.total));
  out.push('');
  if (sql.length > 1) out.push(`Totals the same on every SQL engine: ${agree ? 'yes' : 'NO'}.`);
  if (memory) out.push('The in-memory search matches words its own way (prefixes, its own typo rule), so its totals for calls with words differ.');
  for (const r of results)
    out.push(
      `Counts of the calls without words checked against JavaScript on ${r.name}: ${r.failures.length === 0 ? 'all equal' : `${r.failures.length} differences`}.`,
    );
  for (const r of results) for (const failure of r.failures.slice(0, 10)) out.push(`  - ${r.name}: ${failure}`);
  for (const failure of broken) out.push(`Engine that failed: ${failure}`);
  if (process.env.SHOW_ANSWERS) for (const [k, call] of CALLS.entries()) console.error(call.label, JSON.stringify(results[0]?.answers[k]).slice(0, 600));
  console.log(out.join('\n'));
  if (results.some((r) => r.failures.length > 0) || !agree || broken.length > 0) process.exitCode = 1;
}

await main();
