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
  async openTab(label: 'Mi perfil' | 'Favoritos' | 'Pedidos' | 'Mis ventas' | 'Direcciones' | 'Configuración'): Promise<void> {
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

  /**
   * Fills an address form (label optional). The postal code goes first and the lookup is let to
   * answer, so what is typed afterwards stays; for México the colonia is chosen from the code's list
   * when the catalogue has it (or typed under 'Otra'), else typed.
   */
  async fillAddress(
    form: Locator,
    fields: Partial<Record<'label' | 'street' | 'exterior' | 'neighborhood' | 'municipality' | 'phone' | 'city' | 'state' | 'zip', string>> & {
      country?: string;
      isDefault?: boolean;
    },
  ): Promise<void> {
    if (fields.country) await form.getByLabel('País').selectOption(fields.country);
    if (fields.zip !== undefined) {
      await form.getByLabel('Código Postal').fill(fields.zip);
      if (/^\d{5}$/.test(fields.zip) && (await form.getByLabel('Número exterior').count()) > 0) {
        await expect(form.getByRole('status').filter({ hasText: /Encontramos|No encontramos/ })).toBeVisible();
      }
    }
    if (fields.neighborhood !== undefined) {
      const list = form.getByRole('combobox', { name: 'Colonia' });
      if ((await list.count()) === 0) await form.getByRole('textbox', { name: 'Colonia', exact: true }).fill(fields.neighborhood);
      else if ((await list.locator('option').allTextContents()).includes(fields.neighborhood)) await list.selectOption({ label: fields.neighborhood });
      else {
        await list.selectOption({ label: 'Otra' });
        await form.getByLabel('Nombre de la colonia').fill(fields.neighborhood);
      }
    }
    const map = {
      label: 'Etiqueta (opcional)',
      street: 'Calle',
      exterior: 'Número exterior',
      municipality: 'Municipio o alcaldía',
      phone: 'Teléfono de contacto',
      state: 'Estado',
    } as const;
    for (const [key, label] of Object.entries(map)) {
      const value = fields[key as keyof typeof map];
      if (value !== undefined) await form.getByLabel(label, { exact: true }).fill(value);
    }
    // México: 'Ciudad (opcional)'; elsewhere: 'Ciudad'.
    if (fields.city !== undefined) await form.getByLabel(/^Ciudad/).fill(fields.city);
    if (fields.isDefault !== undefined) await form.getByLabel('Usar como dirección predeterminada').setChecked(fields.isDefault);
  }
}
