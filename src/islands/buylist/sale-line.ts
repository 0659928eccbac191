/** How a submitted line is named on the packing slip, in 'Mis ventas' and in 'Compras'. */
import type { SaleLine } from '~/data/buylist.ts';
import { finishLabel, languageLabel } from '~/domain/singles.ts';
import { SELL_LIST_TEXT } from '~/i18n/buylist.ts';

/**
 * A line as the sell list named it, with the printing's collector number so that two printings of
 * the same card never read alike: 'Monkey.D.Luffy (OP05-119) · LP · Inglés · Parallel'.
 */
export function saleLineLabel(line: Pick<SaleLine, 'name' | 'collectorNumber' | 'condition' | 'language' | 'finish'>): string {
  const name = line.collectorNumber && !line.name.includes(line.collectorNumber) ? `${line.name} (${line.collectorNumber})` : line.name;
  return SELL_LIST_TEXT.lineLabel(name, line.condition, languageLabel(line.language), finishLabel(line.finish));
}
