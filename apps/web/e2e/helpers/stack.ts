// The stacks live in @render/test-stack; this binds the real services to them, in-process.
import { authService as auth } from '@render/auth/service';
import { gatewayService as gateway } from '@render/gateway/service';
import type { RenderWorkerHandle } from '@render/render-worker';
import { workerService as worker } from '@render/render-worker/service';
import { templatesService as templates } from '@render/templates/service';
import { type FullStack as AnyFullStack, bindServices } from '@render/test-stack/services';

export { type TestGateway, uniquePrefix } from '@render/test-stack/services';
export type FullStack = AnyFullStack<RenderWorkerHandle>;

export const { startStack, startTemplates, startWorker, startGateway, startFullStack } = bindServices({ auth, templates, gateway, worker });
