// The auth stack lives in @render/test-stack (the gateway's and the SDK's tests start it too); this binds this service.
import { type Stack, startAuthStack } from '@render/test-stack/auth-stack';
import type { LogOptions } from '@render/test-stack/in-process';
import { authService } from '../../src/service.ts';

export * from '@render/test-stack/auth-stack';

export const startStack = (env?: Record<string, string>, replicaOf?: Stack, options?: LogOptions): Promise<Stack> =>
  startAuthStack(authService, env, replicaOf, options);
