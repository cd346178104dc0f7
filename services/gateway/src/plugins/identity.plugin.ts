import { createHash } from 'node:crypto';
import { ApiKeyMessages, AppError, keyScopeAt, scopeAllows } from '@render/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { type AccountCaller, accountOf, type Caller } from '../identity/caller.ts';
import { limitsOf } from '../limits/request-limits.ts';

export type { AccountCaller, Caller } from '../identity/caller.ts';

export interface Identity {
  /**
   * onRequest hook of billable routes: resolves the credentials (API key or Bearer token) into
   * `request.caller`, 401 when they are wrong, 503 when the account service cannot tell; no credentials
   * means anonymous, which is rate limited per IP. An API key is verified by reserving the call's credit
   * (`credits.reserveForKey`), one call to the account service for both.
   */
  identify(request: FastifyRequest): Promise<void>;
  /**
   * onRequest hook of calls open to anyone that render nothing (`POST /chart/create`): credentials are verified
   * (401 when wrong) but nothing is reserved; without them, the per-address limits take one unit, as a render's
   * first one.
   */
  identifyUnbilled(request: FastifyRequest): Promise<void>;
  /** onRequest hook of routes for signed-in users only: as `identify`, but no credentials is a 401. */
  requireAccount(request: FastifyRequest): Promise<void>;
  /** `requireAccount` for billable routes: an API key is verified by reserving the call's credit, as in `identify`. */
  requireBilledAccount(request: FastifyRequest): Promise<void>;
  /** onRequest hook of reads open to visitors: credentials are used when sent, and their absence is not limited. */
  identifyIfSignedIn(request: FastifyRequest): Promise<void>;
  /** The caller of a route behind `requireAccount`. */
  account(request: FastifyRequest): AccountCaller;
  /** The owner behind a signature made with their API key (signed image URLs); 403 when it does not match. */
  signatureOwner(userId: string, message: string, signature: string, forRequest?: string): Promise<AccountCaller>;
}

declare module 'fastify' {
  interface FastifyInstance {
    identity: Identity;
  }
  interface FastifyRequest {
    /** Set by the identity hooks; null on routes that use none. */
    caller: Caller | null;
  }
}

export interface IdentityPluginOptions {
  /** How long a verified session token is trusted without asking again. */
  cacheTtlMs?: number;
}

const API_KEY_PREFIX = 'rk_';
const DEFAULT_CACHE_TTL_MS = 30_000;
const MAX_CACHE_ENTRIES = 10_000;

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
 * Who is calling: credentials become a caller through the account service (`authClient`), session tokens
 * are cached briefly, and calls without credentials are held to the per-address limits (`anonymousLimits`).
 * On a billable call an API key is verified by the credit's reservation (`credits.reserveForKey`).
 */
async function identityPlugin(app: FastifyInstance, opts: IdentityPluginOptions) {
  const { authClient, credits } = app;
  const sessions = new SessionCache(opts.cacheTtlMs ?? DEFAULT_CACHE_TTL_MS);

  async function resolve(credential: Credential, forRequest: string): Promise<AccountCaller> {
    if (credential.type === 'apiKey') {
      const owner = await authClient.apiKeyOwner(credential.value, forRequest);
      if (!owner) throw new AppError('UNAUTHORIZED', 'Invalid API key');
      return accountOf(owner);
    }
    const user = await authClient.sessionOwner(credential.value, forRequest);
    if (!user) throw new AppError('UNAUTHORIZED', 'Invalid or expired token');
    return { kind: 'account', userId: user.id, role: user.accountType === 'administrator' ? 'admin' : 'user', plan: user.plan };
  }

  /**
   * The caller behind the request's credentials, or null when it sends none. On a billable route an API key
   * is verified by reserving the call's credit.
   */
  async function authenticated(request: FastifyRequest, billed = false): Promise<AccountCaller | null> {
    const credential = credentialOf(request);
    if (!credential) return null;
    // API keys are verified on every call: a regenerated key must stop working at once, and on a billable
    // route the verification is the credit reservation itself. Session tokens stay valid until they expire
    // whatever we do, so their lookups are cached briefly.
    //
    // (What billing keeps about keys to spare most of those calls their wait: `KeyReservations`.)
    if (credential.type === 'apiKey') {
      const caller = billed ? await credits.reserveForKey(request, credential.value) : await resolve(credential, request.id);
      allowedByScope(request, caller);
      return caller;
    }
    return sessions.resolve(credential.value, () => resolve(credential, request.id));
  }

  /**
   * A named key calls only what its scope allows (contracts' `keyScopeAt`): 403 otherwise. On a billed call the
   * credit was reserved by then: the 403 answer releases it, as any error's does (`BilledRenders`).
   */
  function allowedByScope(request: FastifyRequest, caller: AccountCaller): void {
    if (!caller.key) return;
    if (!scopeAllows(caller.key.scope, keyScopeAt(request.method, request.routeOptions.url))) {
      throw new AppError('FORBIDDEN', ApiKeyMessages.scopeTooNarrow);
    }
  }

  /**
   * A billed call's caller: an account's credits and renders-in-flight limit go on its answer (the caller
   * sent that account's credentials); without credentials, the per-address limits (`anonymousLimits`) apply,
   * before the body is even read.
   */
  async function billedCaller(request: FastifyRequest): Promise<AccountCaller | null> {
    if (credentialOf(request)) limitsOf(request).ownCredits = true;
    const caller = await authenticated(request, true);
    if (!caller) await app.anonymousLimits.admit(request);
    else if (caller.role !== 'admin') {
      const { accountLimits } = app;
      limitsOf(request).concurrency = {
        name: `${caller.plan}-in-flight`,
        quota: accountLimits.limitOf(caller.plan),
        inUse: () => accountLimits.inFlight(caller.userId),
      };
    }
    return caller;
  }

  async function identify(request: FastifyRequest): Promise<void> {
    request.caller = (await billedCaller(request)) ?? { kind: 'anonymous' };
  }

  async function identifyUnbilled(request: FastifyRequest): Promise<void> {
    const caller = await authenticated(request);
    if (!caller) await app.anonymousLimits.admit(request);
    request.caller = caller ?? { kind: 'anonymous' };
  }

  async function requireAccount(request: FastifyRequest): Promise<void> {
    const caller = await authenticated(request);
    if (!caller) throw new AppError('UNAUTHORIZED', 'Please sign in (Bearer token) or send your API key');
    request.caller = caller;
  }

  async function requireBilledAccount(request: FastifyRequest): Promise<void> {
    if (!credentialOf(request)) throw new AppError('UNAUTHORIZED', 'Please sign in (Bearer token) or send your API key');
    const caller = await billedCaller(request);
    if (!caller) throw new AppError('UNAUTHORIZED', 'Please sign in (Bearer token) or send your API key');
    request.caller = caller;
  }

  async function identifyIfSignedIn(request: FastifyRequest): Promise<void> {
    request.caller = (await authenticated(request)) ?? { kind: 'anonymous' };
  }

  function account(request: FastifyRequest): AccountCaller {
    // A signed-in route without the requireAccount hook would act for nobody: fail loudly instead.
    if (request.caller?.kind !== 'account') throw new AppError('INTERNAL_ERROR', 'Caller was not identified');
    return request.caller;
  }

  async function signatureOwner(userId: string, message: string, signature: string, forRequest?: string): Promise<AccountCaller> {
    const owner = await authClient.signatureOwner(userId, message, signature, forRequest);
    if (!owner) throw new AppError('FORBIDDEN', 'Invalid or missing signature (sig)');
    return accountOf(owner);
  }

  app.decorateRequest('caller', null);
  app.decorate('identity', {
    identify,
    identifyUnbilled,
    requireAccount,
    requireBilledAccount,
    identifyIfSignedIn,
    account,
    signatureOwner,
  } satisfies Identity);
  app.addHook('onClose', async () => {
    sessions.clear();
  });
}

/**
 * Callers behind session tokens, for a short TTL. Keyed by a hash so the process never keeps raw tokens as
 * map keys (heap dumps, debug output). Only successes are cached: a wrong token is re-checked each time.
 */
class SessionCache {
  private readonly entries = new Map<string, { caller: AccountCaller; expiresAt: number }>();

  constructor(private readonly ttlMs: number) {}

  /** The cached caller of `token`, or the one `lookup` finds (then cached). */
  async resolve(token: string, lookup: () => Promise<AccountCaller>): Promise<AccountCaller> {
    const key = createHash('sha256').update(`jwt:${token}`).digest('hex');
    const hit = this.entries.get(key);
    if (hit && hit.expiresAt > Date.now()) return hit.caller;
    const caller = await lookup();
    const now = Date.now();
    if (this.entries.size >= MAX_CACHE_ENTRIES) {
      for (const [k, entry] of this.entries) if (entry.expiresAt <= now) this.entries.delete(k);
      if (this.entries.size >= MAX_CACHE_ENTRIES) this.entries.clear();
    }
    this.entries.set(key, { caller, expiresAt: now + this.ttlMs });
    return caller;
  }

  clear() {
    this.entries.clear();
  }
}

export default fp(identityPlugin, {
  name: 'identity',
  dependencies: ['auth-client', 'credits', 'account-limits', 'anonymous-limits', 'limit-headers'],
  fastify: '5.x',
});
