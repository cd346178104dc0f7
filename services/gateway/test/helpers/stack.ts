// The stacks live in @render/test-stack; this binds the real services to them, in-process (auth on its own
// throwaway database with a real SMTP server, templates, a render worker and this gateway).
import { authService as auth } from '@render/auth/service';
import type { RenderWorkerHandle } from '@render/render-worker';
import { workerService as worker } from '@render/render-worker/service';
import { templatesService as templates } from '@render/templates/service';
import { type FullStack as AnyFullStack, bindServices } from '@render/test-stack/services';
import { gatewayService as gateway } from '../../src/service.ts';

export type { LogOptions } from '@render/test-stack/in-process';

import { type TestGateway, uniquePrefix } from '@render/test-stack/services';

export { type TestGateway, uniquePrefix };
export type FullStack = AnyFullStack<RenderWorkerHandle>;

export const { startStack, startTemplates, startWorker, startGateway, startFullStack } = bindServices({ auth, templates, gateway, worker });

/**
 * A render worker for `workerEnv`'s queues and a gateway in front of it, on a queue prefix of their own
 * (`label`): the gateway answered, whose `close` closes the worker after it.
 */
export async function startGatewayWithWorker(label: string, workerEnv: Record<string, string>): Promise<TestGateway> {
  const prefix = uniquePrefix(label);
  const renderWorker = await startWorker({ QUEUE_PREFIX: prefix, ...workerEnv });
  const front = await startGateway({ QUEUE_PREFIX: prefix });
  return {
    ...front,
    async close() {
      await front.close();
      await renderWorker.close();
    },
  };
}
