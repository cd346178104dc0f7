import { AppError } from '@render/contracts';
import type { Static, TSchema } from 'typebox';
import type { Validator } from 'typebox/compile';

/** What `Compile(schema)` returns: a validator with no shared definitions (TypeBox's own `{}` context). */
// biome-ignore lint/complexity/noBannedTypes: `{}` is the context type TypeBox's Compile gives a lone schema.
export type CompiledCheck<T extends TSchema> = Validator<{}, T>;

export interface ServiceCallOptions {
  timeoutMs: number;
  /** Named in the errors, e.g. "account service". */
  serviceName: string;
  /**
   * What a timeout answers: 504 by default. The account calls made on a caller's behalf (credentials,
   * credits) answer 503 instead: to that caller the service is simply unavailable.
   */
  timeoutCode?: 'UPSTREAM_TIMEOUT' | 'SERVICE_UNAVAILABLE';
}

/** How long a caller is asked to wait when one of our services is away: restarts take seconds. */
export const SERVICE_RETRY_AFTER_SECONDS = 2;

export const serviceUnavailable = (serviceName: string) =>
  new AppError('SERVICE_UNAVAILABLE', `The ${serviceName} is unavailable right now; please retry shortly`, undefined, {
    retryAfterSeconds: SERVICE_RETRY_AFTER_SECONDS,
  });

/**
 * A call to one of our own services: a timeout is a 504 and an unreachable service a 503, both naming the
 * service, so a caller never sees a fetch error as a 500.
 */
export async function fetchService(url: URL, init: RequestInit, opts: ServiceCallOptions): Promise<Response> {
  try {
    return await fetch(url, { ...init, signal: AbortSignal.timeout(opts.timeoutMs) });
  } catch (err) {
    if ((err as Error).name === 'TimeoutError' && opts.timeoutCode !== 'SERVICE_UNAVAILABLE') {
      throw new AppError('UPSTREAM_TIMEOUT', `The ${opts.serviceName} did not answer in time`);
    }
    throw serviceUnavailable(opts.serviceName);
  }
}

/**
 * A service's answer in the shape its contract declares, checked with a validator compiled once (at plugin
 * registration, never per request). Anything else means the service misbehaves: a 503, not a crash on a
 * missing field further on.
 */
export function checkAnswer<T extends TSchema>(body: unknown, shape: CompiledCheck<T>, serviceName: string): Static<T> {
  if (shape.Check(body)) return body;
  throw new AppError('SERVICE_UNAVAILABLE', `The ${serviceName} gave an answer the gateway cannot read; please retry shortly`, undefined, {
    retryAfterSeconds: SERVICE_RETRY_AFTER_SECONDS,
  });
}

/** `checkAnswer` over a response's JSON body; a body that is not JSON is just as unreadable. */
export async function readAnswer<T extends TSchema>(res: Response, shape: CompiledCheck<T>, serviceName: string): Promise<Static<T>> {
  return checkAnswer(await res.json().catch(() => undefined), shape, serviceName);
}
