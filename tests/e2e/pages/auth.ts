import { expect, request as playwrightRequest, type Locator, type Page } from '@playwright/test';
import { LOCAL_JWT_SECRET } from 'local-supabase/config';
import { apiKeys } from 'local-supabase/jwt';

/** The local stack the e2e web server started (playwright.config.ts passes the same port). */
export const STACK_URL = `http://127.0.0.1:${process.env.E2E_SUPABASE_PORT || '54329'}`;

/** Demo accounts of the seed (scripts/seed/constants.ts). */
export const SHOPPER = { email: 'cliente@demo.mx', password: 'Cliente123!', name: 'Ana', lastname: 'García' } as const;
export const ADMIN = { email: 'admin@demo.mx', password: 'Admin123!' } as const;

/** The local stack's anon and service-role keys (deterministic for the local JWT secret). */
export async function stackKeys(): Promise<{ anonKey: string; serviceRoleKey: string }> {
  return apiKeys(process.env.SUPABASE_JWT_SECRET || LOCAL_JWT_SECRET);
}

/** Headers that read the local mailbox: its API answers only the service key. */
export async function mailboxHeaders(): Promise<Record<string, string>> {
  const { serviceRoleKey } = await stackKeys();
  return { apikey: serviceRoleKey, Authorization: `Bearer ${serviceRoleKey}` };
}

/** A unique e-mail for a sign-up in this run. */
export function uniqueEmail(prefix: string): string {
  return `${prefix}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@prueba.mx`;
}

/** A unique username for a sign-up in this run. */
export function uniqueUsername(prefix: string): string {
  return `${prefix}${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
}

interface MailMessage {
  to: string;
  subject: string;
  links: string[];
  created_at: string;
}

/** Waits for an e-mail to `to` in the local mailbox whose link contains `linkPart`; returns that link. */
export async function mailboxLink(to: string, linkPart: string): Promise<string> {
  const api = await playwrightRequest.newContext();
  try {
    let link: string | undefined;
    await expect
      .poll(
        async () => {
          const response = await api.get(`${STACK_URL}/mailbox/api/messages?to=${encodeURIComponent(to)}`, { headers: await mailboxHeaders() });
          const messages = (await response.json()) as MailMessage[];
          link = messages.flatMap((m) => m.links).find((l) => l.includes(linkPart));
          return link ?? '';
        },
        { timeout: 10_000 },
      )
      .toContain(linkPart);
    return link!;
  } finally {
    await api.dispose();
  }
}

/** Creates a confirmed user through the admin API (profile made by the database trigger). */
export async function createConfirmedUser(prefix: string, metadata: Record<string, string> = {}) {
  const { serviceRoleKey } = await stackKeys();
  const email = uniqueEmail(prefix);
  const password = 'Prueba123!';
  const username = uniqueUsername(prefix);
  const api = await playwrightRequest.newContext();
  try {
    const response = await api.post(`${STACK_URL}/auth/v1/admin/users`, {
      headers: { apikey: serviceRoleKey, Authorization: `Bearer ${serviceRoleKey}` },
      data: {
        email,
        password,
        email_confirm: true,
        user_metadata: { username, name: 'Prueba', lastname: 'Cuenta', phone: '5512345678', ...metadata },
      },
    });
    expect(response.ok(), await response.text()).toBeTruthy();
    const user = (await response.json()) as { id: string };
    return { id: user.id, email, password, username };
  } finally {
    await api.dispose();
  }
}

/** Signs a user in through the auth API; returns the access token. */
export async function accessToken(email: string, password: string): Promise<string> {
  const { anonKey } = await stackKeys();
  const api = await playwrightRequest.newContext();
  try {
    const response = await api.post(`${STACK_URL}/auth/v1/token?grant_type=password`, {
      headers: { apikey: anonKey },
      data: { email, password },
    });
    expect(response.ok(), await response.text()).toBeTruthy();
    return ((await response.json()) as { access_token: string }).access_token;
  } finally {
    await api.dispose();
  }
}

/** A REST call to the local stack as the service role (bypasses row-level security). */
export async function serviceRest(method: 'GET' | 'PATCH' | 'POST' | 'DELETE', path: string, data?: unknown) {
  const { serviceRoleKey } = await stackKeys();
  const api = await playwrightRequest.newContext();
  try {
    const response = await api.fetch(`${STACK_URL}/rest/v1/${path}`, {
      method,
      headers: {
        apikey: serviceRoleKey,
        Authorization: `Bearer ${serviceRoleKey}`,
        'Content-Type': 'application/json',
        Prefer: 'return=representation',
      },
      data,
    });
    const text = await response.text();
    return { status: response.status(), body: text ? (JSON.parse(text) as unknown) : null };
  } finally {
    await api.dispose();
  }
}

/** The /auth screen. */
export class AuthPage {
  readonly main: Locator;
  readonly email: Locator;
  readonly password: Locator;
  readonly username: Locator;
  readonly name: Locator;
  readonly lastname: Locator;
  readonly phone: Locator;
  readonly alert: Locator;
  readonly loginMode: Locator;
  readonly registerMode: Locator;
  readonly toasts: Locator;

  constructor(readonly page: Page) {
    this.main = page.getByRole('main');
    this.email = this.main.getByLabel('Correo electrónico');
    this.password = this.main.getByLabel('Contraseña', { exact: true });
    this.username = this.main.getByLabel('Nombre de usuario');
    this.name = this.main.getByLabel('Nombre', { exact: true });
    this.lastname = this.main.getByLabel('Apellido');
    this.phone = this.main.getByLabel('Teléfono');
    this.alert = this.main.getByRole('alert');
    this.loginMode = this.main.getByRole('button', { name: 'Inicia sesión', exact: true });
    this.registerMode = this.main.getByRole('button', { name: 'Crea tu cuenta', exact: true });
    this.toasts = page.getByTestId('toast');
  }

  /** Opens /auth (optionally with ?next=) and waits until the form is interactive. */
  async goto(next?: string): Promise<void> {
    await this.page.goto(next ? `/auth?next=${encodeURIComponent(next)}` : '/auth');
    await this.ready();
  }

  /** Waits until the form has hydrated (typing earlier would be lost). */
  async ready(): Promise<void> {
    await expect(this.main.locator('[data-hydrated="true"]')).toBeVisible({ timeout: 15_000 });
    await expect(this.loginMode).toHaveAttribute('aria-pressed', 'true');
  }

  /** Fills and sends the login form, once it has hydrated (earlier typing would be lost). */
  async login(email: string, password: string): Promise<void> {
    await this.ready();
    await this.email.fill(email);
    await this.password.fill(password);
    await this.main.getByRole('button', { name: 'Iniciar sesión', exact: true }).click();
  }

  /** Switches to sign-up, fills every field given and sends it. */
  async register(fields: Partial<Record<'username' | 'email' | 'password' | 'name' | 'lastname' | 'phone', string>>): Promise<void> {
    if ((await this.registerMode.getAttribute('aria-pressed')) !== 'true') await this.registerMode.click();
    await this.username.fill(fields.username ?? '');
    await this.name.fill(fields.name ?? '');
    await this.lastname.fill(fields.lastname ?? '');
    await this.phone.fill(fields.phone ?? '');
    await this.email.fill(fields.email ?? '');
    await this.password.fill(fields.password ?? '');
    await this.main.getByRole('button', { name: 'Crear cuenta' }).click();
  }
}

/** Signs in through /auth and waits for the account page. */
export async function signInAs(page: Page, email: string, password: string): Promise<void> {
  const auth = new AuthPage(page);
  await auth.goto();
  await auth.login(email, password);
  await page.waitForURL(atPath('/account'));
  await expect(page.getByRole('tablist', { name: 'Secciones de la cuenta' })).toBeVisible({ timeout: 20_000 });
}

/** A URL matcher on the path alone (links leave an empty '#' or tokens in the fragment). */
export function atPath(pathname: string): (url: URL) => boolean {
  return (url) => url.pathname === pathname;
}
