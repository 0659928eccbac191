/**
 * The SEPOMEX postal-code catalogue's import (`npm run sepomex:import -- FILE`): what the file's
 * parser (src/domain/sepomex.ts) says of a line it cannot read, and what the import prints.
 */

/** Why a line of the file, or the whole file, cannot be read (src/domain/sepomex.ts). */
export const SEPOMEX_PARSE_TEXT = {
  empty: 'El archivo está vacío.',
  noHeader: (expected: string) => `No encontramos el encabezado de SEPOMEX en la línea 1 ni en la 2; se esperaba: ${expected}`,
  fieldCount: (count: number) => `tiene ${count} campos separados por '|'; se esperan 15`,
  required: (field: string) => `el campo ${field} está vacío`,
  badValue: (field: string, value: string) => `el campo ${field} no es válido: '${value}'`,
  line: (line: number, reason: string) => `Línea ${line}: ${reason}.`,
} as const;

/** What the import script prints (scripts/sepomex-import.ts). */
export const SEPOMEX_IMPORT_TEXT = {
  usage:
    'Uso: npm run sepomex:import -- ARCHIVO [--database-url URL] [--skip-malformed]\n' +
    '  ARCHIVO: CPdescarga.txt de Correos de México (Código Postal → descarga), en Latin-1.\n' +
    '  La base de datos: --database-url, si no SEPOMEX_DATABASE_URL, si no DATABASE_URL, si no la PGlite del stack local (.data/db, con el stack detenido).\n' +
    '  --sql-out ARCHIVO.sql escribe el SQL de la carga en vez de ejecutarlo (la semilla local).',
  missingFile: (file: string) => `No existe el archivo ${file}.`,
  malformed: (count: number) =>
    `${count === 1 ? 'Una línea no se pudo leer' : `${count} líneas no se pudieron leer`}; no se cargó nada. ` +
    `Corrígela${count === 1 ? '' : 's'} o usa --skip-malformed para cargar las demás.`,
  skipped: (count: number) => (count === 1 ? 'Se omitió una línea que no se pudo leer.' : `Se omitieron ${count} líneas que no se pudieron leer.`),
  moreErrors: (count: number) => `… y ${count} líneas más.`,
  noRows: 'El archivo no tiene ningún asentamiento; no se cargó nada.',
  stackRunning: (url: string) => `El stack local responde en ${url}: detenlo antes de cargar su base PGlite (o usa --database-url con un servidor PostgreSQL).`,
  noLocalDatabase: (dir: string) => `No hay una base de datos del stack local en ${dir}: arráncalo una vez (npm start) o usa --database-url.`,
  loaded: (codes: number, settlements: number, seconds: string, target: string) =>
    `Cargados ${codes} códigos postales y ${settlements} asentamientos en ${seconds} s (${target}).`,
  sqlWritten: (file: string, codes: number, settlements: number) => `SQL escrito en ${file}: ${codes} códigos postales y ${settlements} asentamientos.`,
  failed: (message: string) => `La carga falló y la base de datos quedó como estaba: ${message}`,
} as const;
