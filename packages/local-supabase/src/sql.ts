/** SQL text helpers shared by every module that writes SQL (REST, realtime, LISTEN/UNLISTEN). */

/** Thrown by quoteIdent for a name no Postgres identifier can hold (a NUL byte). */
export class InvalidIdentifierError extends Error {
  constructor() {
    super('Invalid identifier');
    this.name = 'InvalidIdentifierError';
  }
}

/** Quotes an identifier for Postgres ("a""b"). */
export function quoteIdent(name: string): string {
  if (name.includes('\u0000')) throw new InvalidIdentifierError();
  return '"' + name.replace(/"/g, '""') + '"';
}
