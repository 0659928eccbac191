/**
 * The text a PDF draws, read the simple way a test needs: every stream inflated (FlateDecode) or
 * taken as is, then the strings shown with Tj, as hex (<…>) or literal ((…)) strings in the
 * standard fonts' single-byte encoding. Enough for the PDFs pdf-lib writes; not a PDF parser.
 */
import { inflateSync } from 'node:zlib';

export function pdfText(bytes: Uint8Array): string {
  const raw = Buffer.from(bytes);
  const source = raw.toString('latin1');
  const parts: string[] = [];
  const stream = /stream\r?\n/g;
  for (let match = stream.exec(source); match; match = stream.exec(source)) {
    const start = match.index + match[0].length;
    const end = source.indexOf('endstream', start);
    if (end < 0) break;
    const chunk = raw.subarray(start, end);
    let content: string;
    try {
      content = inflateSync(chunk).toString('latin1');
    } catch {
      content = chunk.toString('latin1');
    }
    for (const shown of content.matchAll(/(<([0-9A-Fa-f\s]*)>|\(((?:\\.|[^\\)])*)\))\s*Tj/g)) {
      if (shown[2] !== undefined) parts.push(Buffer.from(shown[2].replace(/\s+/g, ''), 'hex').toString('latin1'));
      else parts.push(shown[3]!.replace(/\\(.)/g, '$1'));
    }
  }
  return parts.join('\n');
}
