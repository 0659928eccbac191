import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { pagerOf } from '~/domain/pager.ts';
import { Pager } from '~/islands/ui/Pager.tsx';

function render(total: number, page: number, live = false): string {
  return renderToString(
    createElement(Pager, { label: 'Páginas de pedidos', pager: pagerOf(total, page, 8), onPage: () => undefined, className: 'acct-pager', live }),
  );
}

describe('the pager under a paged list', () => {
  it('names its navigation and shows the page between Anteriores and Siguientes', () => {
    const html = render(20, 2);
    expect(html).toContain('<nav class="acct-pager" aria-label="Páginas de pedidos">');
    expect(html).toMatch(/<button[^>]*>Anteriores<\/button><span>Página 2 de 3<\/span><button[^>]*>Siguientes<\/button>/);
    expect(html).not.toContain('disabled');
  });

  it('disables Anteriores on the first page and Siguientes on the last', () => {
    expect(render(20, 1)).toMatch(/<button[^>]*disabled=""[^>]*>Anteriores/);
    expect(render(20, 3)).toMatch(/<button[^>]*disabled=""[^>]*>Siguientes/);
  });

  it('announces the page when asked to, and is not there for a single page', () => {
    expect(render(20, 2, true)).toContain('<span aria-live="polite">Página 2 de 3</span>');
    expect(render(8, 1)).toBe('');
  });
});
