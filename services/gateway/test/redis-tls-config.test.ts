import { loadWorkerConfig } from '@render/render-worker';
import { describe, expect, it } from 'vitest';
import { loadGatewayConfig } from '../src/config.ts';

// REDIS_TLS is KEDA's spelling (enable | disable): the one Kubernetes secret key turns TLS on for the
// services (rediss://) and for the autoscaler's TriggerAuthentication alike.
describe('REDIS_TLS', () => {
  it.each([
    ['gateway', loadGatewayConfig],
    ['render worker', loadWorkerConfig],
  ] as const)('%s: enable makes REDIS_URL rediss://; disable or unset keeps it as given', (_name, load) => {
    const url = 'redis://:secret@redis.render-api.svc:6379';
    expect(load({ REDIS_URL: url, REDIS_TLS: 'enable' }).REDIS_URL).toBe('rediss://:secret@redis.render-api.svc:6379');
    expect(load({ REDIS_URL: url, REDIS_TLS: 'disable' }).REDIS_URL).toBe(url);
    expect(load({ REDIS_URL: url }).REDIS_URL).toBe(url);
    expect(load({ REDIS_URL: 'rediss://r:6380', REDIS_TLS: 'enable' }).REDIS_URL).toBe('rediss://r:6380');
    expect(() => load({ REDIS_URL: url, REDIS_TLS: 'true' })).toThrow(/REDIS_TLS/);
  });
});
