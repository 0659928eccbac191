/**
 * One message catalogue. Every Spanish text the interface and the e-mails show lives in src/i18n/
 * (one module per feature, all exported by src/i18n/es-MX.ts), so:
 *
 * - the texts the specification quotes are in the catalogue, exactly as quoted;
 * - no file of src/ outside the catalogue writes a Spanish text of its own, in a string, a template
 *   or JSX text (comments are not texts);
 * - the catalogue's modules do not export two things under one name (the index would not compile).
 *
 * What counts as Spanish is a heuristic (an accented letter, ¿ or ¡, a Spanish function word, or a
 * word the interface uses as a label): a new text it misses is still wrong, the test only catches most.
 * The catalogue of products (franchise, expansion and product-type names) is data, not interface text,
 * and so is the help pages' content (src/content/): both are outside this rule, see DATA_FILES.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import * as catalog from '~/i18n/es-MX';

const root = new URL('../../../', import.meta.url).pathname;
/** The specification, as the shop was given it (a copy kept with the code, so a fresh clone has it). */
const specFile = join(root, 'docs/spec/storefront.md');

/** Files of src/ that hold data rather than interface text, and why. */
const DATA_FILES: Record<string, string> = {
  'src/domain/catalog.ts': 'the static catalogue: franchise, collection, expansion and product-type names',
  'src/data/database.types.ts': "the database's types, generated from its schema",
  'src/domain/brand.ts': "the shop's name, a brand (its tagline and description are in src/i18n/product.ts)",
  'src/domain/validation/address.ts': "the countries an address may have, values the database stores ('México' its default)",
  'src/domain/name-matching/aliases.ts': "the other names shoppers search the catalogue's franchises, types and expansions by",
};

const ACCENTED = /[áéíóúüñÁÉÍÓÚÜÑ¿¡]/;
/** Words that only a Spanish sentence has (none of them is an English word or a CSS or code token). */
const SPANISH_WORDS = new Set(
  [
    'de',
    'del',
    'la',
    'las',
    'los',
    'el',
    'tu',
    'tus',
    'su',
    'sus',
    'para',
    'con',
    'por',
    'una',
    'unos',
    'unas',
    'se',
    'que',
    'al',
    'y',
    'sin',
    'ya',
    'hay',
    'mis',
    'mi',
    'este',
    'esta',
    'esto',
    'ese',
    'esa',
    'aquí',
    'muy',
    'pero',
    'como',
    'cuando',
    'puedes',
    // Labels the interface shows alone.
    'agregar',
    'eliminar',
    'guardar',
    'cancelar',
    'reintentar',
    'continuar',
    'cerrar',
    'editar',
    'buscar',
    'ver',
    'ocultar',
    'pedidos',
    'pedido',
    'direcciones',
    'favoritos',
    'resumen',
    'pago',
    'pagos',
    'subtotal',
    'descuento',
    'tarjeta',
    'anteriores',
    'siguientes',
    'agotado',
    'preventa',
    'predeterminada',
    'cantidad',
    'fecha',
    'estado',
    'precio',
    'nombre',
    'apellido',
    'correo',
    'calle',
    'ciudad',
    'publicar',
    'borrador',
    'productos',
    'producto',
    'inicio',
    'enviar',
    'cargando',
    'pendiente',
    'pagado',
    'cancelado',
    'enviado',
    'entregado',
    'reembolsado',
    'reembolsar',
    'expirado',
    'fallido',
    'procesando',
    'completado',
    'ofertas',
    'oferta',
    'cartas',
    'carta',
    'carrito',
    'comprar',
    'vender',
    'saldo',
    'existencias',
    'disponible',
    'idioma',
    'condición',
    'acabado',
    'sobre',
    'caja',
    'expansiones',
    'expansión',
    'franquicia',
    'franquicias',
    'tipo',
    'tipos',
    'todos',
    'todas',
    'sí',
    'gratis',
    'envío',
    'meses',
    'mes',
    'hoy',
    'ayer',
    'usuario',
    'contraseña',
    'sesión',
    'cuenta',
    'perfil',
    'registrar',
    'iniciar',
    'salir',
    'volver',
    'siguiente',
    'anterior',
    'página',
    'resultados',
    'filtros',
    'ordenar',
    'limpiar',
    'aplicar',
    'cupón',
    'boletín',
    'suscribirme',
    'copiar',
    'imprimir',
    'subir',
    'imagen',
    'imágenes',
    'foto',
    'fotos',
    'nuevo',
    'nueva',
    'quitar',
    'ninguno',
    'ninguna',
    'otro',
    'otra',
    'opcional',
    'requerido',
    'requerida',
    'inválido',
    'inválida',
    'válido',
  ].map((word) => word.toLowerCase()),
);

/** Values the database stores that read as Spanish, by file: data, not texts. */
const DATA_VALUES: Record<string, string[]> = {
  'src/domain/orders.ts': ['Otra'], // the carrier 'Otra' of CARRIERS, a value orders.carrier accepts
};

const ORDER_STATUSES = new Set(['Pendiente', 'Pagado', 'Procesando', 'Enviado', 'Completado', 'Cancelado', 'Fallido', 'Reembolsado']);

/** Whether a string a program holds reads as Spanish interface text. */
function isSpanishText(text: string): boolean {
  // Markup's tags and attributes are code (an SVG's `y="5"` is no Spanish 'y'); the text between them is not.
  const trimmed = text.replace(/<[^>]*>/g, ' ').trim();
  if (!/[A-Za-zÀ-ÿ]/.test(trimmed)) return false;
  // A path, a URL, a CSS selector or a class list, an identifier: not a text.
  if (/^(\/|\.\/|#|https?:|mailto:|data:)/.test(trimmed)) return false;
  // One lower-case word is a key, a slug, an enum value or a URL parameter ('precio-asc', 'franquicia').
  if (/^[a-záéíóúüñ0-9_.:-]+$/.test(trimmed)) return false;
  // A query string ('?franquicia=…&tipo=') or a column list ('id, subtotal, total'): code, not text.
  if (/^[?&][\w=&.-]*$/.test(trimmed) || /^[a-z_]+(\s*,\s*[a-z_]+|\([a-z_(),\s]+\))+$/.test(trimmed)) return false;
  // The order statuses are values the database stores (the specification's 'Pendiente', 'Pagado', …).
  if (ORDER_STATUSES.has(trimmed)) return false;
  if (ACCENTED.test(trimmed)) return true;
  const words = trimmed
    .toLowerCase()
    .split(/[^a-záéíóúüñ]+/)
    .filter(Boolean);
  return words.some((word) => SPANISH_WORDS.has(word));
}

type Found = { line: number; text: string };

/** The strings, template parts and JSX texts of TypeScript or TSX source (never its comments). */
function scriptTexts(source: string, fileName: string, lineOffset = 0): Found[] {
  const kind = fileName.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true, kind);
  const found: Found[] = [];
  const add = (node: ts.Node, text: string) => found.push({ line: file.getLineAndCharacterOfPosition(node.getStart(file)).line + 1 + lineOffset, text });
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) return;
    // What the server logs is for whoever runs the shop, not a text the interface shows.
    if (ts.isCallExpression(node) && /^console\.\w+$/.test(node.expression.getText(file))) return;
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) add(node, node.text);
    else if (ts.isTemplateHead(node) || ts.isTemplateMiddle(node) || ts.isTemplateTail(node)) add(node, node.text);
    else if (ts.isJsxText(node)) add(node, node.text);
    node.forEachChild(visit);
  };
  visit(file);
  return found;
}

/** The texts of an Astro component: its front matter as TypeScript, its template's text, attributes and expressions. */
function astroTexts(source: string): Found[] {
  const fence = /^---\r?\n([\s\S]*?)\r?\n---/.exec(source);
  const front = fence ? scriptTexts(fence[1]!, 'component.ts', 1) : [];
  const start = fence ? fence[0].length : 0;
  const blank = (match: string) => match.replace(/[^\n]/g, ' ');
  const template = source
    .slice(start)
    .replace(/<!--[\s\S]*?-->/g, blank)
    .replace(/\{\/\*[\s\S]*?\*\/\}/g, blank)
    .replace(/<(style|script)\b[\s\S]*?<\/\1>/g, blank);
  const lineAt = (index: number) => source.slice(0, start + index).split('\n').length;
  const found: Found[] = [];
  // Text between tags and braces, and every quoted string (attribute values and expressions' strings).
  for (const match of template.matchAll(/>([^<>{}]+)</g)) found.push({ line: lineAt(match.index! + 1), text: match[1]! });
  for (const match of template.matchAll(/'([^'\n]*)'|"([^"\n]*)"|`([^`]*)`/g)) {
    found.push({ line: lineAt(match.index!), text: match[1] ?? match[2] ?? match[3] ?? '' });
  }
  return front.concat(found);
}

/** `file:line  text` for each Spanish text a source file writes itself. */
function spanishTexts(path: string, source: string): string[] {
  const texts = path.endsWith('.astro') ? astroTexts(source) : scriptTexts(source, path);
  const values = DATA_VALUES[path] ?? [];
  return texts
    .filter(({ text }) => isSpanishText(text) && !values.includes(text.trim()))
    .map(({ line, text }) => `${path}:${line}  ${text.trim().replace(/\s+/g, ' ')}`);
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.(ts|tsx|astro|mjs|js)$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** Every string the catalogue holds, and what its functions give for sample arguments. */
function catalogStrings(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') out.push(value);
  else if (typeof value === 'function') {
    const text = (value as (...args: unknown[]) => unknown)(...SAMPLE_ARGUMENTS);
    if (typeof text === 'string') out.push(text);
  } else if (value && typeof value === 'object') for (const item of Object.values(value)) catalogStrings(item, out);
  return out;
}
const SAMPLE_ARGUMENTS = [2, 5, 'X'];

/**
 * The specification's quoted texts, exactly. A quote must open after something that is not a
 * letter (so "the user's other addresses" is no quote).
 */
function specQuotes(): string[] {
  const spec = readFileSync(specFile, 'utf8');
  return [...new Set([...spec.matchAll(/(?<![A-Za-z])'([^'\n]+)'(?![A-Za-z])/g)].map((match) => match[1]!))];
}

/** Quotes of the specification that are not texts of the interface, and why. */
const NOT_TEXTS: Record<string, string> = {
  'check your e-mail': 'the specification describing a message in English; the text is "Revisa tu correo"',
  registered: "a word looked for in the auth provider's error message",
  cart: 'the browser storage key of the cart',
  '#': "the sign before an order's short id",
  Pendiente: 'an order status the database stores (ORDER_STATUS, src/domain/orders.ts)',
  'Pronto podrás ver y gestionar tus favoritos aquí.':
    "the Favoritos tab's placeholder, replaced by the tab itself now that favorites exist (ACCOUNT_FAVORITES_TEXT.empty)",
  'en construcción': "the Configuración tab's placeholder, replaced by the shopper's notification settings (src/i18n/alerts.ts)",
};

/** Quotes with placeholders, and the catalogue text that must produce them. */
const PLACEHOLDERS: Record<string, () => string> = {
  'Página x de y': () => catalog.PAGER_TEXT.page(2, 5).replace('2', 'x').replace('5', 'y'),
  'Cantidad: n': () => catalog.ORDER_LINE_TEXT.quantity(7).replace('7', 'n'),
  'Resultados: n': () => catalog.EXPANSION_PICKER_TEXT.results(7).replace('7', 'n'),
  'Resultados (n) – FRANCHISE': () => catalog.LISTING_TEXT.results(7, 'FRANCHISE').replace('7', 'n'),
  'Paso n de 4': () => catalog.CHECKOUT_STEPPER_TEXT.step(7, 4).replace('7', 'n'),
};

/** `CATALOGUE_ONLY=src/islands/admin,src/server/mail` checks just those paths (while moving texts). */
const ONLY = (process.env.CATALOGUE_ONLY ?? '').split(',').filter(Boolean);
const checked = (path: string) => !ONLY.length || ONLY.some((prefix) => path.startsWith(prefix));

describe('one message catalogue', () => {
  it('holds every text the specification quotes, exactly', () => {
    const texts = new Set(catalogStrings(catalog));
    const quotes = specQuotes();
    expect(quotes.length).toBeGreaterThan(100);
    const missing = quotes.filter((quote) => !(quote in NOT_TEXTS) && !(quote in PLACEHOLDERS) && !texts.has(quote));
    expect(missing, `Texts of the specification not in src/i18n/:\n${missing.join('\n')}`).toEqual([]);
    for (const [quote, produce] of Object.entries(PLACEHOLDERS)) expect(produce()).toBe(quote);
  });

  it('no file of src/ outside src/i18n/ writes a Spanish text of its own', () => {
    const found = sourceFiles(join(root, 'src'))
      .map((file) => relative(root, file))
      .filter((path) => !path.startsWith('src/i18n/') && !path.startsWith('src/content/') && !(path in DATA_FILES) && checked(path))
      .flatMap((path) => spanishTexts(path, readFileSync(join(root, path), 'utf8')));
    expect(found, `Spanish texts outside the catalogue (move them to src/i18n/):\n${found.join('\n')}`).toEqual([]);
  });

  it('tells a text from code, and skips comments', () => {
    expect(isSpanishText('Agregar al carrito')).toBe(true);
    expect(isSpanishText('Máximo disponible en stock.')).toBe(true);
    expect(isSpanishText('Reintentar')).toBe(true);
    expect(isSpanishText('btn btn-primary')).toBe(false);
    expect(isSpanishText('/franchise/pokemon/expansions')).toBe(false);
    expect(isSpanishText('es-MX')).toBe(false);
    expect(isSpanishText('order_cancelled')).toBe(false);
    expect(isSpanishText('?idioma=en&acabado=foil')).toBe(false);
    expect(isSpanishText('id, subtotal, total')).toBe(false);
    expect(isSpanishText('id, total, order_items(id, quantity, products(name, image))')).toBe(false);
    expect(isSpanishText('tienda-cartas.rebuilds')).toBe(false);
    expect(isSpanishText('Subtotal, envío')).toBe(true);
    expect(isSpanishText('<rect x="3" y="5" width="18"/>')).toBe(false);
    expect(isSpanishText('<p>Gracias por tu compra</p>')).toBe(true);
    const tsx = ['// Agregar al carrito', "const a = 'Guardar';", 'const b = <p>Tu carrito está vacío.</p>;', "import x from './de-la';"].join('\n');
    expect(spanishTexts('src/x.tsx', tsx)).toEqual(['src/x.tsx:2  Guardar', 'src/x.tsx:3  Tu carrito está vacío.']);
    const astro = [
      '---',
      "const t = 'Resumen';",
      '---',
      '<!-- Agotado -->',
      '<p class="badge">Preventa</p>',
      "<a aria-label=\"Ver carrito\">{x ? 'Sí' : ''}</a>",
    ].join('\n');
    expect(spanishTexts('src/x.astro', astro)).toEqual([
      'src/x.astro:2  Resumen',
      'src/x.astro:5  Preventa',
      'src/x.astro:6  Ver carrito',
      'src/x.astro:6  Sí',
    ]);
  });
});
