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
      // numeric is a JSON number in the REST answers (the local stack, like PostgREST, builds
      // them with json_agg), so it is typed as number.
      const { rows } = await db.query<{ body: string }>(
        `select json_agg(k)::text as body from (select 12.50::numeric(12,2) as price) k`,
      );
      expect(typeof (JSON.parse(rows[0]!.body) as { price: unknown }[])[0]!.price).toBe('number');
    } finally {
      await db.close();
    }
  });
});
