/**
 * A drop's limit per delivery address under real concurrency, on a throwaway PostgreSQL server:
 * ten accounts attach the same address (written ten ways) to their pending orders of a drop with a
 * limit of 2, all at once; exactly two succeed, whatever the order, and every other one is refused
 * with drop_address_limit: the advisory lock on (product, address) judges them one after another.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyMigrations } from 'local-supabase/migrate';
import { beginAsUser, closeAll, createOrderAs } from './pg-requests.ts';
import { connectTo, pgServerSupport, startPgServer, type PgServer } from './pg-server.ts';
import { ROOT_DIR } from './support.ts';

const support = pgServerSupport();
if (!support.ok) console.log(`drop-address-concurrency.test.ts: se omite, ${support.reason}`);

const ACCOUNTS = 10;
const userId = (i: number) => `60000000-0000-4000-a000-${String(i).padStart(12, '0')}`;

describe.skipIf(!support.ok)("a drop's limit per address under concurrency (PostgreSQL server)", () => {
  let server: PgServer;
  let admin: pg.Client;
  const clients: pg.Client[] = [];

  beforeAll(async () => {
    server = await startPgServer();
    admin = await connectTo(server);
    await applyMigrations(async (sql) => void (await admin.query(sql)), ROOT_DIR, { seed: false });
    await admin.query("insert into public.franchises (id, name) values ('pokemon', 'Pokémon') on conflict do nothing");
    await admin.query(
      `insert into public.products (id, name, price, stock, limit_per_customer, franchise_id, on_sale_at)
       values ('race-drop', 'Caja de lanzamiento', 1500, 100, 2, 'pokemon', now() - interval '1 minute')`,
    );
    for (let i = 0; i < ACCOUNTS; i += 1) {
      await admin.query('insert into auth.users (id, email) values ($1, $2)', [userId(i), `cuenta${i}@correo.mx`]);
      clients.push(await connectTo(server));
    }
  });

  afterAll(() => closeAll(server, admin, clients));

  it('ten accounts attaching one address at once: exactly the limit gets through', async () => {
    const streets = ['Av. Reforma 222', 'av reforma 222', 'AV. REFORMA #222', 'Av Réforma 222', ' av.  reforma 222 '];
    const prepared: Array<{ order: string; address: string }> = [];
    // Addresses saved before the 5-digit rule for México ('6600'), as old rows still are.
    await admin.query('alter table public.addresses disable trigger addresses_zip_mx');
    for (let i = 0; i < ACCOUNTS; i += 1) {
      const { rows } = await admin.query<{ id: string }>(
        `insert into public.addresses (user_id, street, city, state, zip, country) values ($1, $2, 'CDMX', 'CDMX', $3, $4) returning id`,
        [userId(i), streets[i % streets.length], i % 2 === 0 ? '06600' : '6600', i % 3 === 0 ? 'México' : 'mexico'],
      );
      prepared.push({ order: await createOrderAs(admin, userId(i), [{ product_id: 'race-drop', quantity: 1 }]), address: rows[0]!.id });
    }
    await admin.query('alter table public.addresses enable trigger addresses_zip_mx');
    await Promise.all(clients.map((client, i) => beginAsUser(client, userId(i))));
    const results = await Promise.all(
      clients.map(async (client, i) => {
        try {
          await client.query('update public.orders set shipping_address_id = $1 where id = $2', [prepared[i]!.address, prepared[i]!.order]);
          await client.query('commit');
          return 'ok';
        } catch (err) {
          await client.query('rollback');
          return (err as { detail?: string }).detail ?? 'error';
        }
      }),
    );
    expect(results.filter((r) => r === 'ok')).toHaveLength(2);
    expect(results.filter((r) => r !== 'ok')).toEqual(Array(ACCOUNTS - 2).fill('drop_address_limit:race-drop'));
    const { rows } = await admin.query<{ attached: string }>(
      `select count(*)::text as attached from public.orders where id = any($1::uuid[]) and shipping_address_id is not null`,
      [prepared.map((p) => p.order)],
    );
    expect(rows[0]!.attached).toBe('2');
  });
});
