import { readFileSync } from 'node:fs';
import { descendantsOf } from './processes.ts';

/** kB value of a `Key:   123 kB` line in /proc/<pid>/status or smaps_rollup; undefined when absent. */
export function kbField(text: string, key: string): number | undefined {
  const m = new RegExp(`^${key}:\\s+(\\d+)\\s+kB`, 'm').exec(text);
  return m ? Number(m[1]) : undefined;
}

export interface TreeMemory {
  /** Processes counted (the root and every descendant still alive). */
  processes: number;
  /** Sum of VmRSS: counts pages shared between processes (Chromium's binary, shared memory) once per process. */
  rssMiB: number;
  /** Sum of Pss (proportional share): shared pages split between their users (other processes on the host too). */
  pssMiB: number;
  /** Sum of Private_Clean + Private_Dirty (USS): memory only this tree's processes map, what closing them frees. */
  ussMiB: number;
}

export function sumTreeMemory(readings: ReadonlyArray<{ rssKb?: number; pssKb?: number; ussKb?: number }>): TreeMemory {
  let rss = 0;
  let pss = 0;
  let uss = 0;
  let processes = 0;
  for (const r of readings) {
    if (r.rssKb === undefined) continue;
    processes += 1;
    rss += r.rssKb;
    pss += r.pssKb ?? r.rssKb;
    uss += r.ussKb ?? r.rssKb;
  }
  return { processes, rssMiB: rss / 1024, pssMiB: pss / 1024, ussMiB: uss / 1024 };
}

function read(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

/** Memory of `root` and its descendants (a worker: node + Chromium's browser, zygotes, GPU, renderers). */
export function treeMemory(root: number): TreeMemory {
  const pids = [root, ...descendantsOf(root).map((p) => p.pid)];
  return sumTreeMemory(
    pids.map((pid) => {
      const status = read(`/proc/${pid}/status`);
      const rollup = read(`/proc/${pid}/smaps_rollup`);
      const privateKb = rollup ? (kbField(rollup, 'Private_Clean') ?? 0) + (kbField(rollup, 'Private_Dirty') ?? 0) : undefined;
      return { rssKb: status ? kbField(status, 'VmRSS') : undefined, pssKb: rollup ? kbField(rollup, 'Pss') : undefined, ussKb: privateKb };
    }),
  );
}

/** Least-squares slope and intercept of y over x (e.g. MiB over warm pages). */
export function linearFit(points: ReadonlyArray<[number, number]>): { slope: number; intercept: number } {
  const n = points.length;
  if (n < 2) return { slope: Number.NaN, intercept: Number.NaN };
  const mx = points.reduce((a, [x]) => a + x, 0) / n;
  const my = points.reduce((a, [, y]) => a + y, 0) / n;
  let num = 0;
  let den = 0;
  for (const [x, y] of points) {
    num += (x - mx) * (y - my);
    den += (x - mx) ** 2;
  }
  const slope = den === 0 ? Number.NaN : num / den;
  return { slope, intercept: my - slope * mx };
}

/**
 * utime + stime + cutime + cstime (clock ticks) from a /proc/<pid>/stat line (the name field may hold
 * spaces and ')'). With the children's waited-for time, a tree's sum does not drop when a process in it
 * (a recycled Chromium renderer) exits and is reaped by its parent.
 */
export function cpuTicksOf(stat: string): number {
  const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // rest[0] is field 3 (state): utime, stime, cutime, cstime are fields 14 to 17.
  return Number(rest[11]) + Number(rest[12]) + Number(rest[13]) + Number(rest[14]);
}

const CLOCK_TICKS_PER_SECOND = 100;

/** CPU seconds used so far by `root` and its live descendants. */
export function treeCpuSeconds(root: number): number {
  let ticks = 0;
  for (const pid of [root, ...descendantsOf(root).map((p) => p.pid)]) {
    const stat = read(`/proc/${pid}/stat`);
    if (stat) ticks += cpuTicksOf(stat);
  }
  return ticks / CLOCK_TICKS_PER_SECOND;
}

/** Busy and total jiffies of the whole machine, from the first line of /proc/stat. */
export function machineCpu(statText = read('/proc/stat') ?? ''): { busy: number; total: number } {
  const fields = (statText.split('\n')[0] ?? '').trim().split(/\s+/).slice(1).map(Number);
  const total = fields.reduce((a, b) => a + b, 0);
  const idle = (fields[3] ?? 0) + (fields[4] ?? 0);
  return { busy: total - idle, total };
}
