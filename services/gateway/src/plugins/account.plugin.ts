import { createHash, randomUUID } from 'node:crypto';
import { AppError } from '@render/contracts';
import { TokenBuckets } from '@render/fastify-kit';
import { RedisTokenBuckets, type RenderKind, type RenderPayload } from '@render/queue';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { watchClient } from '../lib/client-gone.ts';
import type { RenderOutcome } from './render-queue.plugin.ts';

export type AccountCaller = { kind: 'account'; userId: string; role: 'user' | 'admin'; plan: 'free' | 'pro' };
export type Caller = { kind: 'anonymous' } | AccountCaller;

export interface AccountClient {
  /**
   * onRequest hook of billable routes: resolves the credentials (API key or Bearer token) into
   * `request.caller`, 401 when they are wrong, 503 when the account service cannot tell; no credentials
   * means anonymous, which is rate limited per IP.
   */
  identify(request: FastifyRequest): Promise<void>;
  /** onRequest hook of routes for signed-in users only: as `identify`, but no credentials is a 401. */
  requireAccount(request: FastifyRequest): Promise<void>;
  /** onRequest hook of reads open to visitors: credentials are used when sent, and their absence is not limited. */
  identifyIfSignedIn(request: FastifyRequest): Promise<void>;
  /** The owner behind a signature made with their API key (signed image URLs); 403 when it does not match. */
  verifySignature(userId: string, message: string, signature: string): Promise<AccountCaller>;
  /**
   * Renders for `request.caller`: an account reserves one credit first and is charged only for an image.
   * `payload` may be the promise of one still being built (a template being filled): the credit is then
   * reserved meanwhile, and released if building fails.
   */
  renderBilled<K extends RenderKind>(
    request: FastifyRequest,
    kind: K,
    payload: RenderPayload<K> | Promise<RenderPayload<K>>,
    options?: BilledRenderOptions,
  ): Promise<RenderOutcome>;
}

export interface BilledRenderOptions {
  /**
   * Whether the caller hanging up ends the render (true by default): a job not yet started leaves the queue
   * and nothing is charged. False for a render other requests wait on too (the signed image URL's).
   */
  endsWithClient?: boolean;
}

declare module 'fastify' {
  interface FastifyInstance {
    accountClient: AccountClient;
  }
  interface FastifyRequest {
    /** Set by `identify`; null on routes that do not use it. */
    caller: Caller | null;
  }
}

export interface AccountPluginOptions {
  authServiceUrl: string;
  internalToken?: string;
  timeoutMs: number;
  anonRateLimitPerMinute: number;
  /** Redis key prefix of the shared anonymous-limit buckets (the queue prefix). */
  keyPrefix: string;
  /** How long a verified credential is trusted without asking again. */
  cacheTtlMs?: number;
}

const API_KEY_PREFIX = 'rk_';
const DEFAULT_CACHE_TTL_MS = 30_000;
const MAX_CACHE_ENTRIES = 10_000;

const unavailable = () => new AppError('SERVICE_UNAVAILABLE', 'The account service is unavailable right now; please retry shortly');
const invalid = (what: string) => new AppError('UNAUTHORIZED', `Invalid ${what}`);

type Credential = { type: 'apiKey'; value: string } | { type: 'jwt'; value: string };

function credentialOf(request: FastifyRequest): Credential | null {
  const apiKey = request.headers['x-api-key'];
  if (typeof apiKey === 'string' && apiKey.trim()) return { type: 'apiKey', value: apiKey.trim() };
  const authorization = request.headers.authorization;
  if (!authorization) return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
  if (!match?.[1]) throw new AppError('UNAUTHORIZED', 'Authorization must be "Bearer <API key or token>"');
  const value = match[1];
  return value.startsWith(API_KEY_PREFIX) ? { type: 'apiKey', value } : { type: 'jwt', value };
}

/**
 * The gateway's view of accounts, always over HTTP to the account service (which owns users, keys and
 * the credit ledger). Bearer JWTs are checked by calling the service's /api/auth/me rather than verifying
 * locally: the gateway then needs neither JWT_SECRET nor a new dependency, and a deleted account or a
 * plan change is seen within the session cache's TTL.
 */
async function accountPlugin(app: FastifyInstance, opts: AccountPluginOptions) {
  const ttlMs = opts.cacheTtlMs ?? DEFAULT_CACHE_TTL_MS;
  // Keyed by a hash so the process never keeps raw keys or tokens as map keys (heap dumps, debug output).
  const cache = new Map<string, { caller: Caller; expiresAt: number }>();
  // The anonymous limit holds across gateway replicas (buckets in Redis). Without Redis nothing renders
  // anyway, but the check itself must not turn into a 500: each process then limits on its own.
  const anonymous = new RedisTokenBuckets(app.redis, `${opts.keyPrefix}:rl:anon`, opts.anonRateLimitPerMinute, 60_000);
  const anonymousFallback = new TokenBuckets(opts.anonRateLimitPerMinute, 60_000);
  const takeAnonymous = (ip: string) => anonymous.take(ip).catch(() => anonymousFallback.take(ip));

  async function call(path: string, init: { body?: unknown; headers?: Record<string, string>; method?: string }): Promise<Response> {
    try {
      return await fetch(new URL(path, opts.authServiceUrl), {
        method: init.method ?? 'POST',
        headers: {
          ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
          ...(opts.internalToken ? { 'x-internal-token': opts.internalToken } : {}),
          ...init.headers,
        },
        body: init.body === undefined ? undefined : JSON.stringify(init.body),
        signal: AbortSignal.timeout(opts.timeoutMs),
      });
    } catch {
      throw unavailable();
    }
  }

  async function resolve(credential: Credential): Promise<Caller> {
    if (credential.type === 'apiKey') {
      const res = await call('/internal/api-keys/verify', { body: { apiKey: credential.value } });
      // 400 is the verify schema refusing the key's shape (e.g. too long): still just a wrong key.
      if (res.status === 401 || res.status === 400) throw invalid('API key');
      if (!res.ok) throw unavailable();
      const owner = (await res.json()) as { userId: string; role: 'user' | 'admin'; plan: 'free' | 'pro' };
      return { kind: 'account', userId: owner.userId, role: owner.role, plan: owner.plan };
    }
    const res = await call('/api/auth/me', { method: 'GET', headers: { authorization: `Bearer ${credential.value}` } });
    if (res.status === 401) throw invalid('or expired token');
    if (!res.ok) throw unavailable();
    const { user } = (await res.json()) as { user: { id: string; accountType: string; plan: 'free' | 'pro' } };
    return { kind: 'account', userId: user.id, role: user.accountType === 'administrator' ? 'admin' : 'user', plan: user.plan };
  }

  /** The caller behind the request's credentials, or null when it sends none. */
  async function authenticated(request: FastifyRequest): Promise<Caller | null> {
    const credential = credentialOf(request);
    if (!credential) return null;
    // Without the token no credit can be reserved, so an authenticated call cannot be served correctly.
    if (!opts.internalToken) throw unavailable();
    // API keys are verified on every call: a regenerated key must stop working at once, and the call is
    // one small request next to the credit reservation that follows anyway. Session tokens stay valid until
    // they expire whatever we do, so their lookups are cached briefly.
    if (credential.type === 'apiKey') return resolve(credential);
    const key = createHash('sha256').update(`${credential.type}:${credential.value}`).digest('hex');
    const now = Date.now();
    const hit = cache.get(key);
    if (hit && hit.expiresAt > now) return hit.caller;
    const caller = await resolve(credential);
    if (cache.size >= MAX_CACHE_ENTRIES) {
      for (const [k, entry] of cache) if (entry.expiresAt <= now) cache.delete(k);
      if (cache.size >= MAX_CACHE_ENTRIES) cache.clear();
    }
    // Only successes are cached: a wrong key is re-checked each time, so a key created a moment ago works at once.
    cache.set(key, { caller, expiresAt: now + ttlMs });
    return caller;
  }

  async function identify(request: FastifyRequest): Promise<void> {
    const caller = await authenticated(request);
    if (!caller && !(await takeAnonymous(request.ip))) {
      throw new AppError(
        'RATE_LIMITED',
        `Too many conversions without an API key: anonymous use is limited to ${opts.anonRateLimitPerMinute} per minute. Sign up for a free API key or retry in a minute.`,
      );
    }
    request.caller = caller ?? { kind: 'anonymous' };
  }

  async function requireAccount(request: FastifyRequest): Promise<void> {
    const caller = await authenticated(request);
    if (!caller) throw new AppError('UNAUTHORIZED', 'Please sign in (Bearer token) or send your API key');
    request.caller = caller;
  }

  async function identifyIfSignedIn(request: FastifyRequest): Promise<void> {
    request.caller = (await authenticated(request)) ?? { kind: 'anonymous' };
  }

  async function verifySignature(userId: string, message: string, signature: string): Promise<AccountCaller> {
    if (!opts.internalToken) throw unavailable();
    const res = await call('/internal/api-keys/verify-signature', { body: { userId, message, signature } });
    // 400: not even shaped like a signature.
    if (res.status === 403 || res.status === 400) throw new AppError('FORBIDDEN', 'Invalid or missing signature (sig)');
    if (!res.ok) throw unavailable();
    const owner = (await res.json()) as { userId: string; role: 'user' | 'admin'; plan: 'free' | 'pro' };
    return { kind: 'account', userId: owner.userId, role: owner.role, plan: owner.plan };
  }

  async function reserve(userId: string, requestId: string): Promise<void> {
    const res = await call('/internal/credits/reserve', { body: { userId, requestId } });
    if (res.ok) return;
    if (res.status === 402) {
      const body = (await res.json().catch(() => ({}))) as { message?: string };
      throw new AppError('PAYMENT_REQUIRED', body.message ?? 'You have no credits left for this window');
    }
    // 404: the account was deleted after its key was cached.
    if (res.status === 404) throw invalid('API key');
    throw unavailable();
  }

  async function settle(requestId: string, outcome: 'charged' | 'released'): Promise<void> {
    try {
      const res = await call('/internal/credits/settle', { body: { requestId, outcome } });
      if (!res.ok) throw new Error(`status ${res.status}`);
    } catch (err) {
      // The answer to the client does not depend on this. The row stays 'reserved', which counts like a
      // charge; settle is idempotent, so a later reconciliation can finish it.
      app.log.warn({ requestId, outcome, err: (err as Error).message }, 'credit settle failed; reservation left as reserved');
    }
  }

  // Charges settled after their answer was sent; a closing gateway waits for them.
  const settling = new Set<Promise<void>>();

  async function renderBilled<K extends RenderKind>(
    request: FastifyRequest,
    kind: K,
    payload: RenderPayload<K> | Promise<RenderPayload<K>>,
    options: BilledRenderOptions = {},
  ): Promise<RenderOutcome> {
    const caller = request.caller;
    // A billable route without the identify hook would render for free and unlimited: fail loudly instead.
    if (!caller) throw new AppError('INTERNAL_ERROR', 'Caller was not identified');
    const client = options.endsWithClient === false ? null : watchClient(request);
    try {
      return await renderFor(caller, kind, payload, client?.signal);
    } finally {
      client?.dispose();
    }
  }

  async function renderFor<K extends RenderKind>(
    caller: Caller,
    kind: K,
    payload: RenderPayload<K> | Promise<RenderPayload<K>>,
    signal: AbortSignal | undefined,
  ): Promise<RenderOutcome> {
    if (caller.kind === 'anonymous') return app.renderQueue.render(kind, await payload, { signal });
    // The job id doubles as the ledger's requestId, so a job retried by BullMQ is still one credit.
    const jobId = randomUUID();
    const reservation = reserve(caller.userId, jobId);
    // A limited account renders only once its credit is reserved. An unlimited one (Pro, admin) has no
    // limit to enforce first: its reservation only records the use, so it runs alongside the render, and
    // should it still be refused (a plan changed within the identity cache's TTL) the image is withheld.
    const limited = caller.plan !== 'pro' && caller.role !== 'admin';
    const rendering = (async () => {
      const built = await payload;
      if (limited) await reservation;
      return app.renderQueue.render(kind, built, { jobId, signal });
    })();
    const [rendered, reserved] = await Promise.allSettled([rendering, reservation]);
    // An image the caller hung up before receiving was not delivered, so it is not charged.
    if (rendered.status === 'fulfilled' && signal?.aborted) {
      if (reserved.status === 'fulfilled') await settle(jobId, 'released');
      throw signal.reason;
    }
    if (rendered.status === 'fulfilled' && reserved.status === 'fulfilled') {
      // A reserved credit already counts as used, so usage read right after the answer is the same either
      // way: the charge is settled after the answer instead of before it (one round trip less).
      const pending = settle(jobId, 'charged').finally(() => settling.delete(pending));
      settling.add(pending);
      return rendered.value;
    }
    // Awaited, so that usage read right after a failure already shows the credit back.
    if (reserved.status === 'fulfilled') await settle(jobId, 'released');
    // What is wrong with the request itself (an unknown template, a bad variable) or its render comes
    // first; a limited account's refused reservation is also how its render failed.
    throw rendered.status === 'rejected' ? rendered.reason : (reserved as PromiseRejectedResult).reason;
  }

  app.decorateRequest('caller', null);
  app.decorate('accountClient', { identify, requireAccount, identifyIfSignedIn, verifySignature, renderBilled });
  app.addHook('onClose', async () => {
    await Promise.all(settling);
    cache.clear();
  });
}

export default fp(accountPlugin, { name: 'account', dependencies: ['redis', 'render-queue'], fastify: '5.x' });
