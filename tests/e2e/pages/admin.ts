import { expect, type Locator, type Page } from '@playwright/test';

/** The admin product form at /admin/add (or inside /account/addproduct). */
export class AdminProductForm {
  readonly form: Locator;

  constructor(readonly page: Page) {
    this.form = page.getByRole('form', { name: 'Registrar nuevo producto' });
  }

  /** Opens /admin/add. */
  async goto(): Promise<void> {
    await this.page.goto('/admin/add');
  }

  /** Fills the form; each field given is set, the rest keep their defaults. */
  async fill(fields: {
    franchise?: string;
    collection?: string;
    expansion?: string;
    type?: string;
    name?: string;
    price?: string;
    stock?: string;
    limit?: string;
    description?: string;
    releaseDate?: string;
    tags?: string;
    image?: { name: string; mimeType: string; buffer: Buffer };
  }): Promise<void> {
    const f = this.form;
    if (fields.franchise) await f.getByLabel('Franquicia').selectOption({ label: fields.franchise });
    if (fields.collection) await f.getByLabel('Colección').selectOption({ label: fields.collection });
    if (fields.expansion) await f.getByLabel('Expansión').selectOption({ label: fields.expansion });
    if (fields.type) await f.getByLabel('Tipo de producto').selectOption({ label: fields.type });
    if (fields.name !== undefined) await f.getByLabel('Nombre').fill(fields.name);
    if (fields.price !== undefined) await f.getByLabel('Precio (MXN)').fill(fields.price);
    if (fields.stock !== undefined) await f.getByLabel('Stock').fill(fields.stock);
    if (fields.limit !== undefined) await f.getByLabel('Límite por cliente').fill(fields.limit);
    if (fields.description !== undefined) await f.getByLabel('Descripción').fill(fields.description);
    if (fields.releaseDate !== undefined) await f.getByLabel('Fecha de lanzamiento').fill(fields.releaseDate);
    if (fields.tags !== undefined) await f.getByLabel('Etiquetas (separadas por comas)').fill(fields.tags);
    if (fields.image) await f.getByLabel('Imagen').setInputFiles(fields.image);
  }

  /** Sends the form. */
  async submit(): Promise<void> {
    await this.form.getByRole('button', { name: 'Publicar producto' }).click();
  }

  /**
   * Waits for the form's refusal, 'No tienes acceso'. The island shows it once it has hydrated
   * and read the session: once in CI (2026-12-02, both cores busy) the first page of a run took
   * over 10 s to get there, hence the same 20 s as the form's.
   */
  async expectRefused(): Promise<void> {
    await expect(this.page.getByRole('heading', { name: 'No tienes acceso' })).toBeVisible({ timeout: 20_000 });
    await expect(this.form).toHaveCount(0);
  }

  /** Waits for the form to be shown. */
  async expectShown(): Promise<void> {
    await expect(this.form).toBeVisible({ timeout: 20_000 });
  }
}

/** A small valid SVG image to upload. */
export function svgImage(text: string): { name: string; mimeType: string; buffer: Buffer } {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="200" height="200"><rect width="200" height="200" fill="#b0105a"/><text x="20" y="100" fill="#fff">${text}</text></svg>`;
  return { name: 'producto.svg', mimeType: 'image/svg+xml', buffer: Buffer.from(svg) };
}
