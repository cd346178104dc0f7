import {
  type ApiKeyOwnerResponse,
  AppError,
  AuthInternalRoutes,
  type CreditOutcome,
  ErrorResponse,
  type RouteContract,
  type SessionIdentity,
  SessionIdentity as SessionIdentitySchema,
} from '@render/contracts';
import { INTERNAL_TOKEN_HEADER } from '@render/fastify-kit';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { fetchService, readAnswer, serviceUnavailable } from '../lib/service-fetch.ts';

/** The account service's calls the gateway makes for a caller; each answer is checked against its contract. */
export interface AuthClient {
  /** The owner of an API key; null when the service does not know it. */
  apiKeyOwner(apiKey: string): Promise<ApiKeyOwnerResponse | null>;
  /** The account behind a session token; null when the token is invalid or expired. */
  sessionOwner(token: string): Promise<SessionIdentity['user'] | null>;
  /** The owner behind a signature made with their API key; null when it does not match. */
  signatureOwner(userId: string, message: string, signature: string): Promise<ApiKeyOwnerResponse | null>;
  /** Reserves one credit under `requestId`; 402 when the account's window is used up. */
  reserveCredit(userId: string, requestId: string): Promise<void>;
  /** Charges or releases a reservation; rejects when the service did not confirm it. */
  settleCredit(requestId: string, outcome: CreditOutcome): Promise<void>;
}

declare module 'fastify' {
  interface FastifyInstance {
    authClient: AuthClient;
  }
}

export interface AuthClientOptions {
  baseUrl: string;
  internalToken?: string;
  timeoutMs: number;
}

const SERVICE = 'account service';
const noop = () => undefined;
const { verifyApiKey, verifySignature, reserveCredit, settleCredit } = AuthInternalRoutes;
// Compiled once: the checks run on every authenticated call.
const ownerAnswer = TypeCompiler.Compile(verifyApiKey.schema.response[200]);
const sessionAnswer = TypeCompiler.Compile(SessionIdentitySchema);
const errorAnswer = TypeCompiler.Compile(ErrorResponse);

/**
 * The gateway's HTTP client of the account service, which owns users, keys and the credit ledger. Every
 * call carries the internal token (set here, in one place); without the token no credit can be reserved, so
 * no call is made at all and credentialed requests get a 503. Bearer JWTs are checked by calling
 * /api/auth/me rather than verified locally: the gateway then needs no JWT_SECRET, and a deleted account or
 * a plan change is seen within the identity cache's TTL.
 */
async function authClientPlugin(app: FastifyInstance, opts: AuthClientOptions) {
  const unavailable = () => serviceUnavailable(SERVICE);

  async function call(method: string, path: string, init: { body?: unknown; headers?: Record<string, string> } = {}): Promise<Response> {
    if (!opts.internalToken) throw unavailable();
    const headers: Record<string, string> = { [INTERNAL_TOKEN_HEADER]: opts.internalToken, ...init.headers };
    if (init.body !== undefined) headers['content-type'] = 'application/json';
    return fetchService(
      new URL(path, opts.baseUrl),
      { method, headers, body: init.body === undefined ? undefined : JSON.stringify(init.body) },
      { timeoutMs: opts.timeoutMs, serviceName: SERVICE, timeoutCode: 'SERVICE_UNAVAILABLE' },
    );
  }
  const post = (route: RouteContract<'POST'>, body: unknown) => call(route.method, route.url, { body });
  // A body left unread keeps its connection from going back to the keep-alive pool.
  const discard = (res: Response): Promise<void> => res.arrayBuffer().then(noop, noop);

  async function apiKeyOwner(apiKey: string) {
    const res = await post(verifyApiKey, { apiKey });
    // 400 is the verify schema refusing the key's shape (e.g. too long): still just a wrong key.
    if (res.status === 401 || res.status === 400) return discard(res).then(() => null);
    if (!res.ok) throw unavailable();
    return readAnswer(res, ownerAnswer, SERVICE);
  }

  async function sessionOwner(token: string) {
    const res = await call('GET', '/api/auth/me', { headers: { authorization: `Bearer ${token}` } });
    if (res.status === 401) return discard(res).then(() => null);
    if (!res.ok) throw unavailable();
    return (await readAnswer(res, sessionAnswer, SERVICE)).user;
  }

  async function signatureOwner(userId: string, message: string, signature: string) {
    const res = await post(verifySignature, { userId, message, signature });
    // 400: not even shaped like a signature.
    if (res.status === 403 || res.status === 400) return discard(res).then(() => null);
    if (!res.ok) throw unavailable();
    return readAnswer(res, ownerAnswer, SERVICE);
  }

  async function reserve(userId: string, requestId: string) {
    const res = await post(reserveCredit, { userId, requestId });
    if (res.ok) return discard(res);
    if (res.status === 402) {
      const body: unknown = await res.json().catch(() => undefined);
      throw new AppError('PAYMENT_REQUIRED', errorAnswer.Check(body) ? body.message : 'You have no credits left for this window');
    }
    // 404: the account was deleted after its credentials were cached.
    if (res.status === 404) throw new AppError('UNAUTHORIZED', 'Invalid API key');
    throw unavailable();
  }

  async function settle(requestId: string, outcome: CreditOutcome) {
    const res = await post(settleCredit, { requestId, outcome });
    await discard(res);
    if (!res.ok) throw new Error(`status ${res.status}`);
  }

  app.decorate('authClient', {
    apiKeyOwner,
    sessionOwner,
    signatureOwner,
    reserveCredit: reserve,
    settleCredit: settle,
  } satisfies AuthClient);
}

export default fp(authClientPlugin, { name: 'auth-client', fastify: '5.x' });
