/**
 * npm run load's CPU accounting (scripts/load/cpu.ts): a busy process tree is charged its CPU
 * seconds, an idle one nothing, and a child's CPU counts in its parent's tree.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { cpuSeconds, cpuUsed } from '../../../scripts/load/cpu.ts';

const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
});

/** A Node process that runs `code`, then says 'done' and waits to be killed. */
function start(code: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['-e', `${code}; console.log('done'); setInterval(() => {}, 1000);`], { stdio: ['ignore', 'pipe', 'inherit'] });
  children.push(child);
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => chunk.toString().includes('done') && resolve(child));
    child.once('exit', (code) => reject(new Error(`exited early (${code})`)));
  });
}

// The grandchild outlives a SIGKILL of its parent: it leaves by itself once orphaned (its parent
// is no longer `p`, read before it burns), and after a minute at the latest, so no test leaves a process behind.
const ORPHAN_EXIT = 'setInterval(() => process.ppid !== p && process.exit(0), 200); setTimeout(() => process.exit(0), 60_000)';

// Burns 0.4 s of CPU (measured as CPU, so a busy machine only makes it take longer).
const BURN = 'const s = process.cpuUsage(); while ((() => { const u = process.cpuUsage(s); return u.user + u.system; })() < 400000) {}';

describe.runIf(process.platform === 'linux')('CPU seconds by process group', () => {
  it('charges a busy tree its CPU time and an idle one none', async () => {
    const idle = await start('');
    const before = cpuSeconds({ idle: { roots: [idle.pid!] } });
    // The busy process is a child of a parent that itself does nothing.
    const parent = await start(
      `require('node:child_process').spawn(process.execPath, ['-e', ${JSON.stringify(`const p = process.ppid; ${BURN}; ${ORPHAN_EXIT}`)}], { stdio: 'ignore' })`,
    );
    // A new tree: all the CPU it ever used is counted. Wait (bounded) for the grandchild's 0.4 s.
    let busy = 0;
    for (let i = 0; i < 100 && busy < 0.4; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      busy = cpuSeconds({ busy: { roots: [parent.pid!] } }).busy!;
    }
    expect(busy).toBeGreaterThanOrEqual(0.4);
    expect(cpuUsed(before, cpuSeconds({ idle: { roots: [idle.pid!] } })).idle).toBeLessThan(0.1);
  }, 30_000);

  it('counts every process of a program by name', () => {
    const reading = cpuSeconds({ node: { program: 'node' }, none: { program: 'no-such-program-xyz' } });
    // This test runs in a Node process that has already used CPU.
    expect(reading.node).toBeGreaterThan(0);
    expect(reading.none).toBe(0);
  });
});
