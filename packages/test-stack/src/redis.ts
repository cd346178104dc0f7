import { execSync } from 'node:child_process';
import { testEnv } from './test-env.ts';

let containerUrl: Promise<string> | undefined;

/**
 * Redis for tests: TEST_REDIS_URL when set (scripts/test sets it to the stack's Redis); otherwise a
 * throwaway container through testcontainers where a Docker engine exists.
 */
export function testRedisUrl(): Promise<string> {
  const fromEnv = testEnv.TEST_REDIS_URL;
  if (fromEnv) return Promise.resolve(fromEnv);
  containerUrl ??= (async () => {
    try {
      execSync('docker info', { stdio: 'ignore' });
    } catch {
      throw new Error('Set TEST_REDIS_URL (./scripts/test does) or run where Docker is available for testcontainers');
    }
    const { GenericContainer } = await import('testcontainers');
    const container = await new GenericContainer('redis:7-alpine').withExposedPorts(6379).start();
    return `redis://${container.getHost()}:${container.getMappedPort(6379)}`;
  })();
  return containerUrl;
}
