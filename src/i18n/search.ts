/** The header search. */

/** The header search box (src/islands/header-search/SearchBox.tsx); `count` already formatted. */
export const SEARCH_TEXT = {
  label: 'Buscar productos',
  placeholder: 'Buscar productos...',
  loading: 'Cargando productos…',
  error: 'No pudimos cargar la búsqueda. Intenta de nuevo.',
  empty: 'No encontramos productos con ese nombre.',
  /** What a screen reader hears of the results. */
  oneResult: '1 producto encontrado.',
  results: (count: string) => `${count} productos encontrados.`,
} as const;

/** The header search's dropdown (src/islands/header-search/SearchPanel.tsx); `count` already formatted. */
export const SEARCH_PANEL_TEXT = {
  suggestions: 'Productos sugeridos',
  /** 'Ver todos los resultados (n)'. */
  seeAll: (count: string) => `Ver todos los resultados (${count})`,
} as const;
