/**
 * Single cards: public.card_printings and public.card_offers. Everyone reads them, only admins
 * write them (as products), and the table checks refuse offers a shop could not sell: negative
 * prices or stock, grades off the half-point scale, half-described slabs, raw copies with slab
 * fields, a certificate on sale twice, two raw offers of the same kind. collector_key is the
 * same text as normalizeCollectorNumber.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PGlite } from '@electric-sql/pglite';
import { normalizeCollectorNumber } from '~/domain/singles.ts';
import { attempt, commit, inRolledBackTx, migratedPglite, type ApiRole } from './support.ts';

const SHOPPER = '00000000-0000-4000-a000-00000000005a';
const ADMIN = '00000000-0000-4000-a000-0000000000ad';
const RAW_OFFER = '00000000-0000-4000-d000-000000000001';
const SLAB_OFFER = '00000000-0000-4000-d000-000000000002';

const ACTORS: Record<'anon' | 'shopper' | 'admin', [ApiRole, string | undefined]> = {
  anon: ['anon', undefined],
  shopper: ['authenticated', SHOPPER],
  admin: ['authenticated', ADMIN],
};

let db: PGlite;

async function setup(): Promise<void> {
  const statements = [
    `insert into auth.users (id, email, raw_user_meta_data) values
       ('${SHOPPER}', 'compra@correo.mx', '{"username":"compradora","name":"N","lastname":"L"}'),
       ('${ADMIN}', 'admin@correo.mx', '{"username":"jefa","name":"N","lastname":"L"}')`,
    `update public.profiles set is_admin = true where id = '${ADMIN}'`,
    `insert into public.franchises (id, name) values ('pokemon', 'Pokémon'), ('one-piece', 'One Piece')`,
    `insert into public.products (id, name, price, franchise_id) values
       ('sv08-199', 'Pikachu ex', 2500, 'pokemon'),
       ('op05-119', 'Monkey.D.Luffy', 4000, 'one-piece'),
       ('sv08-238', 'Pikachu ex (ilustración)', 9000, 'pokemon')`,
    `insert into public.card_printings (product_id, franchise, expansion, collector_number, rarity, name_en, name_es) values
       ('sv08-199', 'pokemon', 'sv08', '199/165', 'hyper-rare', 'Pikachu ex', 'Pikachu ex'),
       ('op05-119', 'one-piece', 'op05', 'OP05-119', 'SEC', 'Monkey.D.Luffy', null)`,
    `insert into public.card_offers (id, product_id, condition, language, finish, price, stock) values
       ('${RAW_OFFER}', 'sv08-199', 'NM', 'es', 'holo', 2500, 2)`,
    `insert into public.card_offers (id, product_id, language, finish, price, stock, grading_company, grade, certificate_number) values
       ('${SLAB_OFFER}', 'op05-119', 'en', 'manga', 40000, 1, 'PSA', 10, '81234567')`,
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

function as(actor: keyof typeof ACTORS, sql: string, params: unknown[] = []) {
  const [role, sub] = ACTORS[actor];
  return attempt(db, role, sub, sql, params);
}

const WRITES = {
  'insert a printing': `insert into public.card_printings (product_id, collector_number, rarity) values ('sv08-238', '238/191', 'special-illustration-rare') returning product_id`,
  'change a printing': `update public.card_printings set rarity = 'common' where product_id = 'sv08-199' returning product_id`,
  'delete a printing': `delete from public.card_printings where product_id = 'sv08-199' returning product_id`,
  'insert an offer': `insert into public.card_offers (product_id, condition, language, finish, price, stock) values ('sv08-199', 'LP', 'es', 'holo', 2000, 1) returning id`,
  'change an offer’s price': `update public.card_offers set price = 1 where id = '${RAW_OFFER}' returning id`,
  'delete an offer': `delete from public.card_offers where id = '${SLAB_OFFER}' returning id`,
};

describe('who reads and writes single cards', () => {
  for (const actor of ['anon', 'shopper', 'admin'] as const) {
    it(`${actor} reads printings and offers`, async () => {
      const printings = await as(actor, `select product_id, collector_key from public.card_printings order by product_id`);
      expect(printings.error).toBeUndefined();
      expect(printings.rows).toEqual([
        { product_id: 'op05-119', collector_key: 'op05119' },
        { product_id: 'sv08-199', collector_key: '199165' },
      ]);
      const offers = await as(actor, `select id from public.card_offers order by id`);
      expect(offers.error).toBeUndefined();
      expect(offers.rows.map((r) => r.id)).toEqual([RAW_OFFER, SLAB_OFFER]);
    });
  }

  for (const [what, sql] of Object.entries(WRITES)) {
    it(`anon cannot ${what}`, async () => {
      const outcome = await as('anon', sql);
      expect(outcome.ok).toBe(false);
      expect(outcome.error?.code).toBe('42501');
    });

    it(`a shopper cannot ${what}`, async () => {
      const outcome = await as('shopper', sql);
      // An insert is refused by the policy; an update or a delete finds no row it may touch.
      if (sql.startsWith('insert')) {
        expect(outcome.ok).toBe(false);
        expect(outcome.error?.code).toBe('42501');
      } else {
        expect(outcome.error).toBeUndefined();
        expect(outcome.affected).toBe(0);
      }
    });

    it(`an admin can ${what}`, async () => {
      const outcome = await as('admin', sql);
      expect(outcome.error).toBeUndefined();
      expect(outcome.affected).toBe(1);
    });
  }

  it('the shopper’s refused writes left everything as it was', async () => {
    const offers = await as('shopper', `select id, price::text as price from public.card_offers order by id`);
    expect(offers.rows).toEqual([
      { id: RAW_OFFER, price: '2500.00' },
      { id: SLAB_OFFER, price: '40000.00' },
    ]);
  });

  it('deleting a product deletes its printing and offers', async () => {
    const left = await inRolledBackTx(db, 'postgres', undefined, async (q) => {
      await q.query(`delete from public.products where id = 'sv08-199'`);
      const { rows } = await q.query<{ printings: number; offers: number }>(
        `select (select count(*)::int from public.card_printings where product_id = 'sv08-199') as printings,
                (select count(*)::int from public.card_offers where product_id = 'sv08-199') as offers`,
      );
      return rows;
    });
    expect(left).toEqual([{ printings: 0, offers: 0 }]);
  });
});

describe('the checks refuse what a shop could not sell', () => {
  const raw = (values: string) =>
    `insert into public.card_offers (product_id, condition, language, finish, price, stock, grading_company, grade, certificate_number) values ${values} returning id`;

  const REFUSED: [string, string, string][] = [
    ['a negative price', raw(`('sv08-199', 'LP', 'es', 'holo', -1, 1, null, null, null)`), '23514'],
    ['a negative stock', raw(`('sv08-199', 'LP', 'es', 'holo', 10, -1, null, null, null)`), '23514'],
    [
      'an original price not above the price',
      `insert into public.card_offers (product_id, condition, language, finish, price, original_price) values ('sv08-199', 'LP', 'es', 'holo', 10, 10) returning id`,
      '23514',
    ],
    ['a grade of 9.3', raw(`('op05-119', null, 'en', 'normal', 10, 1, 'BGS', 9.3, 'B-1')`), '23514'],
    ['a grade of 0.5', raw(`('op05-119', null, 'en', 'normal', 10, 1, 'CGC', 0.5, 'C-1')`), '23514'],
    ['a slab without certificate', raw(`('op05-119', null, 'en', 'normal', 10, 1, 'PSA', 9, null)`), '23514'],
    ['a slab with a condition', raw(`('op05-119', 'NM', 'en', 'normal', 10, 1, 'PSA', 9, 'P-1')`), '23514'],
    ['a raw offer with a grading company', raw(`('sv08-199', 'NM', 'en', 'holo', 10, 1, 'PSA', null, null)`), '23514'],
    ['an offer with neither condition nor slab', raw(`('sv08-199', null, 'en', 'holo', 10, 1, null, null, null)`), '23514'],
    ['two slabs with the same certificate', raw(`('sv08-199', null, 'en', 'holo', 10, 1, 'PSA', 9, '81234567')`), '23505'],
    ['two raw offers with the same condition, language and finish', raw(`('sv08-199', 'NM', 'es', 'holo', 10, 1, null, null, null)`), '23505'],
    ['an unknown condition', raw(`('sv08-199', 'MINT', 'es', 'holo', 10, 1, null, null, null)`), '22P02'],
  ];

  for (const [what, sql, code] of REFUSED) {
    it(`refuses ${what}`, async () => {
      const outcome = await as('admin', sql);
      expect(outcome.ok, JSON.stringify(outcome.rows)).toBe(false);
      expect(outcome.error?.code).toBe(code);
    });
  }

  it('accepts what a shop sells: another condition, language or finish of the same card, a half grade', async () => {
    const outcome = await as(
      'admin',
      raw(`('sv08-199', 'NM', 'en', 'holo', 10, 1, null, null, null),
           ('sv08-199', 'NM', 'es', 'reverse-holo', 10, 1, null, null, null),
           ('sv08-199', 'LP', 'es', 'holo', 10, 0, null, null, null),
           ('sv08-199', null, 'es', 'holo', 10, 1, 'BGS', 9.5, '0012345678'),
           ('sv08-199', null, 'es', 'holo', 10, 1, 'PSA', 10, '81234568')`),
    );
    expect(outcome.error).toBeUndefined();
    expect(outcome.affected).toBe(5);
  });
});

describe('collector_key', () => {
  const EXAMPLES = ['199/165', 'OP05-119', 'op05 119', 'OGN-042', 'TG05/TG30', 'SV-P 050', 'GG70/GG70'];

  it('is normalizeCollectorNumber of the collector number, computed by the database', async () => {
    for (const number of EXAMPLES) {
      const row = await as(
        'admin',
        `insert into public.card_printings (product_id, collector_number, rarity) values ('sv08-238', $1, 'rare') returning collector_key`,
        [number],
      );
      expect(row.error).toBeUndefined();
      expect(row.rows, number).toEqual([{ collector_key: normalizeCollectorNumber(number) }]);
    }
    expect(EXAMPLES.map(normalizeCollectorNumber).slice(0, 3)).toEqual(['199165', 'op05119', 'op05119']);
  });

  it('finds a card whichever way its number is typed', async () => {
    const outcome = await as('anon', `select product_id from public.card_printings where collector_key = $1`, [normalizeCollectorNumber('op05 119')]);
    expect(outcome.rows).toEqual([{ product_id: 'op05-119' }]);
  });

  it('cannot be written directly', async () => {
    const outcome = await as('admin', `update public.card_printings set collector_key = 'x' where product_id = 'sv08-199' returning product_id`);
    expect(outcome.ok).toBe(false);
  });
});
