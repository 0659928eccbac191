import { describe, expect, it } from 'vitest';
import { decideBuildMode, type BuildModeInput } from '~/server/rebuild/build-mode.ts';

/** A rebuild that can be incremental: two products changed, the served build left a manifest of this code. */
const ready: BuildModeInput = { servedManifest: true, servedCodeKey: 'code-1', codeKey: 'code-1', changedIds: ['p1', 'p2'], maxChanged: 500 };

describe('decideBuildMode (full or incremental)', () => {
  it('is incremental when products changed, the served build left a manifest and was made from the same code', () => {
    expect(decideBuildMode(ready)).toEqual({ mode: 'incremental', reason: null });
  });

  it('is full, with no reason, when no product was named (an admin asks for everything)', () => {
    expect(decideBuildMode({ ...ready, changedIds: [] })).toEqual({ mode: 'full', reason: null });
    expect(decideBuildMode({ ...ready, changedIds: [], servedManifest: false, servedCodeKey: null })).toEqual({ mode: 'full', reason: null });
  });

  it('is full when the served build left no manifest (or nothing is served as a build yet)', () => {
    expect(decideBuildMode({ ...ready, servedManifest: false })).toEqual({ mode: 'full', reason: 'no hay manifiesto de la compilación servida' });
  });

  it('is full when the code changed since the served build, or its code is unknown', () => {
    expect(decideBuildMode({ ...ready, codeKey: 'code-2' })).toEqual({ mode: 'full', reason: 'el código cambió' });
    expect(decideBuildMode({ ...ready, servedCodeKey: null })).toEqual({ mode: 'full', reason: 'el código cambió' });
  });

  it('is full past maxChanged products, and incremental at exactly maxChanged', () => {
    const ids = Array.from({ length: 4 }, (_, i) => `p${i}`);
    expect(decideBuildMode({ ...ready, changedIds: ids, maxChanged: 3 })).toEqual({ mode: 'full', reason: '4 productos cambiaron' });
    expect(decideBuildMode({ ...ready, changedIds: ids, maxChanged: 4 })).toEqual({ mode: 'incremental', reason: null });
  });

  it('gives the first reason that rules an incremental build out: manifest, then code, then the count', () => {
    const many = Array.from({ length: 10 }, (_, i) => `p${i}`);
    expect(decideBuildMode({ servedManifest: false, servedCodeKey: 'old', codeKey: 'new', changedIds: many, maxChanged: 1 }).reason).toBe(
      'no hay manifiesto de la compilación servida',
    );
    expect(decideBuildMode({ servedManifest: true, servedCodeKey: 'old', codeKey: 'new', changedIds: many, maxChanged: 1 }).reason).toBe('el código cambió');
  });
});
