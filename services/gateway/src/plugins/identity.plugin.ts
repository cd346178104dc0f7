import { createHash, randomUUID } from 'node:crypto';
import { type ApiKeyOwnerResponse, AppError } from '@render/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { KeyLeases } from '../billing/key-leases.ts';
import { clientGoneError } from '../http/client-gone.ts';
import { type CreditStanding, limitsOf } from './limit-headers.plugin.ts';

export type AccountCaller = { kind: 'account'; userId: string; role: 'user' | 'admin'; plan: 'free' | 'pro' };
export type Caller = { kind: 'anonymous' } | AccountCaller;

export interface Identity {
  /**
   * onRequest hook of billable routes: resolves the credentials (API key or Bearer token) into
   * `request.caller`, 401 when they are wrong, 503 when the account service cannot tell; no credentials
   * means anonymous, which is rate limited per IP. An API key is verified by reserving the call's credit
   * (`request.reservation`), one call to the account service for both.
   */
  identify(request: FastifyRequest): Promise<void>;
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
    /** The credit reserved while the caller's API key was verified (billable routes); see `credits`. */
    reservation: PreparedReservation | null;
    /** The SHA-256 of the API key a billable call came with, while it counts as in flight for its leases. */
    leaseKey: string | null;
  }
}

/** How a prepared reservation ended; the error (401, 402, 503) is what the call answers if it decides it. */
export type ReservationOutcome = { reserved: true } | { reserved: false; error: Error };

/**
 * A credit reserved in onRequest, under the id the render's job will have. Whoever settles it claims it
 * first: the render (`credits`), or, for a call answered before its handler ran (a 400 body), the release.
 */
export interface PreparedReservation {
  requestId: string;
  /** Never rejects. Known by the time the handler runs, unless `ahead`. */
  outcome: Promise<ReservationOutcome>;
  /**
   * The render may start before `outcome` is known: the key was verified moments ago and its account has no
   * limit, or credits to spare. The outcome still decides whether the image is delivered.
   */
  ahead: boolean;
  claimed: boolean;
}

export interface IdentityPluginOptions {
  /** How long a verified session token is trusted without asking again. */
  cacheTtlMs?: number;
  /** How long credits leased ahead for an API key are kept unused before they are given back. */
  leaseTtlMs?: number;
  /** Renders a second from which a key calling one at a time leases ahead (0: never). */
  leaseSteadyPerSecond?: number;
}

const API_KEY_PREFIX = 'rk_';
const DEFAULT_CACHE_TTL_MS = 30_000;
const MAX_CACHE_ENTRIES = 10_000;
/** A key verified this recently may have its render started alongside its verification… */
const KEY_HINT_TTL_MS = 30_000;
/** …if its account had no limit or at least this many credits left (more calls than this in flight may waste renders, never credits). */
const AHEAD_MIN_REMAINING = 10;
const DEFAULT_LEASE_TTL_MS = 5_000;
/** Most credits one reservation leases ahead for a key (twice its renders in flight, at most this). */
const MAX_SPARES = 32;
/** A key calling one at a time leases ahead from this many renders a second (a loop, not a person clicking). */
const DEFAULT_STEADY_PER_SECOND = 10;
const RESERVED: ReservationOutcome = { reserved: true };
const invalidKey = () => new AppError('UNAUTHORIZED', 'Invalid API key');
const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

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

const accountOf = (owner: ApiKeyOwnerResponse): AccountCaller => ({
  kind: 'account',
  userId: owner.userId,
  role: owner.role,
  plan: owner.plan,
});

/** Records the credits a reservation left, for the answer's X-Credits-* headers (when the service said its limit). */
function showCredits(request: FastifyRequest, standing: { remaining: number | null; limit?: number | null }): void {
  if (standing.limit === undefined) return;
  limitsOf(request).credits = { limit: standing.limit, remaining: standing.remaining } satisfies CreditStanding;
}

/**
 * Who is calling: credentials become a caller through the account service (`authClient`), session tokens
 * are cached briefly, and calls without credentials are held to the per-address limits (`anonymousLimits`).
 */
async function identityPlugin(app: FastifyInstance, opts: IdentityPluginOptions) {
  const { authClient, accountChanges } = app;
  const sessions = new SessionCache(opts.cacheTtlMs ?? DEFAULT_CACHE_TTL_MS);
  const keys = new KeyHints(KEY_HINT_TTL_MS);
  const leases = new KeyLeases<AccountCaller>({
    ttlMs: opts.leaseTtlMs ?? DEFAULT_LEASE_TTL_MS,
    maxSpares: MAX_SPARES,
    steadyPerSecond: opts.leaseSteadyPerSecond ?? DEFAULT_STEADY_PER_SECOND,
    giveBack: (requestIds) => authClient.releaseLater(requestIds),
  });
  // A changed account anywhere (a regenerated key, a new plan) ends every lease here at once; so does a
  // dropped subscription, after which nothing is leased until it is back (`accountChanges.live`).
  accountChanges.onChange(() => {
    leases.invalidate();
    keys.clear();
  });
  const sweep = setInterval(() => leases.sweep(), 1_000).unref();

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
   * Verifies an API key by reserving the render's credit for its owner: one call for both. A key verified
   * moments ago whose account can afford the call lets its render start alongside (`ahead`): the call's
   * answer still decides whether the image is delivered, so a regenerated key gets its 401 and no image.
   */
  async function reserveForKey(request: FastifyRequest, apiKey: string): Promise<AccountCaller> {
    const keyHash = sha256(apiKey);
    leases.begin(keyHash);
    request.leaseKey = keyHash;
    // Leases are used only while account changes are heard: a key regenerated meanwhile must not render.
    const leasing = accountChanges.live();
    // A change another replica published before answering its caller is already readable here when that
    // caller's next call arrives, but this turn of the event loop may run the call before the change: the
    // turn's other I/O callbacks (the change among them) run first, then the lease decides.
    if (leasing) await new Promise<void>((resolve) => setImmediate(resolve));
    let spare = leasing ? leases.take(keyHash) : undefined;
    const arriving = leasing && !spare ? leases.arriving(keyHash) : undefined;
    if (arriving) {
      await arriving;
      spare = accountChanges.live() ? leases.take(keyHash) : undefined;
    }
    if (spare) {
      // Reserved ahead for this key's account by an earlier call of the same key (see KeyLeases).
      request.reservation = { requestId: spare.requestId, outcome: Promise.resolve(RESERVED), ahead: false, claimed: false };
      showCredits(request, spare);
      return spare.caller;
    }
    const requestId = randomUUID();
    const hint = keys.get(keyHash);
    const lease = leasing ? leases.ask(keyHash, hint) : undefined;
    // The body is not read yet: the route tells the render's kind, its format comes with the settle.
    const facts = { kind: request.routeOptions.config.ledgerKind, spares: lease?.spares };
    const answer = authClient.reserveCreditForApiKey(keyHash, requestId, facts, request.id).then(
      (reserved) => {
        if (reserved) keys.set(keyHash, accountOf(reserved.owner), reserved.remaining);
        else keys.delete(keyHash);
        // Spares leased with it are credits still there until a render takes one.
        if (reserved && !reserved.refused) {
          const remaining = reserved.remaining === null ? null : reserved.remaining + reserved.spares.length;
          showCredits(request, { remaining, limit: reserved.limit });
        }
        if (lease) {
          const leased = reserved && !reserved.refused ? { caller: accountOf(reserved.owner), ...reserved } : null;
          leases.settle(keyHash, lease, leased);
        }
        return reserved;
      },
      (err: unknown) => {
        // Spares the service may have leased before the answer was lost are swept back by it later.
        if (lease) leases.settle(keyHash, lease, null);
        throw err;
      },
    );
    if (hint && (hint.remaining === null || hint.remaining >= AHEAD_MIN_REMAINING)) {
      const outcome = answer.then(
        (reserved): ReservationOutcome =>
          !reserved ? { reserved: false, error: invalidKey() } : reserved.refused ? { reserved: false, error: reserved.refused } : RESERVED,
        (err: Error): ReservationOutcome => ({ reserved: false, error: err }),
      );
      request.reservation = { requestId, outcome, ahead: true, claimed: false };
      return hint.caller;
    }
    const reserved = await answer;
    if (!reserved) throw invalidKey();
    const outcome: ReservationOutcome = reserved.refused ? { reserved: false, error: reserved.refused } : RESERVED;
    request.reservation = { requestId, outcome: Promise.resolve(outcome), ahead: false, claimed: false };
    // A caller that hung up meanwhile gets no further: the error's answer releases the credit (`credits`).
    if (request.raw.socket?.destroyed) throw clientGoneError();
    return accountOf(reserved.owner);
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
    // One thing kept about keys decides without asking: a lease (`KeyLeases`), credits reserved ahead by an
    // earlier call of the same key while several of its renders were in flight. A regenerate (or any other
    // account change forwarded by a replica) is published to every replica before it is answered, and each
    // drops its leases on hearing it; a replica whose subscription is down leases nothing. The other thing
    // (`KeyHints`) only lets a render start while the key's check runs; the check still decides whether the
    // image is delivered (401 and no image otherwise, the job dropped, nothing charged).
    if (credential.type === 'apiKey') return billed ? reserveForKey(request, credential.value) : resolve(credential, request.id);
    return sessions.resolve(credential.value, () => resolve(credential, request.id));
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
  app.decorateRequest('reservation', null);
  app.decorateRequest('leaseKey', null);
  const endLease = (request: FastifyRequest) => {
    if (!request.leaseKey) return;
    leases.end(request.leaseKey);
    request.leaseKey = null;
  };
  app.addHook('onResponse', async (request) => endLease(request));
  app.addHook('onRequestAbort', async (request) => endLease(request));
  app.decorate('identity', {
    identify,
    requireAccount,
    requireBilledAccount,
    identifyIfSignedIn,
    account,
    signatureOwner,
  } satisfies Identity);
  app.addHook('onClose', async () => {
    clearInterval(sweep);
    leases.invalidate();
    sessions.clear();
    keys.clear();
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

/**
 * API keys verified moments ago, by SHA-256 (never the key itself): whose they are and how many credits
 * their account had left. Only a hint for starting a render early: every call is still verified.
 */
class KeyHints {
  private readonly entries = new Map<string, { caller: AccountCaller; remaining: number | null; expiresAt: number }>();

  constructor(private readonly ttlMs: number) {}

  get(keyHash: string): { caller: AccountCaller; remaining: number | null } | undefined {
    const hit = this.entries.get(keyHash);
    return hit && hit.expiresAt > Date.now() ? hit : undefined;
  }

  set(keyHash: string, caller: AccountCaller, remaining: number | null) {
    const now = Date.now();
    if (this.entries.size >= MAX_CACHE_ENTRIES && !this.entries.has(keyHash)) {
      for (const [k, entry] of this.entries) if (entry.expiresAt <= now) this.entries.delete(k);
      if (this.entries.size >= MAX_CACHE_ENTRIES) this.entries.clear();
    }
    this.entries.set(keyHash, { caller, remaining, expiresAt: now + this.ttlMs });
  }

  delete(keyHash: string) {
    this.entries.delete(keyHash);
  }

  clear() {
    this.entries.clear();
  }
}

export default fp(identityPlugin, {
  name: 'identity',
  dependencies: ['auth-client', 'account-changes', 'account-limits', 'anonymous-limits', 'limit-headers'],
  fastify: '5.x',
});
