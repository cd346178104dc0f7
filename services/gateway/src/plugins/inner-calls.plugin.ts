import { randomUUID } from 'node:crypto';
import type { EventEmitter } from 'node:events';
import { REQUEST_ID_HEADER } from '@render/fastify-kit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { watchClient } from '../http/client-gone.ts';

export interface InnerCallAnswer {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

export interface InnerCalls {
  /**
   * Makes one call of the public API through the gateway's own routes (`inject`, nothing leaves the process)
   * for the client of `request`: with its credentials and address, so identity, limits, credits and
   * validation are the public call's, and tied to its connection, so a client that hangs up ends the call
   * as it would end its own (render dropped, credit released).
   */
  call(request: FastifyRequest, method: 'GET' | 'POST', path: string, body?: unknown): Promise<InnerCallAnswer>;
}

declare module 'fastify' {
  interface FastifyInstance {
    innerCalls: InnerCalls;
  }
}

/** Request headers that pass on to the inner call: the caller's credentials and user agent, nothing else. */
const PASSED_HEADERS = ['authorization', 'x-api-key', 'user-agent'] as const;
/**
 * Marks an inner call with the id of its client's link. Only ids this process just made mean anything, so a
 * client sending the header itself links to nothing; it is removed before any route sees it.
 */
const LINK_HEADER = 'x-render-inner-call';

type FakeSocket = EventEmitter & { destroyed?: boolean };

async function innerCallsPlugin(app: FastifyInstance) {
  /** Inner call id → its client's hang-up signal, while the call runs. */
  const links = new Map<string, AbortSignal>();

  // The inner request's socket is light-my-request's stand-in, an EventEmitter: it closes when the real
  // client's socket does, which is what the render routes watch (`watchClient`, the key check).
  app.addHook('onRequest', async (request) => {
    const id = request.headers[LINK_HEADER];
    if (id === undefined) return;
    delete request.headers[LINK_HEADER];
    const signal = typeof id === 'string' ? links.get(id) : undefined;
    const socket = request.raw.socket as unknown as FakeSocket | undefined;
    if (!signal || !socket || typeof socket.emit !== 'function') return;
    const close = () => {
      socket.destroyed = true;
      socket.emit('close');
    };
    if (signal.aborted) close();
    else signal.addEventListener('abort', close, { once: true });
  });

  async function call(request: FastifyRequest, method: 'GET' | 'POST', path: string, body?: unknown): Promise<InnerCallAnswer> {
    const headers: Record<string, string> = {};
    for (const name of PASSED_HEADERS) {
      const value = request.headers[name];
      if (typeof value === 'string') headers[name] = value;
    }
    if (body !== undefined) headers['content-type'] = 'application/json';
    // The inner call is part of the client's request: it goes by the same id in the logs and the worker.
    headers[REQUEST_ID_HEADER] = request.id;
    const id = randomUUID();
    const client = watchClient(request);
    links.set(id, client.signal);
    try {
      const res = await app.inject({
        method,
        url: path,
        headers: { ...headers, [LINK_HEADER]: id },
        payload: body === undefined ? undefined : JSON.stringify(body),
        remoteAddress: request.ip,
      });
      const answerHeaders: Record<string, string> = {};
      for (const [name, value] of Object.entries(res.headers)) {
        if (value !== undefined) answerHeaders[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
      }
      return { status: res.statusCode, headers: answerHeaders, body: res.rawPayload };
    } finally {
      links.delete(id);
      client.dispose();
    }
  }

  app.decorate('innerCalls', { call } satisfies InnerCalls);
}

export default fp(innerCallsPlugin, { name: 'inner-calls', fastify: '5.x' });
