import { expect, type Locator, type Page } from '@playwright/test';

/** The /account page of a signed-in user. */
export class AccountPage {
  readonly main: Locator;
  readonly sidebar: Locator;
  readonly tabs: Locator;
  readonly panel: Locator;
  readonly toasts: Locator;

  constructor(readonly page: Page) {
    this.main = page.getByRole('main');
    this.sidebar = page.getByRole('complementary', { name: 'Tu cuenta' });
    this.tabs = page.getByRole('tablist', { name: 'Secciones de la cuenta' });
    this.panel = page.getByRole('tabpanel');
    this.toasts = page.getByTestId('toast');
  }

  /** Opens /account and waits for the sidebar. */
  async goto(): Promise<void> {
    await this.page.goto('/account');
    await expect(this.tabs).toBeVisible({ timeout: 20_000 });
  }

  /** Opens a tab by its label. */
  async openTab(label: 'Mi perfil' | 'Favoritos' | 'Pedidos' | 'Direcciones' | 'Configuración'): Promise<void> {
    await this.tabs.getByRole('tab', { name: label }).click();
    await expect(this.tabs.getByRole('tab', { name: label })).toHaveAttribute('aria-selected', 'true');
  }

  /** Waits for a notice with this text. */
  async expectToast(text: string): Promise<void> {
    await expect(this.toasts.filter({ hasText: text }).first()).toBeVisible();
  }

  /** The profile edit form. */
  get profileForm(): Locator {
    return this.panel.getByRole('form', { name: 'Editar datos' });
  }

  /** The order rows of the current page. */
  get orderRows(): Locator {
    return this.panel.getByTestId('order-row');
  }

  /** The saved address items. */
  get addresses(): Locator {
    return this.panel.getByTestId('address');
  }

  /** The "new address" form. */
  get newAddressForm(): Locator {
    return this.panel.getByRole('form', { name: 'Agregar nueva dirección' });
  }

  /** Fills an address form (label optional). */
  async fillAddress(
    form: Locator,
    fields: Partial<Record<'label' | 'street' | 'city' | 'state' | 'zip', string>> & { country?: string; isDefault?: boolean },
  ): Promise<void> {
    const map = { label: 'Etiqueta (opcional)', street: 'Calle', city: 'Ciudad', state: 'Estado', zip: 'Código Postal' } as const;
    for (const [key, label] of Object.entries(map)) {
      const value = fields[key as keyof typeof map];
      if (value !== undefined) await form.getByLabel(label, { exact: true }).fill(value);
    }
    if (fields.country) await form.getByLabel('País').selectOption(fields.country);
    if (fields.isDefault !== undefined) await form.getByLabel('Usar como dirección predeterminada').setChecked(fields.isDefault);
  }
}
