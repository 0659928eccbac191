/**
 * Favorites in the shopper's account: each shopper reads, adds and removes only their own, a
 * product is a favorite once however often the heart is tapped, an offer must be of its product,
 * and nobody signed out touches the table.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PGlite } from '@electric-sql/pglite';
import { attempt, commit, migratedPglite, type ApiRole } from './support.ts';

const ANA = '00000000-0000-4000-a000-0000000007a1';
const BETO = '00000000-0000-4000-a000-0000000007b2';
const LP_EN = '00000000-0000-4000-d000-000000000701';

type Actor = 'anon' | 'ana' | 'beto';
const ACTORS: Record<Actor, [ApiRole, string | undefined]> = {
  anon: ['anon', undefined],
  ana: ['authenticated', ANA],
  beto: ['authenticated', BETO],
};

let db: PGlite;

async function sql(statement: string, params: unknown[] = []): Promise<Record<string, unknown>[]> {
  const outcome = await commit(db, 'postgres', undefined, statement, params);
  if (!outcome.ok) throw new Error(`${statement}: ${outcome.error?.message}`);
  return outcome.rows;
}

function as(actor: Actor, statement: string, params: unknown[] = []) {
  const [role, sub] = ACTORS[actor];
  return attempt(db, role, sub, statement, params);
}

function committedAs(actor: Actor, statement: string, params: unknown[] = []) {
  const [role, sub] = ACTORS[actor];
  return commit(db, role, sub, statement, params);
}

const ADD = 'insert into public.favorites (product_id, offer_id) values ($1, $2) returning user_id';

beforeAll(async () => {
  db = await migratedPglite();
  await sql(`insert into auth.users (id, email, raw_user_meta_data) values
    ('${ANA}', 'ana7@correo.mx', '{"username":"ana7"}'),
    ('${BETO}', 'beto7@correo.mx', '{"username":"beto7"}')`);
  await sql(`insert into public.franchises (id, name) values ('one-piece', 'One Piece')`);
  await sql(`insert into public.products (id, name, price, stock, limit_per_customer, franchise_id) values
    ('op05-119', 'Monkey.D.Luffy', 4000, 0, 5, 'one-piece'),
    ('op05-060', 'Roronoa Zoro', 150, 3, 5, 'one-piece')`);
  await sql(`insert into public.card_offers (id, product_id, condition, language, finish, price, stock) values
    ('${LP_EN}', 'op05-119', 'LP', 'en', 'parallel', 3200, 5)`);
});

afterAll(async () => {
  await db?.close();
});

describe('favorites', () => {
  it('a shopper adds a favorite for themselves, whatever user id they send', async () => {
    const added = await committedAs('ana', ADD, ['op05-060', null]);
    expect(added.ok).toBe(true);
    expect(added.rows[0]?.user_id).toBe(ANA);
    const forged = await as('ana', 'insert into public.favorites (user_id, product_id) values ($1, $2)', [BETO, 'op05-119']);
    expect(forged.ok).toBe(false);
    expect(forged.error?.message).toMatch(/permission denied/);
  });

  it('the same product twice is one favorite; an offer is its own favorite', async () => {
    const again = await as('ana', ADD, ['op05-060', null]);
    expect(again.ok).toBe(false);
    expect(again.error?.code).toBe('23505');
    expect((await committedAs('ana', ADD, ['op05-119', LP_EN])).ok).toBe(true);
    expect((await committedAs('ana', ADD, ['op05-119', null])).ok).toBe(true);
    const rows = await as('ana', 'select product_id, offer_id from public.favorites order by product_id, offer_id nulls first');
    expect(rows.rows).toEqual([
      { product_id: 'op05-060', offer_id: null },
      { product_id: 'op05-119', offer_id: null },
      { product_id: 'op05-119', offer_id: LP_EN },
    ]);
  });

  it('an offer of another product is refused', async () => {
    const wrong = await as('ana', ADD, ['op05-060', LP_EN]);
    expect(wrong.ok).toBe(false);
    expect(wrong.error?.code).toBe('23514');
  });

  it('nobody else reads or removes them, and signed out nobody touches the table', async () => {
    expect((await as('beto', 'select * from public.favorites')).rows).toEqual([]);
    const removed = await as('beto', 'delete from public.favorites where user_id = $1', [ANA]);
    expect(removed.ok).toBe(true);
    expect(removed.affected).toBe(0);
    expect((await as('beto', 'update public.favorites set product_id = $1', ['op05-119'])).ok).toBe(false);
    expect((await as('anon', 'select * from public.favorites')).ok).toBe(false);
    expect((await as('anon', ADD, ['op05-060', null])).ok).toBe(false);
    expect(await sql('select count(*)::int as n from public.favorites')).toEqual([{ n: 3 }]);
  });

  it('the shopper removes their own; a deleted product takes its favorites with it', async () => {
    const removed = await committedAs('ana', 'delete from public.favorites where product_id = $1 and offer_id is null', ['op05-060']);
    expect(removed.affected).toBe(1);
    await sql(`delete from public.products where id = 'op05-119'`);
    expect(await sql('select count(*)::int as n from public.favorites')).toEqual([{ n: 0 }]);
  });
});
