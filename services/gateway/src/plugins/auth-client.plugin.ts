import {
  type ApiKeyOwnerResponse,
  AppError,
  AuthInternalRoutes,
  CREDIT_SETTLE_BATCH_MAX,
  type CreditOutcome,
  type PlanRulesResponse,
  type RecentRenderKind,
  RenderLinkMessages,
  type RouteContract,
  ServiceError,
  type SessionIdentity,
  SessionIdentity as SessionIdentitySchema,
} from '@render/contracts';
import { Counter, INTERNAL_TOKEN_HEADER, REQUEST_ID_HEADER } from '@render/fastify-kit';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { Compile } from 'typebox/compile';
import { type Charge, type RenderFacts, SettleBatches } from '../billing/settle-batches.ts';
import { type InternalAnswer, internalClient } from '../lib/internal-client.ts';
import { checkAnswer, serviceUnavailable } from '../lib/service-fetch.ts';
import type { CreditStanding } from '../limits/request-limits.ts';

export type { RenderFacts } from '../billing/settle-batches.ts';

/** A credit reserved while an API key was verified: for whom, and whether the account's window refused it. */
export interface KeyReservation {
  owner: ApiKeyOwnerResponse;
  /** The 402 to answer if the render goes ahead; null when the credit is reserved. */
  refused: AppError | null;
  /** Credits left in the window after this one and its spares; null when the account has no limit. */
  remaining: number | null;
  /** The account's credits per window (null: no limit; undefined: the service did not say). */
  limit: number | null | undefined;
  /** The spares leased with it (see `ReserveFacts.spares`). */
  spares: string[];
}

/** A reservation made by account id: the credits left after it and the limit, as for a key's. */
export type AccountReservation = Pick<KeyReservation, 'remaining' | 'limit'>;

/** What the ledger records of a render when its credit is reserved (the format only once the body was read). */
export interface ReserveFacts {
  kind?: RecentRenderKind;
  format?: string;
  /** Request ids to lease ahead for the same account's next renders (see `KeyLeases`). */
  spares?: string[];
}

/**
 * The account service's calls the gateway makes for a caller; each answer is checked against its contract.
 * `forRequest` is the X-Request-Id of the caller's request, sent along so the service's log lines carry it.
 */
export interface AuthClient {
  /** The owner of an API key; null when the service does not know it. */
  apiKeyOwner(apiKey: string, forRequest?: string): Promise<ApiKeyOwnerResponse | null>;
  /**
   * Verifies an API key (given by its SHA-256, which is what the account service looks keys up by: the key
   * itself never leaves the gateway) and reserves one credit under `requestId` for its owner, in one call;
   * null when the key is unknown or revoked. A refusal (the window used up) still names the owner.
   */
  reserveCreditForApiKey(apiKeyHash: string, requestId: string, facts: ReserveFacts, forRequest?: string): Promise<KeyReservation | null>;
  /** The account behind a session token; null when the token is invalid or expired. */
  sessionOwner(token: string, forRequest?: string): Promise<SessionIdentity['user'] | null>;
  /** The owner behind a signature made with their API key; null when it does not match. */
  signatureOwner(userId: string, message: string, signature: string, forRequest?: string): Promise<ApiKeyOwnerResponse | null>;
  /**
   * The owner of a render link's key (the SHA-256 of their API key): its `signature` checked, or its absence
   * allowed by the account's setting; 401 for an unknown key, 403 for a wrong or missing signature.
   */
  renderLinkOwner(keyHash: string, message: string, signature: string | undefined, forRequest?: string): Promise<ApiKeyOwnerResponse>;
  /** Reserves one credit under `requestId`; 402 when the account's window is used up (its details say when one comes back). */
  reserveCredit(userId: string, requestId: string, facts: ReserveFacts, forRequest?: string): Promise<AccountReservation>;
  /**
   * Reserves a credit under each of `requests` for `userId` in one call, all or none (a batch's, up front):
   * 402 when the window has not that many left (nothing reserved; its message says how many are).
   */
  reserveCredits(
    userId: string,
    requests: readonly ({ requestId: string } & Omit<ReserveFacts, 'spares'>)[],
    forRequest?: string,
  ): Promise<AccountReservation>;
  /** Releases reservations now, in calls of at most CREDIT_SETTLE_BATCH_MAX; rejects when one was not confirmed. */
  releaseCredits(requestIds: readonly string[]): Promise<void>;
  /** Charges or releases a reservation; rejects when the service did not confirm it. */
  settleCredit(requestId: string, outcome: CreditOutcome, facts?: RenderFacts): Promise<void>;
  /**
   * Charges a reservation soon: carried by the next reservation call (settled in its statement), or sent
   * with the others of `settleBatchMs` in one call, and at the latest when the gateway closes. One the
   * service does not confirm stays reserved, counted as used, until its sweep releases it.
   */
  chargeLater(requestId: string, facts?: RenderFacts): void;
  /** Gives back unused spares soon (released, with the others of `settleBatchMs`, and at the latest on close). */
  releaseLater(requestIds: readonly string[]): void;
  /** Sends the pending charges now and waits for them: usage read next counts every answered render. */
  flushCharges(): Promise<void>;
  /** The credit rules in force (the launch period, the Free plan's credits); 503 when the service cannot say. */
  planRules(): Promise<PlanRulesResponse>;
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
  /** How long a charge waits for a reservation call to carry it before it is sent on its own (with others). */
  settleBatchMs: number;
}

const SERVICE = 'account service';
const { verifyApiKey, verifySignature, reserveCredit, reserveCredits, settleCredit, settleCredits, planRules } = AuthInternalRoutes;
const renderLinkOwnerRoute = AuthInternalRoutes.renderLinkOwner;
// Compiled once: the checks run on every authenticated call.
const ownerAnswer = Compile(verifyApiKey.schema.response[200]);
const reservedAnswer = Compile(reserveCredit.schema.response[200]);
const refusedAnswer = Compile(reserveCredit.schema.response[402]);
const reservedManyAnswer = Compile(reserveCredits.schema.response[200]);
const sessionAnswer = Compile(SessionIdentitySchema);
const rulesAnswer = Compile(planRules.schema.response[200]);
const errorAnswer = Compile(ServiceError);
/**
 * The 402 of a used-up window, with the service's message (it says when a credit comes back) and, in its
 * details, the standing the answer's X-Credits-* headers show (`creditsOfRefusal`).
 */
function paymentRequired(body: unknown): AppError {
  const refusal = refusedAnswer.Check(body) ? body : undefined;
  const message = errorAnswer.Check(body) ? body.message : 'You have no credits left for this window';
  const credits: CreditStanding | undefined =
    refusal?.limit === undefined
      ? undefined
      : { limit: refusal.limit, remaining: 0, ...(refusal.resetsAt ? { resetsAt: refusal.resetsAt } : {}) };
  return new AppError('PAYMENT_REQUIRED', message, credits ? { credits } : undefined);
}

/** A render link's owner, or the 401 (unknown key) or 403 (wrong or missing sig) the link answers. */
function renderLinkOwnerOf(res: InternalAnswer): ApiKeyOwnerResponse {
  if (res.status === 200) return checkAnswer(res.json(), ownerAnswer, SERVICE);
  if (res.status === 401) throw new AppError('UNAUTHORIZED', RenderLinkMessages.keyUnknown);
  if (res.status === 403) {
    const body = res.json();
    const signedOnly = errorAnswer.Check(body) && body.message === RenderLinkMessages.signedOnly;
    throw new AppError('FORBIDDEN', signedOnly ? RenderLinkMessages.signedOnly : RenderLinkMessages.signatureInvalid);
  }
  throw serviceUnavailable(SERVICE);
}

/** A key's reservation answer: the owner and credits left, the 402 the render answers, or null for an unknown key. */
function keyReservationOf(res: InternalAnswer): KeyReservation | null {
  if (res.status === 200) {
    const answer = checkAnswer(res.json(), reservedAnswer, SERVICE);
    const { userId, role, plan, keyId, scope, expiresAt, remaining, limit } = answer;
    const owner = { userId, role, plan, ...(keyId ? { keyId } : {}), ...(scope ? { scope } : {}), ...(expiresAt ? { expiresAt } : {}) };
    return { owner, refused: null, remaining, limit, spares: answer.spares ?? [] };
  }
  if (res.status === 402) {
    const body = checkAnswer(res.json(), refusedAnswer, SERVICE);
    if (!body.owner) throw serviceUnavailable(SERVICE);
    return { owner: body.owner, refused: paymentRequired(body), remaining: 0, limit: body.limit, spares: [] };
  }
  if (res.status === 401) return null;
  throw serviceUnavailable(SERVICE);
}

/** A reservation by account id: the credits left, or the 402 of a used-up window (401 for an account gone). */
function accountReservationOf(res: InternalAnswer, many = false): AccountReservation {
  if (res.status === 200) {
    const { remaining, limit } = many
      ? checkAnswer(res.json(), reservedManyAnswer, SERVICE)
      : checkAnswer(res.json(), reservedAnswer, SERVICE);
    return { remaining, limit };
  }
  if (res.status === 402) throw paymentRequired(res.json());
  // 404: the account was deleted after its credentials were cached.
  if (res.status === 404) throw new AppError('UNAUTHORIZED', 'Invalid API key');
  throw serviceUnavailable(SERVICE);
}

// Each credit whose settle the account service did not take (a batch counts each of its credits): charges are
// retried, and what stays unsettled is 'reserved' until the service's sweep. The CreditsSettleFailing alert
// (infra/k8s/base/alerts.yaml) reads it.
const settleFailuresCounter = (app: FastifyInstance) =>
  new Counter({
    name: 'credits_settle_failures_total',
    help: 'Credits whose settle (charge or release) the account service did not take; charges are retried',
    labelNames: ['outcome'] as const,
    registers: [app.metrics],
  });

/** The settle batches of the ledger's charges and releases (see `SettleBatches`), their failures counted. */
function settleBatches(
  app: FastifyInstance,
  settleFailures: Counter<'outcome'>,
  batchMs: number,
  send: (requestIds: readonly (string | Charge)[], outcome: CreditOutcome) => Promise<InternalAnswer>,
): SettleBatches {
  return new SettleBatches({
    batchMs,
    send: async (requestIds, outcome) => {
      const res = await send(requestIds, outcome);
      if (res.status !== 200) throw new Error(`status ${res.status}`);
    },
    failed: (count, outcome, err, retry) => {
      settleFailures.inc({ outcome }, count);
      app.log.warn({ count, outcome, err: err.message, retry }, 'credit settle failed');
    },
  });
}

type Post = (route: RouteContract<'POST'>, body: unknown, forRequest?: string) => Promise<InternalAnswer>;

/**
 * A reservation call, carrying the pending charges. The service settles them in the statement it runs for
 * any answer it gives; if none comes they wait for the next call (settling is idempotent).
 */
function reservationCaller(post: Post, batches: ReturnType<typeof settleBatches>) {
  return async function reservationCall(
    body: Record<string, unknown>,
    forRequest: string | undefined,
    route: RouteContract<'POST'> = reserveCredit,
  ): Promise<InternalAnswer> {
    const charged = batches.takeCharges();
    try {
      const res = await post(route, charged ? { ...body, charged } : body, forRequest);
      if (charged && res.status !== 200 && res.status !== 401 && res.status !== 402 && res.status !== 404) batches.requeue(charged);
      return res;
    } catch (err) {
      if (charged) batches.requeue(charged);
      throw err;
    }
  };
}

/** The settling calls made at once rather than batched (a batch's releases, a single settle); failures counted. */
function immediateSettles(post: Post, settleFailures: ReturnType<typeof settleFailuresCounter>) {
  async function releaseNow(requestIds: readonly string[]): Promise<void> {
    for (let first = 0; first < requestIds.length; first += CREDIT_SETTLE_BATCH_MAX) {
      const chunk = requestIds.slice(first, first + CREDIT_SETTLE_BATCH_MAX);
      const res = await post(settleCredits, { requestIds: chunk, outcome: 'released' }).catch((err: Error) => {
        settleFailures.inc({ outcome: 'released' }, chunk.length);
        throw err;
      });
      if (res.status !== 200) {
        settleFailures.inc({ outcome: 'released' }, chunk.length);
        throw new Error(`status ${res.status}`);
      }
    }
  }

  async function settle(requestId: string, outcome: CreditOutcome, facts: RenderFacts = {}) {
    const res = await post(settleCredit, { requestId, outcome, ...facts }).catch((err: Error) => {
      settleFailures.inc({ outcome });
      throw err;
    });
    if (res.status !== 200) {
      settleFailures.inc({ outcome });
      throw new Error(`status ${res.status}`);
    }
  }

  return { releaseNow, settle };
}

/**
 * The gateway's HTTP client of the account service, which owns users, keys and the credit ledger. Every
 * call carries the internal token (set here, in one place); without the token no credit can be reserved, so
 * no call is made at all and credentialed requests get a 503. Bearer JWTs are checked by calling
 * /api/auth/me rather than verified locally: the gateway then needs no JWT_SECRET, and a deleted account or
 * a plan change is seen within the identity cache's TTL. Calls go over a keep-alive pool (`internalClient`).
 */
async function authClientPlugin(app: FastifyInstance, opts: AuthClientOptions) {
  const unavailable = () => serviceUnavailable(SERVICE);
  const client = opts.internalToken
    ? internalClient({
        baseUrl: opts.baseUrl,
        timeoutMs: opts.timeoutMs,
        serviceName: SERVICE,
        headers: { [INTERNAL_TOKEN_HEADER]: opts.internalToken },
      })
    : null;

  async function call(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<InternalAnswer> {
    if (!client) throw unavailable();
    return client.request(method, path, body, headers);
  }
  const traced = (forRequest: string | undefined) => (forRequest ? { [REQUEST_ID_HEADER]: forRequest } : undefined);
  const post = (route: RouteContract<'POST'>, body: unknown, forRequest?: string) =>
    call(route.method, route.url, body, traced(forRequest));

  async function apiKeyOwner(apiKey: string, forRequest?: string) {
    const res = await post(verifyApiKey, { apiKey }, forRequest);
    // 400 is the verify schema refusing the key's shape (e.g. too long): still just a wrong key.
    if (res.status === 401 || res.status === 400) return null;
    if (res.status !== 200) throw unavailable();
    return checkAnswer(res.json(), ownerAnswer, SERVICE);
  }

  const settleFailures = settleFailuresCounter(app);
  // Charges waiting to be carried by a reservation call or sent together, and spares given back.
  const batches = settleBatches(app, settleFailures, opts.settleBatchMs, (requestIds, outcome) =>
    post(settleCredits, { requestIds, outcome }),
  );

  const reservationCall = reservationCaller(post, batches);

  // The charges still pending go out before the pooled connections are closed.
  app.addHook('onClose', async () => {
    await batches.close();
    client?.close();
  });

  async function reserveCreditForApiKey(
    apiKeyHash: string,
    requestId: string,
    facts: ReserveFacts,
    forRequest?: string,
  ): Promise<KeyReservation | null> {
    const { spares, ...known } = facts;
    const res = await reservationCall({ apiKeyHash, requestId, ...known, ...(spares?.length ? { spares } : {}) }, forRequest);
    return keyReservationOf(res);
  }

  async function sessionOwner(token: string, forRequest?: string) {
    const res = await call('GET', '/api/auth/me', undefined, { authorization: `Bearer ${token}`, ...traced(forRequest) });
    if (res.status === 401) return null;
    if (res.status !== 200) throw unavailable();
    return checkAnswer(res.json(), sessionAnswer, SERVICE).user;
  }

  async function signatureOwner(userId: string, message: string, signature: string, forRequest?: string) {
    const res = await post(verifySignature, { userId, message, signature }, forRequest);
    // 400: not even shaped like a signature.
    if (res.status === 403 || res.status === 400) return null;
    if (res.status !== 200) throw unavailable();
    return checkAnswer(res.json(), ownerAnswer, SERVICE);
  }

  async function reserve(userId: string, requestId: string, facts: ReserveFacts, forRequest?: string): Promise<AccountReservation> {
    return accountReservationOf(await reservationCall({ userId, requestId, ...facts }, forRequest));
  }

  async function reserveMany(
    userId: string,
    requests: readonly ({ requestId: string } & Omit<ReserveFacts, 'spares'>)[],
    forRequest?: string,
  ): Promise<AccountReservation> {
    const res = await reservationCall({ userId, requests }, forRequest, reserveCredits);
    return accountReservationOf(res, true);
  }

  const { releaseNow, settle } = immediateSettles(post, settleFailures);

  async function rules(): Promise<PlanRulesResponse> {
    const res = await call(planRules.method, planRules.url);
    if (res.status !== 200) throw unavailable();
    return checkAnswer(res.json(), rulesAnswer, SERVICE);
  }

  app.decorate('authClient', {
    planRules: rules,
    apiKeyOwner,
    reserveCreditForApiKey,
    sessionOwner,
    signatureOwner,
    renderLinkOwner: async (keyHash, message, signature, forRequest) =>
      renderLinkOwnerOf(await post(renderLinkOwnerRoute, { keyHash, message, ...(signature ? { signature } : {}) }, forRequest)),
    reserveCredit: reserve,
    reserveCredits: reserveMany,
    releaseCredits: releaseNow,
    settleCredit: settle,
    chargeLater: (requestId, facts) => batches.chargeLater(requestId, facts),
    releaseLater: (requestIds) => batches.releaseLater(requestIds),
    // The ones sent a moment ago count too: wait for every settle under way.
    flushCharges: () => batches.settled(),
  } satisfies AuthClient);
}

export default fp(authClientPlugin, { name: 'auth-client', dependencies: ['metrics'], fastify: '5.x' });
