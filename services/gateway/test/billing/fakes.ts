import type { ApiKeyOwnerResponse } from '@render/contracts';
import type { FastifyRequest } from 'fastify';
import type { RenderOutcome } from '../../src/plugins/render-queue.plugin.ts';

/** What the billing classes read of a request, and nothing else: a request that answers nothing. */
export function fakeRequest(fields: { id?: string; destroyed?: boolean; caller?: FastifyRequest['caller'] } = {}): FastifyRequest {
  return {
    id: fields.id ?? 'req-1',
    caller: fields.caller ?? null,
    billing: null,
    limits: null,
    routeOptions: { config: { ledgerKind: 'html' } },
    raw: { socket: { destroyed: fields.destroyed ?? false } },
  } as unknown as FastifyRequest;
}

export const owner = (plan: 'free' | 'pro' = 'free'): ApiKeyOwnerResponse =>
  ({ userId: 'user-1', role: 'user', plan }) as ApiKeyOwnerResponse;

export const image = (format = 'png'): RenderOutcome =>
  ({ image: Buffer.from('image'), meta: { format, renderMs: 7 } }) as unknown as RenderOutcome;

/** A promise settled from outside. */
export function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (err: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}
