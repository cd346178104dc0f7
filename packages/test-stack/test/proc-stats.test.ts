import { describe, expect, it } from 'vitest';
import { cpuTicksOf, kbField, linearFit, machineCpu, sumTreeMemory, treeMemory } from '../src/proc-stats.ts';

describe('kbField', () => {
  const status = 'Name:\tchrome\nVmHWM:\t  200000 kB\nVmRSS:\t  123456 kB\nRssAnon:\t 1000 kB\n';
  it('reads a kB line by exact key', () => {
    expect(kbField(status, 'VmRSS')).toBe(123456);
    expect(kbField('Rss:  5000 kB\nPss:  2048 kB\nPss_Anon:  1 kB\n', 'Pss')).toBe(2048);
    expect(kbField(status, 'Pss')).toBeUndefined();
  });
});

describe('sumTreeMemory', () => {
  it('sums RSS, PSS and USS over live processes, in MiB; PSS and USS fall back to RSS', () => {
    expect(sumTreeMemory([{ rssKb: 2048, pssKb: 1024, ussKb: 512 }, { rssKb: 1024 }, { pssKb: 99 }])).toEqual({
      processes: 2,
      rssMiB: 3,
      pssMiB: 2,
      ussMiB: 1.5,
    });
  });
});

describe('cpuTicksOf', () => {
  it('reads utime + stime + reaped children’s time after a command name holding spaces and parentheses', () => {
    const stat = '4242 (Web Content (x)) S 1 4242 4242 0 -1 4194560 100 0 0 0 250 75 10 5 20 0 1 0 1000 0 0';
    expect(cpuTicksOf(stat)).toBe(340);
  });
});

describe('machineCpu', () => {
  it('counts idle and iowait as not busy', () => {
    expect(machineCpu('cpu  100 5 50 800 40 3 2 0 0 0\ncpu0 1 2 3 4\n')).toEqual({ busy: 160, total: 1000 });
  });
});

describe('linearFit', () => {
  it('fits MiB over pages', () => {
    const fit = linearFit([
      [1, 310],
      [2, 320],
      [4, 340],
      [8, 380],
    ]);
    expect(fit.slope).toBeCloseTo(10, 10);
    expect(fit.intercept).toBeCloseTo(300, 10);
    expect(linearFit([[1, 1]]).slope).toBeNaN();
  });
});

describe('treeMemory', () => {
  it('reads this process from /proc', () => {
    const mem = treeMemory(process.pid);
    expect(mem.processes).toBeGreaterThanOrEqual(1);
    expect(mem.rssMiB).toBeGreaterThan(1);
  });
});
