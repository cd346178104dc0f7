import { AppError } from '@render/contracts';

/**
 * A call to one of our own services: a timeout is a 504 and an unreachable service a 503, both naming the
 * service, so a caller never sees a fetch error as a 500.
 */
export async function fetchService(url: URL, init: RequestInit, opts: { timeoutMs: number; serviceName: string }): Promise<Response> {
  try {
    return await fetch(url, { ...init, signal: AbortSignal.timeout(opts.timeoutMs) });
  } catch (err) {
    if ((err as Error).name === 'TimeoutError') throw new AppError('UPSTREAM_TIMEOUT', `The ${opts.serviceName} did not answer in time`);
    throw new AppError('SERVICE_UNAVAILABLE', `The ${opts.serviceName} is unavailable right now; please retry shortly`);
  }
}
