/** The `Prefer` request header as PostgREST reads it: what to return, counting, upserts, transactions. */

export interface Prefer {
  returnMode: 'minimal' | 'representation' | 'headers-only';
  count?: 'exact' | 'planned' | 'estimated';
  resolution?: 'merge-duplicates' | 'ignore-duplicates';
  missingDefault: boolean;
  rollback: boolean;
  maxAffected?: number;
  strict: boolean;
}

/** Reads the `Prefer` header (values joined with commas, possibly several headers). */
export function parsePrefer(header: string | string[] | undefined): Prefer {
  const prefer: Prefer = { returnMode: 'minimal', missingDefault: false, rollback: false, strict: false };
  const raw = Array.isArray(header) ? header.join(',') : (header ?? '');
  for (const part of raw.split(/[,;]/)) {
    const [k, v] = part
      .trim()
      .split('=')
      .map((s) => s.trim());
    if (k === 'return' && (v === 'minimal' || v === 'representation' || v === 'headers-only')) prefer.returnMode = v;
    else if (k === 'count' && (v === 'exact' || v === 'planned' || v === 'estimated')) prefer.count = v;
    else if (k === 'resolution' && (v === 'merge-duplicates' || v === 'ignore-duplicates')) prefer.resolution = v;
    else if (k === 'missing' && v === 'default') prefer.missingDefault = true;
    else if (k === 'tx' && v === 'rollback') prefer.rollback = true;
    else if (k === 'handling' && v === 'strict') prefer.strict = true;
    else if (k === 'max-affected' && v && /^\d{1,9}$/.test(v)) prefer.maxAffected = Number(v);
  }
  return prefer;
}
