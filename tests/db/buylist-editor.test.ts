/**
 * The buylist's editor in the database (supabase/migrations/20261129019000_buylist_editor.sql):
 * every change of the rules and the entries recorded with who and what, the history readable by
 * admins only and written by nobody; the shop's receiving address read by everyone, written by
 * admins, complete or absent; the back office's list of entries and the printing search.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PGlite } from '@electric-sql/pglite';
import { attempt, commit, migratedPglite, type ApiRole, type Outcome } from './support.ts';

const ANA = '00000000-0000-4000-a000-0000000019a1';
const ADMIN = '00000000-0000-4000-a000-0000000019ad';
const LUFFY = 'op-luffy-op05-119';
const ZORO = 'op-zoro-op05-060';
const NAMI = 'op-nami-op05-070';

type Actor = 'anon' | 'ana' | 'admin' | 'service';
const ACTORS: Record<Actor, [ApiRole, string | undefined]> = {
  anon: ['anon', undefined],
  ana: ['authenticated', ANA],
  admin: ['authenticated', ADMIN],
  service: ['service_role', undefined],
};

const ADDRESS = {
  ship_name: 'Cartas Mx · Compras',
  ship_street: 'Av. Álvaro Obregón 120, int. 4',
  ship_colonia: 'Roma Norte',
  ship_zip: '06700',
  ship_municipio: 'Cuauhtémoc',
  ship_state: 'Ciudad de México',
  ship_phone: '5512345678',
  ship_hours: 'Lunes a sábado de 12:00 a 20:00',
};
const SET_ADDRESS = `update public.buylist_settings set ${Object.keys(ADDRESS)
  .map((column, i) => `${column} = $${i + 1}`)
  .join(', ')} returning ship_zip`;

let db: PGlite;

async function sql<T = Record<string, unknown>>(statement: string, params: unknown[] = []): Promise<T[]> {
  const outcome = await commit<T>(db, 'postgres', undefined, statement, params);
  if (!outcome.ok) throw new Error(`${statement}: ${outcome.error?.message}`);
  return outcome.rows;
}

function as<T = Record<string, unknown>>(actor: Actor, statement: string, params: unknown[] = []): Promise<Outcome<T>> {
  const [role, sub] = ACTORS[actor];
  return commit<T>(db, role, sub, statement, params);
}

function tried<T = Record<string, unknown>>(actor: Actor, statement: string, params: unknown[] = []): Promise<Outcome<T>> {
  const [role, sub] = ACTORS[actor];
  return attempt<T>(db, role, sub, statement, params);
}

interface RuleEvent {
  subject: string;
  action: string;
  entry_id: string | null;
  product_id: string | null;
  changes: Record<string, { from: unknown; to: unknown }>;
  actor: string | null;
}

async function events(): Promise<RuleEvent[]> {
  return sql<RuleEvent>('select subject, action, entry_id, product_id, changes, actor from public.buylist_rule_events order by id');
}

beforeAll(async () => {
  db = await migratedPglite();
  await sql(`insert into auth.users (id, email, raw_user_meta_data) values
    ('${ANA}', 'ana19@correo.mx', '{"username":"ana19"}'),
    ('${ADMIN}', 'admin19@correo.mx', '{"username":"admin19"}')`);
  await sql(`update public.profiles set is_admin = true where id = '${ADMIN}'`);
  await sql(`insert into public.franchises (id, name) values ('one-piece', 'One Piece')`);
  await sql(`insert into public.products (id, name, price, stock, franchise_id) values
    ('${LUFFY}', 'Monkey.D.Luffy (OP05-119)', 3799, 6, 'one-piece'),
    ('${ZORO}', 'Roronoa Zoro (OP05-060)', 300, 2, 'one-piece'),
    ('${NAMI}', 'Nami (OP05-070)', 80, 1, 'one-piece')`);
  await sql(`insert into public.card_printings (product_id, expansion, collector_number, rarity, name_en, name_es) values
    ('${LUFFY}', 'OP05', 'OP05-119', 'SEC', 'Monkey.D.Luffy', null),
    ('${ZORO}', 'OP05', 'OP05-060', 'SR', 'Roronoa Zoro', 'Zoro Roronoa'),
    ('${NAMI}', 'OP05', 'OP05-070', 'R', 'Nami', null)`);
  await sql(`insert into public.card_offers (product_id, condition, language, finish, price, stock) values
    ('${ZORO}', 'NM', 'en', 'normal', 320, 1)`);
});

afterAll(async () => {
  await db?.close();
});

describe('the history of the buylist rules', () => {
  it('records an admin adding, editing, pausing and removing an entry, with who and each column from / to', async () => {
    const added = await as<{ id: string }>(
      'admin',
      `insert into public.buylist_entries (product_id, wanted, nm_price) values ('${LUFFY}', 8, 2400) returning id`,
    );
    expect(added.ok).toBe(true);
    const id = added.rows[0]!.id;
    expect((await as('admin', `update public.buylist_entries set wanted = 5, nm_price = 2500 where id = $1 returning id`, [id])).ok).toBe(true);
    expect((await as('admin', `update public.buylist_entries set active = false where id = $1 returning id`, [id])).ok).toBe(true);
    expect((await as('admin', `delete from public.buylist_entries where id = $1 returning id`, [id])).ok).toBe(true);

    const history = (await events()).filter((event) => event.entry_id === id);
    expect(history.map((event) => event.action)).toEqual(['added', 'updated', 'updated', 'removed']);
    expect(history.every((event) => event.actor === ADMIN && event.subject === 'entry' && event.product_id === LUFFY)).toBe(true);
    expect(history[0]!.changes).toMatchObject({ product_id: { from: null, to: LUFFY }, wanted: { from: null, to: 8 }, nm_price: { from: null, to: 2400 } });
    expect(history[1]!.changes).toEqual({ wanted: { from: 8, to: 5 }, nm_price: { from: 2400, to: 2500 } });
    expect(history[2]!.changes).toEqual({ active: { from: true, to: false } });
    expect(history[3]!.changes).toMatchObject({ wanted: { from: 5, to: null }, active: { from: false, to: null } });
  });

  it('records a change of the rules and of the address; saving the same values records nothing', async () => {
    const before = (await events()).length;
    expect((await as('admin', 'update public.buylist_settings set share_lp = 75, credit_bonus_percent = 30 returning id')).ok).toBe(true);
    expect((await as('admin', 'update public.buylist_settings set share_lp = 75, credit_bonus_percent = 30 returning id')).ok).toBe(true);
    const [last, ...rest] = (await events()).slice(before).reverse();
    expect(rest).toEqual([]);
    expect(last).toEqual({
      subject: 'settings',
      action: 'updated',
      entry_id: null,
      product_id: null,
      changes: { share_lp: { from: 80, to: 75 }, credit_bonus_percent: { from: 25, to: 30 } },
      actor: ADMIN,
    });
    await sql('update public.buylist_settings set share_lp = 80, credit_bonus_percent = 25');
  });

  it('does not record the reservations and purchases the submissions make (they have their own history)', async () => {
    await sql(`insert into public.buylist_entries (product_id, wanted) values ('${ZORO}', 30)`);
    const before = (await events()).length;
    await sql(`update public.buylist_entries set reserved = reserved + 2, bought = bought + 1 where product_id = '${ZORO}'`);
    expect((await events()).length).toBe(before);
  });

  it('is read by admins only and written or erased by nobody', async () => {
    const count = (await events()).length;
    expect(count).toBeGreaterThan(0);
    expect((await tried('admin', 'select id from public.buylist_rule_events')).rows).toHaveLength(count);
    expect((await tried('ana', 'select id from public.buylist_rule_events')).rows).toEqual([]);
    expect((await tried('anon', 'select id from public.buylist_rule_events')).error?.code).toBe('42501');
    for (const actor of ['ana', 'admin', 'service'] as const) {
      const insert = await tried(actor, `insert into public.buylist_rule_events (subject, action, changes) values ('settings', 'updated', '{}') returning id`);
      expect(insert.error?.code, actor).toBe('42501');
      expect((await tried(actor, 'delete from public.buylist_rule_events returning id')).error?.code, actor).toBe('42501');
      expect((await tried(actor, `update public.buylist_rule_events set changes = '{}' returning id`)).error?.code, actor).toBe('42501');
    }
  });
});

describe("the shop's receiving address", () => {
  it('is empty until the owner publishes it, then everyone reads it', async () => {
    const [empty] = await sql('select ship_name, ship_zip from public.buylist_settings');
    expect(empty).toEqual({ ship_name: null, ship_zip: null });
    const saved = await as('admin', SET_ADDRESS, Object.values(ADDRESS));
    expect(saved.ok, saved.error?.message).toBe(true);
    for (const actor of ['anon', 'ana'] as const) {
      const read = await tried(actor, `select ${Object.keys(ADDRESS).join(', ')} from public.buylist_settings`);
      expect(read.rows, actor).toEqual([ADDRESS]);
    }
    const [event] = (await events()).slice(-1);
    expect(event!.changes.ship_zip).toEqual({ from: null, to: '06700' });
  });

  it('is written by admins only', async () => {
    for (const actor of ['anon', 'ana'] as const) {
      const outcome = await tried(actor, "update public.buylist_settings set ship_street = 'Calle Falsa 123' returning id");
      expect(outcome.ok && outcome.rows.length > 0, actor).toBe(false);
    }
    const [row] = await sql<{ ship_street: string }>('select ship_street from public.buylist_settings');
    expect(row!.ship_street).toBe(ADDRESS.ship_street);
  });

  it('is complete or absent: a CP of 5 digits, a 10-digit phone, no missing part', async () => {
    const bad = [
      "update public.buylist_settings set ship_zip = '6700'",
      "update public.buylist_settings set ship_phone = '55 1234 5678'",
      'update public.buylist_settings set ship_colonia = null',
      "update public.buylist_settings set ship_street = ' Av. Álvaro Obregón 120'",
    ];
    for (const statement of bad) expect((await tried('admin', statement)).error?.code, statement).toBe('23514');
    const cleared = await tried(
      'admin',
      'update public.buylist_settings set ship_name = null, ship_street = null, ship_colonia = null, ship_zip = null, ship_municipio = null, ship_state = null, ship_phone = null, ship_hours = null returning id',
    );
    expect(cleared.ok).toBe(true);
  });
});

describe("the editor's reads", () => {
  it('lists the entries for admins with their printing, the NM price they pay and the matching count', async () => {
    await sql(`insert into public.buylist_entries (product_id, wanted, nm_price, active) values ('${NAMI}', 4, 90, false)`);
    const all = await tried<{ product_id: string; collector_number: string; effective_nm_price: string; total_count: number; active: boolean }>(
      'admin',
      'select * from public.admin_buylist_entries(null, 10, 0)',
    );
    expect(all.rows.map((row) => row.product_id).sort()).toEqual([NAMI, ZORO]);
    const zoro = all.rows.find((row) => row.product_id === ZORO)!;
    // The default rule: 50 % of the cheapest NM copy ($320.00).
    expect(Number(zoro.effective_nm_price)).toBe(160);
    expect(all.rows.every((row) => Number(row.total_count) === 2)).toBe(true);

    const byNumber = await tried<{ product_id: string }>('admin', "select * from public.admin_buylist_entries('op05 070', 10, 0)");
    expect(byNumber.rows.map((row) => row.product_id)).toEqual([NAMI]);
    const bySpanishName = await tried<{ product_id: string }>('admin', "select * from public.admin_buylist_entries('zoro roronoa', 10, 0)");
    expect(bySpanishName.rows.map((row) => row.product_id)).toEqual([ZORO]);
    const page = await tried<{ total_count: number }>('admin', 'select * from public.admin_buylist_entries(null, 1, 1)');
    expect(page.rows).toHaveLength(1);
    expect(Number(page.rows[0]!.total_count)).toBe(2);

    const refused = await tried('ana', 'select * from public.admin_buylist_entries()');
    expect(refused.error).toMatchObject({ code: '42501', detail: 'not_admin' });
    expect((await tried('anon', 'select * from public.admin_buylist_entries()')).error?.code).toBe('42501');
  });

  it('finds printings by name or collector number, bounded', async () => {
    const byNumber = await tried<{ product_id: string }>('admin', "select * from public.search_card_printings('OP05-119')");
    expect(byNumber.rows.map((row) => row.product_id)).toEqual([LUFFY]);
    const byPrefix = await tried<{ product_id: string }>('admin', "select * from public.search_card_printings('op05', 2)");
    expect(byPrefix.rows).toHaveLength(2);
    const byName = await tried<{ product_id: string }>('anon', "select * from public.search_card_printings('luffy')");
    expect(byName.rows.map((row) => row.product_id)).toEqual([LUFFY]);
    expect((await tried('admin', "select * from public.search_card_printings('l')")).rows).toEqual([]);
  });
});

describe('the demo shop', () => {
  it('publishes a complete receiving address (supabase/local/seed/buylist_address_demo.sql)', async () => {
    const seeded = await migratedPglite({ seed: true });
    try {
      const { rows } = await seeded.query<Record<string, string | null>>(
        'select ship_name, ship_street, ship_colonia, ship_zip, ship_municipio, ship_state, ship_phone from public.buylist_settings',
      );
      expect(rows).toHaveLength(1);
      expect(Object.values(rows[0]!).every((value) => typeof value === 'string' && value.length > 0)).toBe(true);
      expect(rows[0]!.ship_zip).toMatch(/^\d{5}$/);
    } finally {
      await seeded.close();
    }
  });
});
