import { describe, expect, it } from 'vitest';
import { diffRedisStats, type MonitorCounts, parseRedisInfo, tallyMonitorLine } from '../lib/redis-stats.ts';

const INFO = (evalsha: number, info: number, cpu: string) =>
  [
    '# Commandstats',
    `cmdstat_evalsha:calls=${evalsha},usec=900,usec_per_call=9.00,rejected_calls=0,failed_calls=0`,
    'cmdstat_publish:calls=10,usec=20,usec_per_call=2.00,rejected_calls=0,failed_calls=0',
    'cmdstat_client|setname:calls=3,usec=1,usec_per_call=0.33,rejected_calls=0,failed_calls=0',
    `cmdstat_info:calls=${info},usec=50,usec_per_call=5.00,rejected_calls=0,failed_calls=0`,
    '',
    '# CPU',
    `used_cpu_sys:${cpu}`,
    'used_cpu_user:1.000000',
    'used_cpu_sys_children:9.000000',
  ].join('\r\n');

describe('parseRedisInfo / diffRedisStats', () => {
  it('reads calls per command and the server CPU (children excluded)', () => {
    const stats = parseRedisInfo(INFO(30, 2, '0.500000'));
    expect(stats.calls.get('evalsha')).toBe(30);
    expect(stats.calls.get('client|setname')).toBe(3);
    expect(stats.cpuSeconds).toBeCloseTo(1.5, 10);
  });

  it('diffs two readings, leaving out INFO itself, most called first', () => {
    const diff = diffRedisStats(parseRedisInfo(INFO(70, 9, '0.750000')), parseRedisInfo(INFO(30, 2, '0.500000')));
    expect(diff.byCommand).toEqual([['evalsha', 40]]);
    expect(diff.total).toBe(40);
    expect(diff.cpuSeconds).toBeCloseTo(0.25, 10);
  });
});

describe('tallyMonitorLine', () => {
  it('tells commands clients sent from those scripts ran', () => {
    const counts: MonitorCounts = { sent: new Map(), scripted: new Map() };
    for (const line of [
      '+1764020000.123456 [0 127.0.0.1:50123] "EVALSHA" "abc" "8" "bull:html:wait"',
      '+1764020000.123500 [0 lua] "HMGET" "bull:html:1" "a"',
      '+1764020000.123600 [0 lua] "hmget" "bull:html:2" "a"',
      '+1764020000.123700 [0 unix:/tmp/redis.sock] "PUBLISH" "render:reply:g1" "x"',
      '+1764020000.123800 [0 127.0.0.1:50124] "INFO" "commandstats"',
      '+OK',
    ])
      tallyMonitorLine(line, counts);
    expect(Object.fromEntries(counts.sent)).toEqual({ evalsha: 1, publish: 1 });
    expect(Object.fromEntries(counts.scripted)).toEqual({ hmget: 2 });
  });
});
