// The auth stack lives in @render/test-stack (the gateway's and the SDK's tests start it too); this binds this service.
import { type Stack, startAuthStack } from '@render/test-stack/auth-stack';
import type { LogOptions } from '@render/test-stack/in-process';
import { afterAll, beforeAll } from 'vitest';
import { authService } from '../../src/service.ts';

export * from '@render/test-stack/auth-stack';

export const startStack = (env?: Record<string, string>, replicaOf?: Stack, options?: LogOptions): Promise<Stack> =>
  startAuthStack(authService, env, replicaOf, options);

/**
 * A stack for the enclosing suite (started before its tests, closed after them); the function returned
 * reads it, in the tests.
 */
export function suiteStack(env?: Record<string, string>): () => Stack {
  let stack: Stack | undefined;
  beforeAll(async () => {
    stack = await startStack(env);
  });
  afterAll(async () => {
    await stack?.close();
  });
  return () => {
    if (!stack) throw new Error('the suite stack has not started');
    return stack;
  };
}
