import { AppError } from '@render/contracts';
import type { FastifyRequest } from 'fastify';

export const clientGoneError = () => new AppError('CLIENT_CLOSED_REQUEST', 'The client closed the connection before the answer');

/**
 * Aborts when the caller hangs up before the answer. The socket is watched rather than the request stream,
 * whose 'close' only means its body was read. `dispose` detaches the listener: keep-alive sockets carry many
 * requests.
 */
export function watchClient(request: FastifyRequest): { signal: AbortSignal; dispose(): void } {
  const controller = new AbortController();
  const socket = request.raw.socket;
  // light-my-request's injected requests have no real socket to watch.
  if (!socket || typeof socket.once !== 'function') return { signal: controller.signal, dispose: () => undefined };
  const onClose = () => controller.abort(clientGoneError());
  if (socket.destroyed) onClose();
  else socket.once('close', onClose);
  return { signal: controller.signal, dispose: () => socket.off('close', onClose) };
}
