import fs from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { describe, expect, it } from 'vitest';
import { databaseTypesFor, TYPES_FILE } from '../../../scripts/db-types.ts';
import { generateDatabaseTypes } from '../../../scripts/db-types/generate.ts';

describe('src/data/database.types.ts', () => {
  it('matches the migrations (run npm run db:types after changing the schema)', async () => {
    const generated = await databaseTypesFor();
    expect(fs.readFileSync(TYPES_FILE, 'utf8')).toBe(generated);
  });
});

describe('generateDatabaseTypes', () => {
  it('maps columns, nullability, defaults, relationships, views, functions and enums', async () => {
    const db = new PGlite();
    try {
      await db.exec(`
        create type public.mood as enum ('feliz', 'triste');
        create table public.parents (id uuid primary key default gen_random_uuid(), name text not null);
        create table public.kids (
          id integer generated always as identity primary key,
          parent_id uuid not null unique references public.parents (id),
          price numeric(12,2) not null,
          tags text[] not null default '{}',
          details jsonb,
          mood public.mood,
          doubled numeric generated always as (price * 2) stored,
          born date
        );
        create view public.kid_prices as select id, price from public.kids;
        create function public.kid_count(parent uuid, since date default null) returns integer
          language sql as 'select count(*)::int from public.kids where parent_id = parent';
        create function public.kid_rows() returns table (id integer, price numeric)
          language sql as 'select id, price from public.kids';
      `);
      const source = await generateDatabaseTypes(db);
      expect(source).toContain(`      kids: {
        Row: {
          id: number;
          parent_id: string;
          price: number;
          tags: string[];
          details: Json | null;
          mood: Database["public"]["Enums"]["mood"] | null;
          doubled: number | null;
          born: string | null;
        };
        Insert: {
          id?: number;
          parent_id: string;
          price: number;
          tags?: string[];
          details?: Json | null;
          mood?: Database["public"]["Enums"]["mood"] | null;
          doubled?: never;
          born?: string | null;
        };`);
      expect(source).toContain(`            foreignKeyName: "kids_parent_id_fkey";
            columns: ["parent_id"];
            isOneToOne: true;
            referencedRelation: "parents";
            referencedColumns: ["id"];`);
      expect(source).toContain(`      kid_prices: {
        Row: {
          id: number | null;
          price: number | null;
        };`);
      expect(source).toContain(`      kid_count: {
        Args: {
          parent: string;
          since?: string | null;
        };
        Returns: number;
      };`);
      expect(source).toContain(`        Returns: {
          id: number | null;
          price: number | null;
        }[];`);
      expect(source).toContain('mood: "feliz" | "triste";');
    } finally {
      await db.close();
    }
  });

  it('lets an argument be null where the function takes null: a default, a null test, or a write into a nullable column', async () => {
    const db = new PGlite();
    try {
      await db.exec(`
        create schema extra;
        create table extra.things (id text primary key, owner text, status text not null, note text);
        create function public.put_thing(p_id text, p_owner text, p_status text, p_note text default null) returns void
          language plpgsql as $$
          begin
            insert into extra.things (id, owner, status, note) values (p_id, p_owner, p_status, coalesce(p_note, ''));
          end $$;
        create function public.move_thing(p_id text, p_from text[], p_owner text, p_label text) returns void
          language plpgsql as $$
          begin
            if p_label is null then
              raise exception 'Falta la etiqueta %', coalesce(p_label, '');
            end if;
            update extra.things t set owner = p_owner, status = p_label where t.id = p_id and (p_from is null or t.status = any (p_from));
          end $$;
        create function public.strict_thing(p_owner text) returns boolean
          language sql strict as 'select p_owner is null';
      `);
      const source = await generateDatabaseTypes(db);
      // p_owner goes into a nullable column, p_status into a NOT NULL one, p_note has a default.
      expect(source).toContain(`      put_thing: {
        Args: {
          p_id: string;
          p_owner: string | null;
          p_status: string;
          p_note?: string | null;
        };`);
      // p_from is tested for null; p_label is refused when null (the raise's message does not count).
      expect(source).toContain(`      move_thing: {
        Args: {
          p_id: string;
          p_from: string[] | null;
          p_owner: string | null;
          p_label: string;
        };`);
      // A STRICT function never runs with a null argument.
      expect(source).toContain(`      strict_thing: {
        Args: {
          p_owner: string;
        };`);
      // numeric is a JSON number in the REST answers (the local stack, like PostgREST, builds
      // them with json_agg), so it is typed as number.
      const { rows } = await db.query<{ body: string }>(`select json_agg(k)::text as body from (select 12.50::numeric(12,2) as price) k`);
      expect(typeof (JSON.parse(rows[0]!.body) as { price: unknown }[])[0]!.price).toBe('number');
    } finally {
      await db.close();
    }
  });
});
