/**
 * Deterministic SVG illustrations for the demo catalogue: a stylised box, pack, card, tin, deck
 * or accessory in the franchise's colours with the product's name. Same input, same bytes, so the
 * committed images only change when the catalogue does.
 */
import type { FranchiseId } from '~/domain/catalog.ts';

/** The illustration style of a product type. */
export type ArtKind = 'box' | 'pack' | 'card' | 'slab' | 'tin' | 'deck' | 'binder' | 'playmat' | 'sleeves' | 'code';

interface Palette {
  background: string;
  primary: string;
  secondary: string;
  accent: string;
  ink: string;
}

const PALETTES: Record<FranchiseId, Palette> = {
  pokemon: { background: '#eaf3fb', primary: '#2a75bb', secondary: '#ffcb05', accent: '#c62828', ink: '#12233d' },
  'one-piece': { background: '#f5ecd9', primary: '#b71c1c', secondary: '#1b1b1b', accent: '#e0a526', ink: '#2b1a10' },
  riftbound: { background: '#ecebf7', primary: '#4a2c8f', secondary: '#17c3d6', accent: '#f2b134', ink: '#120d2b' },
};

/** FNV-1a: a small, stable hash for picking variations. */
export function hash(value: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < value.length; i += 1) {
    h ^= value.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

function escapeXml(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

/** Splits a name into lines of about `width` characters, at most `maxLines`. */
export function wrapText(value: string, width: number, maxLines: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of value.split(/\s+/).filter(Boolean)) {
    if (line === '') line = word;
    else if (line.length + 1 + word.length <= width) line += ` ${word}`;
    else {
      lines.push(line);
      line = word;
    }
  }
  if (line) lines.push(line);
  if (lines.length > maxLines) {
    const kept = lines.slice(0, maxLines);
    kept[maxLines - 1] = `${kept[maxLines - 1]!.slice(0, Math.max(1, width - 1))}…`;
    return kept;
  }
  return lines;
}

function textBlock(lines: string[], x: number, y: number, size: number, fill: string, weight = 700): string {
  return lines
    .map(
      (line, i) =>
        `<text x="${x}" y="${y + i * size * 1.2}" font-family="Verdana, 'DejaVu Sans', sans-serif" font-size="${size}" font-weight="${weight}" fill="${fill}" text-anchor="middle">${escapeXml(line)}</text>`,
    )
    .join('');
}

/** A rotated star-burst used as the emblem on fronts. */
function emblem(cx: number, cy: number, r: number, p: Palette, seed: number): string {
  const points: string[] = [];
  const spikes = 6 + (seed % 5);
  for (let i = 0; i < spikes * 2; i += 1) {
    const radius = i % 2 === 0 ? r : r * 0.5;
    const angle = (Math.PI * i) / spikes + (seed % 30) / 30;
    points.push(`${(cx + radius * Math.cos(angle)).toFixed(1)},${(cy + radius * Math.sin(angle)).toFixed(1)}`);
  }
  return `<circle cx="${cx}" cy="${cy}" r="${r * 1.15}" fill="${p.secondary}" opacity="0.35"/><polygon points="${points.join(' ')}" fill="${p.secondary}" stroke="${p.ink}" stroke-width="3"/><circle cx="${cx}" cy="${cy}" r="${r * 0.28}" fill="${p.accent}"/>`;
}

function cardShape(x: number, y: number, w: number, h: number, p: Palette, seed: number, rotate = 0): string {
  const cx = x + w / 2;
  const cy = y + h / 2;
  return `<g transform="rotate(${rotate} ${cx} ${cy})"><rect x="${x}" y="${y}" width="${w}" height="${h}" rx="${w * 0.06}" fill="${p.secondary}" stroke="${p.ink}" stroke-width="4"/><rect x="${x + w * 0.08}" y="${y + h * 0.12}" width="${w * 0.84}" height="${h * 0.45}" rx="6" fill="${p.primary}"/>${emblem(cx, y + h * 0.345, w * 0.18, p, seed)}<rect x="${x + w * 0.08}" y="${y + h * 0.62}" width="${w * 0.84}" height="${h * 0.28}" rx="6" fill="#ffffff" opacity="0.85"/><rect x="${x + w * 0.08}" y="${y + h * 0.03}" width="${w * 0.6}" height="${h * 0.06}" rx="4" fill="${p.ink}" opacity="0.75"/></g>`;
}

function shapeFor(kind: ArtKind, p: Palette, seed: number, back: boolean): string {
  const main = back ? p.secondary : p.primary;
  const alt = back ? p.primary : p.secondary;
  switch (kind) {
    case 'box':
      return `<polygon points="150,170 210,120 470,120 410,170" fill="${alt}" stroke="${p.ink}" stroke-width="4"/><polygon points="410,170 470,120 470,400 410,450" fill="${p.ink}" opacity="0.85"/><rect x="150" y="170" width="260" height="280" fill="${main}" stroke="${p.ink}" stroke-width="4"/>${emblem(280, 290, 70, p, seed)}<rect x="165" y="410" width="230" height="26" fill="${p.accent}"/>`;
    case 'pack':
      return `<path d="M190 120 l12 -14 l12 14 l12 -14 l12 14 l12 -14 l12 14 l12 -14 l12 14 l12 -14 l12 14 l12 -14 l12 14 l12 -14 l12 14 l12 -14 l12 14 l12 -14 l12 14 L410 470 l-12 14 l-12 -14 l-12 14 l-12 -14 l-12 14 l-12 -14 l-12 14 l-12 -14 l-12 14 l-12 -14 l-12 14 l-12 -14 l-12 14 l-12 -14 l-12 14 l-12 -14 l-12 14 l-12 -14 Z" fill="${main}" stroke="${p.ink}" stroke-width="4"/><rect x="190" y="130" width="220" height="30" fill="${alt}"/>${emblem(300, 290, 80, p, seed)}<rect x="190" y="430" width="220" height="30" fill="${alt}"/>`;
    case 'card':
      return cardShape(190, 100, 220, 320, p, seed, back ? 0 : -4);
    case 'slab':
      return `<rect x="170" y="70" width="260" height="380" rx="18" fill="#ffffff" opacity="0.7" stroke="${p.ink}" stroke-width="4"/><rect x="185" y="85" width="230" height="60" rx="8" fill="${p.accent}"/><text x="300" y="126" font-family="Verdana, sans-serif" font-size="30" font-weight="700" fill="#ffffff" text-anchor="middle">GEM MT 10</text>${cardShape(205, 160, 190, 270, p, seed)}`;
    case 'tin':
      return `<rect x="160" y="160" width="280" height="260" rx="40" fill="${main}" stroke="${p.ink}" stroke-width="4"/><rect x="150" y="140" width="300" height="70" rx="30" fill="${alt}" stroke="${p.ink}" stroke-width="4"/>${emblem(300, 320, 70, p, seed)}`;
    case 'deck':
      return `${[0, 1, 2, 3].map((i) => `<rect x="${180 + i * 12}" y="${110 + i * 10}" width="220" height="310" rx="14" fill="${i === 3 ? main : alt}" stroke="${p.ink}" stroke-width="3"/>`).join('')}${emblem(326, 275, 65, p, seed)}`;
    case 'binder':
      return `<rect x="160" y="100" width="290" height="350" rx="16" fill="${main}" stroke="${p.ink}" stroke-width="4"/><rect x="160" y="100" width="40" height="350" rx="10" fill="${p.ink}"/>${[160, 270, 380].map((y) => `<circle cx="180" cy="${y}" r="9" fill="${alt}"/>`).join('')}${emblem(325, 275, 75, p, seed)}`;
    case 'playmat':
      return `<rect x="70" y="170" width="460" height="250" rx="20" fill="${main}" stroke="${p.ink}" stroke-width="4"/>${[0, 1, 2, 3, 4].map((i) => `<rect x="${100 + i * 82}" y="300" width="64" height="90" rx="6" fill="none" stroke="${alt}" stroke-width="3"/>`).join('')}${emblem(300, 240, 45, p, seed)}`;
    case 'sleeves':
      return `${[0, 1, 2].map((i) => `<rect x="${170 + i * 30}" y="${100 + i * 20}" width="200" height="300" rx="12" fill="${i % 2 === 0 ? main : alt}" opacity="${0.55 + i * 0.2}" stroke="${p.ink}" stroke-width="3"/>`).join('')}${emblem(330, 290, 55, p, seed)}`;
    case 'code': {
      const cells: string[] = [];
      for (let i = 0; i < 49; i += 1) {
        if ((seed >> (i % 31)) & 1 || i % 8 === 0) {
          cells.push(`<rect x="${235 + (i % 7) * 18}" y="${170 + Math.floor(i / 7) * 18}" width="16" height="16" fill="${p.ink}"/>`);
        }
      }
      return `<rect x="180" y="110" width="240" height="330" rx="16" fill="#ffffff" stroke="${p.ink}" stroke-width="4"/><rect x="180" y="110" width="240" height="40" rx="16" fill="${main}"/>${cells.join('')}<rect x="205" y="330" width="190" height="22" rx="4" fill="${alt}"/><rect x="205" y="365" width="150" height="14" rx="4" fill="${p.ink}" opacity="0.5"/>`;
    }
  }
}

/** Options of one product illustration. */
export interface ProductArt {
  id: string;
  name: string;
  /** A short caption above the item, e.g. the expansion name. */
  caption: string;
  franchiseId: FranchiseId;
  kind: ArtKind;
  /** 1 = front, 2 = back, 3 = contents, 4 = detail. */
  view: 1 | 2 | 3 | 4;
}

const VIEW_LABELS = { 1: '', 2: 'Vista posterior', 3: 'Contenido', 4: 'Detalle' } as const;

/** The SVG of one product image. */
export function productSvg(art: ProductArt): string {
  const p = PALETTES[art.franchiseId];
  const seed = hash(art.id);
  let body: string;
  if (art.view === 3) {
    body = [-14, 0, 14].map((r, i) => cardShape(190 + (i - 1) * 70, 120, 200, 290, p, seed + i, r)).join('');
  } else if (art.view === 4) {
    body = `<circle cx="300" cy="270" r="170" fill="${p.primary}" stroke="${p.ink}" stroke-width="4"/>${emblem(300, 270, 120, p, seed)}`;
  } else {
    body = shapeFor(art.kind, p, seed, art.view === 2);
  }
  const nameLines = wrapText(art.name, 30, 3);
  const label = VIEW_LABELS[art.view];
  const stripes = [0, 1, 2, 3, 4, 5]
    .map((i) => `<rect x="${-100 + i * 150 + (seed % 60)}" y="-50" width="40" height="700" fill="${p.primary}" opacity="0.05" transform="rotate(25 300 300)"/>`)
    .join('');
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 600 600" width="600" height="600" role="img" aria-label="${escapeXml(art.name)}"><title>${escapeXml(art.name)}</title><rect width="600" height="600" fill="${p.background}"/>${stripes}${textBlock([art.caption], 300, 50, 24, p.ink, 600)}${body}${textBlock(nameLines, 300, 515 - (nameLines.length - 1) * 14, 24, p.ink)}${label ? textBlock([label], 300, 585, 18, p.primary, 600) : ''}</svg>\n`;
}

/** The SVG of an expansion banner. */
export function expansionSvg(opts: { id: string; name: string; franchiseId: FranchiseId; year?: string; collection: string }): string {
  const p = PALETTES[opts.franchiseId];
  const seed = hash(opts.id);
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 800 450" width="800" height="450" role="img" aria-label="${escapeXml(opts.name)}"><title>${escapeXml(opts.name)}</title><defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${p.primary}"/><stop offset="1" stop-color="${p.ink}"/></linearGradient></defs><rect width="800" height="450" fill="url(#g)"/>${emblem(670, 200, 85 + (seed % 25), p, seed)}${textBlock(wrapText(opts.name, 18, 2), 290, 200, 46, '#ffffff')}${textBlock([opts.collection + (opts.year ? ` · ${opts.year}` : '')], 300, 330, 24, p.secondary, 600)}</svg>\n`;
}

/** The SVG of a product-type card. */
export function productTypeSvg(opts: { id: string; name: string; franchiseId: FranchiseId; kind: ArtKind }): string {
  const p = PALETTES[opts.franchiseId];
  const seed = hash(opts.id);
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 600 600" width="600" height="600" role="img" aria-label="${escapeXml(opts.name)}"><title>${escapeXml(opts.name)}</title><rect width="600" height="600" fill="${p.background}"/>${shapeFor(opts.kind, p, seed, false)}${textBlock(wrapText(opts.name, 24, 2), 300, 520, 32, p.ink)}</svg>\n`;
}
