/** Reading auth.users rows and shaping them as GoTrue's user JSON. */
import type { Tx } from '../db.ts';

export interface UserRow {
  id: string;
  aud: string | null;
  role: string | null;
  email: string | null;
  encrypted_password: string | null;
  email_confirmed_at: Date | string | null;
  confirmation_token: string | null;
  confirmation_sent_at: Date | string | null;
  recovery_token: string | null;
  recovery_sent_at: Date | string | null;
  last_sign_in_at: Date | string | null;
  raw_user_meta_data: Record<string, unknown> | null;
  raw_app_meta_data: Record<string, unknown> | null;
  is_anonymous: boolean | null;
  banned_until: Date | string | null;
  created_at: Date | string | null;
  updated_at: Date | string | null;
  deleted_at: Date | string | null;
}

export interface IdentityRow {
  id: string;
  user_id: string;
  provider: string;
  provider_id: string;
  identity_data: Record<string, unknown> | null;
  email: string | null;
  created_at: Date | string | null;
  updated_at: Date | string | null;
  last_sign_in_at: Date | string | null;
}

/** RFC 3339 text for a timestamp column, or undefined when unset. */
export function iso(value: Date | string | null | undefined): string | undefined {
  if (value === null || value === undefined) return undefined;
  const d = value instanceof Date ? value : new Date(value);
  return Number.isNaN(d.getTime()) ? undefined : d.toISOString();
}

const USER_COLUMNS = `id::text as id, aud, role, email, encrypted_password, email_confirmed_at, confirmation_token,
  confirmation_sent_at, recovery_token, recovery_sent_at, last_sign_in_at, raw_user_meta_data, raw_app_meta_data,
  is_anonymous, banned_until, created_at, updated_at, deleted_at`;

/** The live (not deleted) user with this e-mail, compared case-insensitively. */
export async function findUserByEmail(tx: Tx, email: string): Promise<UserRow | null> {
  const r = await tx.query<UserRow>(
    `select ${USER_COLUMNS} from auth.users where lower(email) = lower($1) and deleted_at is null
     order by created_at limit 1`,
    [email],
  );
  return r.rows[0] ?? null;
}

/** The user with this id, deleted ones excluded. */
export async function findUserById(tx: Tx, id: string): Promise<UserRow | null> {
  if (!isUuid(id)) return null;
  const r = await tx.query<UserRow>(`select ${USER_COLUMNS} from auth.users where id = $1 and deleted_at is null`, [id]);
  return r.rows[0] ?? null;
}

/** The user whose column `column` holds this token hash. */
export async function findUserByTokenHash(tx: Tx, column: 'confirmation_token' | 'recovery_token', hash: string): Promise<UserRow | null> {
  const r = await tx.query<UserRow>(`select ${USER_COLUMNS} from auth.users where ${column} = $1 and deleted_at is null limit 1`, [hash]);
  return r.rows[0] ?? null;
}

/** All identities of a user, oldest first. */
export async function identitiesOf(tx: Tx, userId: string): Promise<IdentityRow[]> {
  const r = await tx.query<IdentityRow>(
    `select id::text as id, user_id::text as user_id, provider, provider_id, identity_data, email,
            created_at, updated_at, last_sign_in_at
       from auth.identities where user_id = $1 order by created_at, provider`,
    [userId],
  );
  return r.rows;
}

/** True for a canonical UUID string. */
export function isUuid(value: unknown): value is string {
  return typeof value === 'string' && /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value);
}

function identityJson(i: IdentityRow): Record<string, unknown> {
  const out: Record<string, unknown> = {
    // GoTrue swaps the names for historical reasons: `id` is the provider's user id.
    identity_id: i.id,
    id: i.provider_id,
    user_id: i.user_id,
    identity_data: i.identity_data ?? {},
    provider: i.provider,
    last_sign_in_at: iso(i.last_sign_in_at),
    created_at: iso(i.created_at),
    updated_at: iso(i.updated_at),
  };
  const email = i.email ?? (typeof i.identity_data?.email === 'string' ? i.identity_data.email : undefined);
  if (email) out.email = email.toLowerCase();
  return out;
}

/** GoTrue's user JSON; unset optional timestamps are left out as GoTrue does. */
export function userJson(u: UserRow, identities: IdentityRow[]): Record<string, unknown> {
  const out: Record<string, unknown> = {
    id: u.id,
    aud: u.aud || 'authenticated',
    role: u.role || 'authenticated',
    email: u.email ?? '',
    phone: '',
  };
  const put = (key: string, value: string | undefined) => {
    if (value !== undefined) out[key] = value;
  };
  put('email_confirmed_at', iso(u.email_confirmed_at));
  put('confirmation_sent_at', iso(u.confirmation_sent_at));
  put('recovery_sent_at', iso(u.recovery_sent_at));
  put('confirmed_at', iso(u.email_confirmed_at));
  put('last_sign_in_at', iso(u.last_sign_in_at));
  out.app_metadata = u.raw_app_meta_data ?? { provider: 'email', providers: ['email'] };
  out.user_metadata = u.raw_user_meta_data ?? {};
  out.identities = identities.map(identityJson);
  put('created_at', iso(u.created_at));
  put('updated_at', iso(u.updated_at));
  put('banned_until', iso(u.banned_until));
  out.is_anonymous = u.is_anonymous ?? false;
  return out;
}
