import { createHash, randomUUID } from 'node:crypto';
import { AppError } from '@render/contracts';
import type { FastifyRequest } from 'fastify';
import { clientGoneError } from '../http/client-gone.ts';
import { type AccountCaller, accountOf, keyExpired } from '../identity/caller.ts';
import { type CreditStanding, limitsOf } from '../limits/request-limits.ts';
import type { AuthClient, KeyReservation } from '../plugins/auth-client.plugin.ts';
import { KeyHints } from './key-hints.ts';
import { KeyLeases, type LeaseRequest } from './key-leases.ts';
import { billingOf, RESERVED, type ReservationOutcome } from './request-billing.ts';

export interface KeyReservationsOptions {
  /** The account service's calls used here: the key's reservation, and spares given back. */
  authClient: Pick<AuthClient, 'reserveCreditForApiKey' | 'releaseLater'>;
  /** Whether account changes are heard (`accountChanges.live`): only then are credits leased ahead. */
  live(): boolean;
  /** How long credits leased ahead for an API key are kept unused before they are given back. */
  leaseTtlMs?: number;
  /** Renders a second from which a key calling one at a time leases ahead (0: never). */
  leaseSteadyPerSecond?: number;
  /** How long a verified key may have its render started alongside its next verification. */
  hintTtlMs?: number;
}

/** A key verified this recently may have its render started alongside its verification… */
const KEY_HINT_TTL_MS = 30_000;
/** …if its account had no limit or at least this many credits left (more calls than this in flight may waste renders, never credits). */
const AHEAD_MIN_REMAINING = 10;
const DEFAULT_LEASE_TTL_MS = 5_000;
/** Most credits one reservation leases ahead for a key (twice its renders in flight, at most this). */
const MAX_SPARES = 32;
/** A key calling one at a time leases ahead from this many renders a second (a loop, not a person clicking). */
const DEFAULT_STEADY_PER_SECOND = 10;

export const invalidKey = () => new AppError('UNAUTHORIZED', 'Invalid API key');
const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

/** Records the credits a reservation left, for the answer's X-Credits-* headers (when the service said its limit). */
function showCredits(request: FastifyRequest, standing: { remaining: number | null; limit?: number | null }): void {
  if (standing.limit === undefined) return;
  limitsOf(request).credits = { limit: standing.limit, remaining: standing.remaining } satisfies CreditStanding;
}

const outcomeOf = (reserved: KeyReservation | null): ReservationOutcome =>
  !reserved ? { reserved: false, error: invalidKey() } : reserved.refused ? { reserved: false, error: reserved.refused } : RESERVED;

/**
 * An API key on a billable call is verified by reserving the call's credit for its owner: one call to the
 * account service for both. Two things kept about keys spare most of those calls their wait:
 *
 * - a lease (`KeyLeases`): credits reserved ahead by an earlier call of the same key while several of its
 *   renders were in flight. A regenerate (or any other account change forwarded by a replica) is published
 *   to every replica before it is answered, and each drops its leases on hearing it (`forget`); a replica
 *   whose subscription is down leases nothing (`live`).
 * - a hint (`KeyHints`): a key verified moments ago whose account can afford the call has its render start
 *   alongside the check (`ahead`); the check still decides whether the image is delivered (401 and no
 *   image otherwise, the job dropped, nothing charged).
 *
 * The reservation is left in the request's billing state (`billingOf`) for the render to settle.
 */
export class KeyReservations {
  private readonly hints: KeyHints<AccountCaller>;
  private readonly leases: KeyLeases<AccountCaller>;

  constructor(private readonly opts: KeyReservationsOptions) {
    this.hints = new KeyHints(opts.hintTtlMs ?? KEY_HINT_TTL_MS);
    this.leases = new KeyLeases<AccountCaller>({
      ttlMs: opts.leaseTtlMs ?? DEFAULT_LEASE_TTL_MS,
      maxSpares: MAX_SPARES,
      steadyPerSecond: opts.leaseSteadyPerSecond ?? DEFAULT_STEADY_PER_SECOND,
      giveBack: (requestIds) => opts.authClient.releaseLater(requestIds),
    });
  }

  /**
   * The caller behind `apiKey`, whose call's credit is reserved (or being reserved, when the render may
   * start alongside); 401 when the key is unknown. A refused reservation (402) is the render's to answer.
   */
  async reserve(request: FastifyRequest, apiKey: string): Promise<AccountCaller> {
    const keyHash = sha256(apiKey);
    const billing = billingOf(request);
    this.leases.begin(keyHash);
    billing.leaseKey = keyHash;
    // Leases are used only while account changes are heard: a key regenerated meanwhile must not render.
    const leasing = this.opts.live();
    let spare = leasing ? await this.spareFor(keyHash) : undefined;
    if (spare && keyExpired(spare.caller)) {
      // The key expired since its lease: nothing kept about it may be used (its spares go back with the rest).
      this.forget();
      spare = undefined;
    }
    if (spare) {
      // Reserved ahead for this key's account by an earlier call of the same key (see KeyLeases).
      billing.prepare({ requestId: spare.requestId, outcome: Promise.resolve(RESERVED), ahead: false, claimed: false });
      showCredits(request, spare);
      return spare.caller;
    }
    const requestId = randomUUID();
    const kept = this.hints.get(keyHash);
    const hint = kept && !keyExpired(kept.caller) ? kept : undefined;
    const lease = leasing ? this.leases.ask(keyHash, hint) : undefined;
    const answer = this.ask(request, keyHash, requestId, lease);
    if (hint && (hint.remaining === null || hint.remaining >= AHEAD_MIN_REMAINING)) {
      const outcome = answer.then(outcomeOf, (err: Error): ReservationOutcome => ({ reserved: false, error: err }));
      billing.prepare({ requestId, outcome, ahead: true, claimed: false });
      return hint.caller;
    }
    const reserved = await answer;
    if (!reserved) throw invalidKey();
    billing.prepare({ requestId, outcome: Promise.resolve(outcomeOf(reserved)), ahead: false, claimed: false });
    // A caller that hung up meanwhile gets no further: the error's answer releases the credit (`BilledRenders`).
    if (request.raw.socket?.destroyed) throw clientGoneError();
    return accountOf(reserved.owner);
  }

  /** A spare leased for the key, if one is left or arrives with the lease being asked for. */
  private async spareFor(keyHash: string) {
    // A change another replica published before answering its caller is already readable here when that
    // caller's next call arrives, but this turn of the event loop may run the call before the change: the
    // turn's other I/O callbacks (the change among them) run first, then the lease decides.
    await new Promise<void>((resolve) => setImmediate(resolve));
    const spare = this.leases.take(keyHash);
    if (spare) return spare;
    const arriving = this.leases.arriving(keyHash);
    if (!arriving) return undefined;
    await arriving;
    return this.opts.live() ? this.leases.take(keyHash) : undefined;
  }

  /** The reservation call (with the lease asked for, if any); its answer updates the hint, the lease and the credits shown. */
  private ask(
    request: FastifyRequest,
    keyHash: string,
    requestId: string,
    lease: LeaseRequest | undefined,
  ): Promise<KeyReservation | null> {
    // The body is not read yet: the route tells the render's kind, its format comes with the settle.
    const facts = { kind: request.routeOptions.config.ledgerKind, spares: lease?.spares };
    return this.opts.authClient.reserveCreditForApiKey(keyHash, requestId, facts, request.id).then(
      (reserved) => {
        if (reserved) this.hints.set(keyHash, accountOf(reserved.owner), reserved.remaining);
        else this.hints.delete(keyHash);
        // Spares leased with it are credits still there until a render takes one.
        if (reserved && !reserved.refused) {
          const remaining = reserved.remaining === null ? null : reserved.remaining + reserved.spares.length;
          showCredits(request, { remaining, limit: reserved.limit });
        }
        if (lease) {
          const leased = reserved && !reserved.refused ? { caller: accountOf(reserved.owner), ...reserved } : null;
          this.leases.settle(keyHash, lease, leased);
        }
        return reserved;
      },
      (err: unknown) => {
        // Spares the service may have leased before the answer was lost are swept back by it later.
        if (lease) this.leases.settle(keyHash, lease, null);
        throw err;
      },
    );
  }

  /** The request is answered (or abandoned): it no longer counts as in flight for its key's leases. */
  end(request: FastifyRequest): void {
    const billing = request.billing;
    if (!billing?.leaseKey) return;
    this.leases.end(billing.leaseKey);
    billing.leaseKey = null;
  }

  /** Gives back the spares of leases past their time. */
  sweep(): void {
    this.leases.sweep();
  }

  /** An account changed somewhere (or changes are no longer heard): every lease and hint goes. */
  forget(): void {
    this.leases.invalidate();
    this.hints.clear();
  }

  /** Spares kept now (all keys). */
  get spares(): number {
    return this.leases.size;
  }
}
