import { describe, expect, it } from 'vitest';
import { buildNewProductPayload, validateNewProduct } from '~/domain/validation/product';
import { dataOf, errorsOf } from './results';

describe('new product', () => {
  const form = {
    franchiseId: 'pokemon',
    collectionId: 'scarlet-violet',
    expansionId: 'journey-together',
    productTypeId: 'booster-box',
    name: 'Caja de sobres Journey Together',
    price: '3299.50',
    image: 'products/pk-boosterbox-journey-together-1.svg',
    description: '36 sobres.',
  };

  it('applies the admin defaults', () => {
    expect(dataOf(validateNewProduct(form))).toEqual({
      ...form,
      price: 329950,
      stock: 0,
      limitPerCustomer: 1,
      preorder: false,
      available: true,
      releaseDate: null,
      onSaleAt: null,
      tags: [],
    });
  });

  it('reads numbers and booleans from form strings', () => {
    const data = dataOf(validateNewProduct({ ...form, stock: '12', limitPerCustomer: '4', preorder: 'on', available: 'false', releaseDate: '2025-03-28' }));
    expect([data.stock, data.limitPerCustomer, data.preorder, data.available, data.releaseDate]).toEqual([12, 4, true, false, '2025-03-28']);
  });

  it('refuses bad numbers, dates and missing choices with Spanish messages', () => {
    const result = errorsOf(
      validateNewProduct({
        ...form,
        franchiseId: 'digimon',
        name: ' ',
        price: '-1',
        image: '',
        stock: '1.5',
        limitPerCustomer: 0,
        releaseDate: '2025-02-30',
      }),
    );
    expect(result.fieldErrors).toEqual({
      franchiseId: 'Selecciona una franquicia.',
      name: 'Escribe el nombre del producto.',
      price: 'Precio inválido: usa un número mayor o igual a 0 con hasta 2 decimales.',
      image: 'Agrega una imagen del producto.',
      stock: 'El stock debe ser un número entero mayor o igual a 0.',
      limitPerCustomer: 'El límite por cliente debe ser un número entero mayor o igual a 1.',
      releaseDate: 'Fecha de lanzamiento inválida (AAAA-MM-DD).',
    });
    expect(result.formError).toBe('Revisa los campos marcados.');
    expect(errorsOf(validateNewProduct({ ...form, price: '10.999' })).fieldErrors.price).toBeDefined();
    expect(errorsOf(validateNewProduct({ ...form, stock: -1 })).fieldErrors.stock).toBeDefined();
  });

  it('refuses an expansion or type of another franchise', () => {
    const result = errorsOf(validateNewProduct({ ...form, expansionId: 'op-01', productTypeId: 'rb-booster-box' }));
    expect(result.fieldErrors).toEqual({
      expansionId: 'La expansión no pertenece a esa franquicia.',
      productTypeId: 'El tipo de producto no pertenece a esa franquicia.',
    });
  });

  it('builds the payload with id, one image and default tags', () => {
    const payload = buildNewProductPayload(dataOf(validateNewProduct(form)), ['pk-boosterbox-journey-together']);
    expect(payload.id).toBe('pk-boosterbox-journey-together-2');
    expect(payload.images).toEqual(['products/pk-boosterbox-journey-together-1.svg']);
    expect(payload.tags).toEqual(['Caja de sobres Journey Together', 'Caja de sobres', 'Journey Together']);
    expect('image' in payload).toBe(false);
  });
});
