import { randomUUID } from 'node:crypto';
import { AppError, type CreditOutcome, type RecentRenderKind } from '@render/contracts';
import type { RenderKind, RenderPayload } from '@render/queue';
import type { FastifyRequest } from 'fastify';
import { watchClient } from '../http/client-gone.ts';
import type { AccountCaller } from '../identity/caller.ts';
import { callerId } from '../identity/caller-id.ts';
import { creditsOfRefusal, limitsOf } from '../limits/request-limits.ts';
import type { AnonymousLimits } from '../plugins/anonymous-limits.plugin.ts';
import type { AuthClient, RenderFacts, ReserveFacts } from '../plugins/auth-client.plugin.ts';
import type { RenderOutcome, RenderQueueClient } from '../plugins/render-queue.plugin.ts';
import { creditsOf, extraCreditIds, reserveExtraCredits } from './render-credits.ts';
import type { PreparedReservation } from './request-billing.ts';

export interface BilledRenderOptions {
  /**
   * Whether the caller hanging up ends the render (true by default): a job not yet started leaves the queue
   * and nothing is charged. False for a render other requests wait on too (the signed image URL's).
   */
  endsWithClient?: boolean;
  /**
   * The caller already holds the account's in-flight slot for this render and gives it back itself (an async
   * render takes it when submitted, so an account at its limit gets its 429 then, not a failed render later).
   */
  slotHeld?: boolean;
}

export interface BilledRendersOptions {
  /** The ledger's calls (the account service's). */
  authClient: Pick<AuthClient, 'reserveCredit' | 'settleCredit' | 'chargeLater'>;
  renderQueue: Pick<RenderQueueClient, 'render'>;
  /** The per-address limits of callers without credentials (and of a Free account's fallback). */
  anonymousLimits: Pick<AnonymousLimits, 'admit' | 'begin'>;
  /** Counts a charged credit (the metrics' `credits_charged_total`). */
  charged(format: string): void;
  /** Says a settle the account service did not confirm. */
  warn(fields: Record<string, unknown>, message: string): void;
}

/** How an account's render is run (see `renderForAccount`). */
interface AccountRender {
  /** The X-Request-Id of the call the render is for (the account service's and the worker's logs carry it). */
  forRequest: string;
  signal: AbortSignal | undefined;
  prepared: PreparedReservation | null;
  facts: ReserveFacts;
  slotHeld: boolean;
  /** Where the credits a reservation made here leaves go (the answer's X-Credits-* headers). */
  request: FastifyRequest;
}

type Payload<K extends RenderKind> = RenderPayload<K> | Promise<RenderPayload<K>>;

/** The route's kind in the ledger (see `ledgerKind`). */
export const ledgerKindOf = (request: FastifyRequest, kind: RenderKind): RecentRenderKind => request.routeOptions.config.ledgerKind ?? kind;

/** What the ledger keeps of a delivered image: its format, size and the worker's render time. */
const factsOf = ({ image, meta }: RenderOutcome): RenderFacts => ({
  format: meta.format,
  sizeBytes: image.length,
  renderMs: meta.renderMs,
});
/** The format asked for, once the payload is built (a template's is a promise until it is filled). */
const formatOf = (payload: unknown): string | undefined =>
  payload instanceof Promise ? undefined : ((payload as { format?: unknown }).format as string | undefined);

export const isPaymentRequired = (err: unknown) => err instanceof AppError && err.code === 'PAYMENT_REQUIRED';

/** A signal that aborts with the caller's (`signal`), or with the reservation's refusal as soon as it comes. */
function endedByRefusal(reservation: Promise<void>, signal: AbortSignal | undefined): AbortSignal {
  const controller = new AbortController();
  reservation.catch((err: unknown) => controller.abort(err));
  if (signal?.aborted) controller.abort(signal.reason);
  else signal?.addEventListener('abort', () => controller.abort(signal.reason), { once: true });
  return controller.signal;
}

/**
 * Reserve → render → settle. The ledger lives in the account service (`authClient`); the job id is the
 * ledger's request id, so a job retried by BullMQ is still one credit, and a failed render costs nothing.
 */
export class BilledRenders {
  /** Releases in flight for calls that never rendered; a closing gateway waits for them (`drain`). */
  private readonly settling = new Set<Promise<void>>();

  constructor(private readonly opts: BilledRendersOptions) {}

  /**
   * Renders for `request.caller` (set by an identity hook): an account reserves one credit first and is
   * charged only for an image it received. `payload` may be the promise of one still being built (a
   * template being filled): the credit is then reserved meanwhile, and released if building fails.
   */
  async render<K extends RenderKind>(
    request: FastifyRequest,
    kind: K,
    payload: Payload<K>,
    options: BilledRenderOptions = {},
  ): Promise<RenderOutcome> {
    const caller = request.caller;
    // A billable route without an identity hook would render for free and unlimited: fail loudly instead.
    if (!caller) throw new AppError('INTERNAL_ERROR', 'Caller was not identified');
    const client = options.endsWithClient === false ? null : watchClient(request);
    try {
      if (caller.kind === 'anonymous') return await this.renderAnonymous(request, kind, await payload, client?.signal);
      const facts = { kind: ledgerKindOf(request, kind), format: formatOf(payload) };
      try {
        return await this.renderForAccount(caller, kind, payload, {
          forRequest: request.id,
          signal: client?.signal,
          prepared: request.billing?.claim() ?? null,
          facts,
          slotHeld: options.slotHeld === true,
          request,
        });
      } catch (err) {
        if (!this.mayFallBack(request, caller, err)) throw err;
        return await this.renderOnAddressAllowance(request, kind, await payload, client?.signal, err);
      }
    } finally {
      client?.dispose();
    }
  }

  /**
   * Renders for `caller` on credits reserved up front under `credit` (a batch item's: `jobId` and, for a
   * render worth more, its further ids): charged when the image is made, released when the render fails.
   * Nothing ties it to a connection; the account's in-flight slot is the caller's (the batch holds one).
   * `ledgerKind`: what the ledger records it as, when not the queue's kind (a template item is an svg job).
   */
  async renderReserved<K extends RenderKind>(
    request: FastifyRequest,
    caller: AccountCaller,
    kind: K,
    payload: RenderPayload<K>,
    credit: { jobId: string; extras: readonly string[] },
    ledgerKind: RecentRenderKind = ledgerKindOf(request, kind),
  ): Promise<RenderOutcome> {
    const ids = [credit.jobId, ...credit.extras];
    let outcome: RenderOutcome;
    try {
      outcome = await this.opts.renderQueue.render(kind, payload, {
        jobId: credit.jobId,
        requestId: request.id,
        caller: callerId('account', caller.userId),
      });
    } catch (err) {
      // Awaited, so that usage read once the item shows failed already has its credits back.
      await Promise.all(ids.map((id) => this.settle(id, 'released', { kind: ledgerKind, format: formatOf(payload) })));
      throw err;
    }
    for (const id of ids) this.chargeAfterAnswer(id, outcome, ledgerKind);
    return outcome;
  }

  /** A reservation made in onRequest for a call that never reached its render (a 400 body, a hang-up). */
  releaseUnclaimed(request: FastifyRequest): Promise<void> | undefined {
    const reservation = request.billing?.claim();
    if (!reservation) return undefined;
    const pending = reservation.outcome.then((outcome) => (outcome.reserved ? this.settle(reservation.requestId, 'released') : undefined));
    this.settling.add(pending);
    pending.finally(() => this.settling.delete(pending));
    return pending;
  }

  /** Waits for the releases still in flight. */
  async drain(): Promise<void> {
    await Promise.all(this.settling);
  }

  private async settle(requestId: string, outcome: CreditOutcome, facts?: RenderFacts): Promise<void> {
    try {
      await this.opts.authClient.settleCredit(requestId, outcome, facts);
    } catch (err) {
      // The answer to the client does not depend on this. The row stays 'reserved', which counts like a
      // charge; settle is idempotent, and the account service's sweep releases it later.
      this.opts.warn({ requestId, outcome, err: (err as Error).message }, 'credit settle failed; reservation left as reserved');
    }
  }

  /**
   * A reserved credit already counts as used, so usage read right after the answer is the same either way:
   * the charge is settled after the answer instead of before it, carried by a later call (`chargeLater`).
   */
  private chargeAfterAnswer(requestId: string, outcome: RenderOutcome, kind: RecentRenderKind | undefined): void {
    const facts = { kind, ...factsOf(outcome) };
    this.opts.charged(facts.format ?? 'unknown');
    this.opts.authClient.chargeLater(requestId, facts);
  }

  /** The credit of an account's render: the one reserved in onRequest (`prepared`), or one reserved now. */
  private reservationFor(caller: AccountCaller, jobId: string, { prepared, facts, forRequest, request }: AccountRender): Promise<void> {
    // Reserved (or under way) already when the caller's API key was verified; otherwise (a session, a
    // signed URL's owner) now.
    if (prepared)
      return prepared.outcome.then((outcome) => {
        if (!outcome.reserved) throw outcome.error;
      });
    return this.opts.authClient.reserveCredit(caller.userId, jobId, facts, forRequest).then(({ remaining, limit }) => {
      if (limit !== undefined) limitsOf(request).credits = { remaining, limit };
    });
  }

  private async renderForAccount<K extends RenderKind>(
    caller: AccountCaller,
    kind: K,
    payload: Payload<K>,
    render: AccountRender,
  ): Promise<RenderOutcome> {
    const { forRequest, signal, prepared, facts, slotHeld } = render;
    const jobId = prepared?.requestId ?? randomUUID();
    const reservation = this.reservationFor(caller, jobId, render);
    let built: RenderPayload<K> | undefined;
    /** A render worth more than one credit (a video): its further credits, reserved once the payload is known. */
    let extras: string[] = [];
    // A limited account renders only once its credit is reserved. An unlimited one (Pro, admin), or a key
    // verified moments ago with credits to spare, has no limit to enforce first: its reservation runs
    // alongside the render, and should it be refused after all (a plan changed within the identity cache's
    // TTL, a key regenerated meanwhile) the job is dropped and the image withheld.
    const limited = prepared ? !prepared.ahead : caller.plan !== 'pro' && caller.role !== 'admin';
    const renderSignal = limited ? signal : endedByRefusal(reservation, signal);
    const rendering = (async () => {
      built = await payload;
      if (limited) await reservation;
      extras = await this.reserveExtras(caller, jobId, kind, built, render);
      // The account's in-flight limit (`accountLimits`) is taken in the queue, before anything is enqueued.
      return this.opts.renderQueue.render(kind, built, {
        jobId,
        requestId: forRequest,
        caller: callerId('account', caller.userId),
        signal: renderSignal,
        ...(slotHeld ? {} : { account: { id: caller.userId, plan: caller.plan, role: caller.role } }),
      });
    })();
    const [rendered, reserved] = await Promise.allSettled([rendering, reservation]);
    const delivered = rendered.status === 'fulfilled' && !signal?.aborted;
    if (delivered && reserved.status === 'fulfilled') {
      for (const id of [jobId, ...extras]) this.chargeAfterAnswer(id, rendered.value, facts.kind);
      return rendered.value;
    }
    await Promise.all(extras.map((id) => this.settle(id, 'released', { kind: facts.kind })));
    // Awaited, so that usage read right after a failure already shows the credit back. An image the caller
    // hung up before receiving was not delivered, so it is released too (with the format it was to have).
    if (reserved.status === 'fulfilled')
      await this.settle(jobId, 'released', { kind: facts.kind, ...(built ? { format: formatOf(built) } : {}) });
    if (rendered.status === 'fulfilled' && signal?.aborted) throw signal.reason;
    // Credentials the account service refused (a regenerated key) or could not check come first, as they
    // would have in onRequest. Then what is wrong with the request itself (an unknown template, a bad
    // variable) or its render; a limited account's refused reservation is also how its render failed.
    if (reserved.status === 'rejected' && !isPaymentRequired(reserved.reason)) throw reserved.reason;
    throw rendered.status === 'rejected' ? rendered.reason : (reserved as PromiseRejectedResult).reason;
  }

  /** The further credits of a render worth more than one (`render-credits.ts`), up front; none for most renders. */
  private async reserveExtras<K extends RenderKind>(
    caller: AccountCaller,
    jobId: string,
    kind: K,
    payload: RenderPayload<K>,
    { facts, forRequest, request }: AccountRender,
  ): Promise<string[]> {
    const ids = extraCreditIds(jobId, creditsOf(kind, payload));
    if (ids.length === 0) return [];
    const extra = await reserveExtraCredits(this.opts.authClient, caller.userId, ids, { ...facts, format: formatOf(payload) }, forRequest);
    const standing = extra.standing;
    if (standing && standing.limit !== undefined) limitsOf(request).credits = { remaining: standing.remaining, limit: standing.limit };
    return extra.ids;
  }

  /** No credit: the address's limits instead (size, cost in units, renders in flight), held until the render ends. */
  private async renderAnonymous<K extends RenderKind>(
    request: FastifyRequest,
    kind: K,
    payload: RenderPayload<K>,
    signal: AbortSignal | undefined,
    /** What to answer instead of the address's own refusal (a Free account's 402, see `mayFallBack`). */
    refusal?: unknown,
  ): Promise<RenderOutcome> {
    const release = await this.opts.anonymousLimits.begin(request, kind, payload).catch((err: unknown) => {
      throw refusal ?? err;
    });
    try {
      return await this.opts.renderQueue.render(kind, payload, { signal, requestId: request.id, caller: callerId('address', request.ip) });
    } finally {
      release();
    }
  }

  /**
   * A Free account out of credits is never worse off than a caller without any: its own call (its key or
   * session, not a signed URL someone else opens) falls back to its address's anonymous allowance.
   */
  private mayFallBack(request: FastifyRequest, caller: AccountCaller, err: unknown): boolean {
    return isPaymentRequired(err) && caller.plan === 'free' && limitsOf(request).ownCredits;
  }

  /** Rendered free on the address's allowance; the account's 402 (which says when credits come back) once that is spent too. */
  private async renderOnAddressAllowance<K extends RenderKind>(
    request: FastifyRequest,
    kind: K,
    payload: RenderPayload<K>,
    signal: AbortSignal | undefined,
    paymentRequired: unknown,
  ): Promise<RenderOutcome> {
    await this.opts.anonymousLimits.admit(request).catch(() => {
      throw paymentRequired;
    });
    // The answer still says the plan's credits are spent, and when they come back.
    const standing = creditsOfRefusal(paymentRequired);
    if (standing) limitsOf(request).credits = standing;
    return this.renderAnonymous(request, kind, payload, signal, paymentRequired);
  }
}
