import { describe, expect, it } from 'vitest';
import { registerRebuilds, registeredRebuilds } from '~/server/rebuild/registry.ts';
import { RebuildManager } from '../../../support/rebuild-fakes.ts';

/** A build function whose runs the test finishes by hand. */
function controlledBuilds() {
  const runs: Array<{ resolve: () => void; reject: (e: Error) => void }> = [];
  let started = 0;
  const build = () =>
    new Promise<void>((resolve, reject) => {
      started += 1;
      runs.push({ resolve, reject });
    });
  const waitForStart = async (n: number) => {
    for (let i = 0; i < 100 && started < n; i++) await new Promise((r) => setTimeout(r, 1));
    expect(started).toBe(n);
  };
  return { build, runs, started: () => started, waitForStart };
}

describe('RebuildManager', () => {
  it('starts a build when idle and reports building, then idle with the figures', async () => {
    let clock = 1_000;
    const fake = controlledBuilds();
    const manager = new RebuildManager(fake.build, () => clock);
    expect(manager.status()).toMatchObject({ status: 'idle', builds: 0, startedAt: null, lastError: null });
    expect(manager.request('admin').status).toBe('building');
    await fake.waitForStart(1);
    clock = 4_500;
    fake.runs[0]!.resolve();
    await manager.idle();
    expect(manager.status()).toEqual({
      status: 'idle',
      startedAt: new Date(1_000).toISOString(),
      finishedAt: new Date(4_500).toISOString(),
      durationMs: 3_500,
      lastError: null,
      builds: 1,
      failures: 0,
      reason: 'admin',
      progress: null,
      lastSuccessAt: new Date(4_500).toISOString(),
      lastPages: null,
    });
  });

  it('coalesces any number of requests during a build into exactly one more build', async () => {
    const fake = controlledBuilds();
    const manager = new RebuildManager(fake.build);
    manager.request('admin');
    await fake.waitForStart(1);
    const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => Promise.resolve(manager.request(`r${i}`).status)));
    expect(new Set(answers)).toEqual(new Set(['queued']));
    fake.runs[0]!.resolve();
    await fake.waitForStart(2);
    expect(manager.status()).toMatchObject({ status: 'building', builds: 1, reason: 'r9' });
    fake.runs[1]!.resolve();
    await manager.idle();
    // Give a third build every chance to start if the manager wrongly queued more than one.
    await new Promise((r) => setTimeout(r, 20));
    expect(fake.started()).toBe(2);
    expect(manager.status()).toMatchObject({ status: 'idle', builds: 2 });
  });

  it('never runs two builds at once', async () => {
    let active = 0;
    let maxActive = 0;
    const manager = new RebuildManager(async () => {
      active += 1;
      maxActive = Math.max(maxActive, active);
      await new Promise((r) => setTimeout(r, 5));
      active -= 1;
    });
    for (let i = 0; i < 5; i++) {
      manager.request('burst');
      await new Promise((r) => setTimeout(r, 2));
    }
    await manager.idle();
    expect(maxActive).toBe(1);
    expect(manager.status().status).toBe('idle');
  });

  it('reports a failed build in lastError and clears it after the next success', async () => {
    const fake = controlledBuilds();
    const manager = new RebuildManager(fake.build);
    manager.request('admin');
    await fake.waitForStart(1);
    fake.runs[0]!.reject(new Error('La compilación falló (código 1).'));
    await manager.idle();
    expect(manager.status()).toMatchObject({ status: 'idle', builds: 1, failures: 1, lastError: 'La compilación falló (código 1).' });
    manager.request('admin');
    await fake.waitForStart(2);
    fake.runs[1]!.resolve();
    await manager.idle();
    expect(manager.status()).toMatchObject({ builds: 2, failures: 1, lastError: null });
  });

  it('survives a build function that throws synchronously', async () => {
    const manager = new RebuildManager(() => {
      throw new Error('sin astro');
    });
    manager.request('admin');
    await manager.idle();
    expect(manager.status()).toMatchObject({ status: 'idle', lastError: 'sin astro', failures: 1 });
  });

  it('is shared through globalThis between separately loaded copies', () => {
    const manager = new RebuildManager(async () => {});
    registerRebuilds(manager);
    expect(registeredRebuilds()).toBe(manager);
    registerRebuilds(null);
    expect(registeredRebuilds()).toBeNull();
  });
});

describe('RebuildManager progress', () => {
  it('reports the phase, the pages written and the share of the last build, then the last success', async () => {
    let clock = 0;
    let report: ((p: { phase: 'starting' | 'content' | 'bundling' | 'pages' | 'publishing'; pagesWritten: number }) => void) | undefined;
    let finish: () => void = () => {};
    const manager = new RebuildManager(
      (r) => {
        report = r;
        return new Promise<void>((resolve) => (finish = resolve));
      },
      () => clock,
      200,
    );
    expect(manager.status().progress).toBeNull();
    manager.request('admin');
    await new Promise((r) => setTimeout(r, 1));
    expect(manager.status().progress).toMatchObject({ phase: 'starting', pagesWritten: 0, pagesExpected: 200, percent: 0 });
    report!({ phase: 'pages', pagesWritten: 50 });
    expect(manager.status().progress).toMatchObject({ phase: 'pages', pagesWritten: 50, pagesExpected: 200, percent: 25 });
    report!({ phase: 'publishing', pagesWritten: 210 });
    expect(manager.status().progress).toMatchObject({ phase: 'publishing', percent: 99 });
    clock = 5_000;
    finish();
    await manager.idle();
    expect(manager.status()).toMatchObject({ status: 'idle', progress: null, lastPages: 210, lastSuccessAt: new Date(5_000).toISOString() });
  });
});

describe('RebuildManager changed products', () => {
  it('passes the changed products to the build, merges those queued meanwhile, and a full request makes the next build full', async () => {
    const asked: Array<{ productIds: string[] } | null> = [];
    const runs: Array<() => void> = [];
    const manager = new RebuildManager(
      (_report, changes) =>
        new Promise<void>((resolve) => {
          asked.push(changes ?? null);
          runs.push(resolve);
        }),
    );
    manager.request('realtime', { productIds: ['pk-2', 'pk-1', 'pk-2'] });
    await new Promise((r) => setTimeout(r, 1));
    manager.request('realtime', { productIds: ['pk-3'] });
    manager.request('realtime', { productIds: ['pk-1'] });
    runs[0]!();
    await new Promise((r) => setTimeout(r, 5));
    manager.request('realtime', { productIds: ['pk-4'] });
    manager.request('admin');
    manager.request('realtime', { productIds: ['pk-5'] });
    runs[1]!();
    await new Promise((r) => setTimeout(r, 5));
    runs[2]!();
    await manager.idle();
    expect(asked).toEqual([{ productIds: ['pk-1', 'pk-2'] }, { productIds: ['pk-1', 'pk-3'] }, null]);
  });
});
