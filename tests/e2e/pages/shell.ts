import { expect, type Locator, type Page } from '@playwright/test';

/** The fixed catalogue links the specification puts in the footer, with their labels. */
export const FOOTER_CATALOG_LINKS = [
  ['Destined Rivals', '/franchise/pokemon/expansions/destined-rivals/products'],
  ['Journey Together', '/franchise/pokemon/expansions/journey-together/products'],
  ['Evoluciones Prismáticas', '/franchise/pokemon/expansions/prismatic-evolutions/products'],
  ['Tipos de producto', '/franchise/pokemon/product-types'],
  ['Expansiones', '/franchise/pokemon/expansions'],
  ['Preventa', '/franchise/pokemon/product-types/preorder/products'],
  ['Ofertas', '/franchise/pokemon/product-types/sale/products'],
] as const;

/** The help pages linked from the footer, with their labels. */
export const FOOTER_HELP_LINKS = [
  ['Preguntas frecuentes', '/faq'],
  ['Envíos', '/envios'],
  ['Devoluciones', '/devoluciones'],
  ['Formas de pago', '/pagos'],
  ['Aviso de privacidad', '/privacidad'],
  ['Términos y condiciones', '/terminos'],
  ['Contacto', '/contacto'],
] as const;

/** Header and footer of any page, found the way a screen-reader user would find them. */
export class Shell {
  readonly header: Locator;
  readonly footer: Locator;
  readonly search: Locator;
  readonly cartLink: Locator;
  readonly accountLink: Locator;
  readonly wishlist: Locator;
  readonly skipLink: Locator;

  constructor(readonly page: Page) {
    this.header = page.getByRole('banner');
    this.footer = page.getByRole('contentinfo');
    // Found by its placeholder: a plain search box and the type-ahead combobox both qualify.
    this.search = this.header.getByRole('search').getByPlaceholder('Buscar productos...');
    this.cartLink = this.header.getByRole('link', { name: /^Carrito/ });
    this.accountLink = this.header.getByRole('link', { name: 'Mi cuenta' });
    this.wishlist = this.header.getByRole('link', { name: 'Favoritos' });
    this.skipLink = page.getByRole('link', { name: 'Saltar al contenido' });
  }

  /** Waits until the header cart count has read the stored cart. */
  async waitForCartCount(): Promise<void> {
    await expect(this.cartLink).toHaveAttribute('data-cart-ready', 'true');
  }

  /** Records console errors and uncaught exceptions from now on. */
  collectErrors(): string[] {
    const errors: string[] = [];
    this.page.on('console', (msg) => {
      if (msg.type() === 'error') errors.push(msg.text());
    });
    this.page.on('pageerror', (err) => errors.push(err.message));
    // The console names no URL for a failed load; the response does.
    this.page.on('response', (res) => {
      if (res.status() >= 400) errors.push(`${res.status()} ${res.url()}`);
    });
    return errors;
  }

  /** Asserts a link in `scope` with exactly this accessible name points at `href`. */
  async expectLink(scope: Locator, name: string, href: string): Promise<void> {
    await expect(scope.getByRole('link', { name, exact: true })).toHaveAttribute('href', href);
  }
}
