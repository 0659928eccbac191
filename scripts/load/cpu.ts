/**
 * Where a load run's CPU went: the CPU seconds of groups of processes (a process and everything
 * it started, or every process of one program such as postgres), read from /proc (Linux).
 */
import fs from 'node:fs';
import { spawnSync } from 'node:child_process';

interface Proc {
  pid: number;
  ppid: number;
  comm: string;
  /** user + system ticks, its own and those of its children it has waited for. */
  ticks: number;
}

/** A group: the trees under `roots` and every process whose program is `program`. */
export interface CpuGroup {
  roots?: number[];
  program?: string;
}

const TICKS_PER_SECOND = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout?.trim()) || 100;

function readProcs(): Map<number, Proc> {
  const procs = new Map<number, Proc>();
  let entries: string[] = [];
  try {
    entries = fs.readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return procs;
  }
  for (const name of entries) {
    let stat: string;
    try {
      stat = fs.readFileSync(`/proc/${name}/stat`, 'utf8');
    } catch {
      continue; // gone meanwhile
    }
    // "pid (comm) state ppid ...": comm may hold spaces and parentheses, so split at the last ')'.
    const close = stat.lastIndexOf(')');
    const comm = stat.slice(stat.indexOf('(') + 1, close);
    const fields = stat.slice(close + 2).split(' ');
    // After comm: state(0) ppid(1) … utime(11) stime(12) cutime(13) cstime(14).
    const ticks = [11, 12, 13, 14].reduce((sum, i) => sum + Number(fields[i] ?? 0), 0);
    procs.set(Number(name), { pid: Number(name), ppid: Number(fields[1]), comm, ticks });
  }
  return procs;
}

/** The CPU seconds each group has used so far; subtract two readings for a window. */
export function cpuSeconds(groups: Record<string, CpuGroup>): Record<string, number> {
  const procs = readProcs();
  const inTree = (proc: Proc, roots: number[]) => {
    for (let p: Proc | undefined = proc, hops = 0; p && hops < 64; p = procs.get(p.ppid), hops++) {
      if (roots.includes(p.pid)) return true;
    }
    return false;
  };
  const result: Record<string, number> = {};
  for (const [name, group] of Object.entries(groups)) {
    let ticks = 0;
    for (const proc of procs.values()) {
      if ((group.program && proc.comm === group.program) || (group.roots && inTree(proc, group.roots))) ticks += proc.ticks;
    }
    result[name] = ticks / TICKS_PER_SECOND;
  }
  return result;
}

/** The difference of two readings, group by group. */
export function cpuUsed(before: Record<string, number>, after: Record<string, number>): Record<string, number> {
  return Object.fromEntries(Object.keys(after).map((name) => [name, Math.max(0, after[name]! - (before[name] ?? 0))]));
}
