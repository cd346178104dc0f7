import type { FastifyRequest } from 'fastify';

/** How a prepared reservation ended; the error (401, 402, 503) is what the call answers if it decides it. */
export type ReservationOutcome = { reserved: true } | { reserved: false; error: Error };

export const RESERVED: ReservationOutcome = { reserved: true };

/**
 * A credit reserved in onRequest, under the id the render's job will have. Whoever settles it claims it
 * first: the render (`BilledRenders`), or, for a call answered before its handler ran (a 400 body), the release.
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

/**
 * What billing keeps about one request between its hooks and its handler: the credit reserved while its API
 * key was verified, and the key it counts against for leases while in flight. Only the billing classes
 * change it; the rest of the gateway reads it through these methods.
 */
export class RequestBilling {
  private prepared: PreparedReservation | null = null;
  /** The SHA-256 of the API key a billable call came with, while it counts as in flight for its leases. */
  leaseKey: string | null = null;

  /** Records the credit reserved (or being reserved) while the caller's API key was verified. */
  prepare(reservation: PreparedReservation): void {
    this.prepared = reservation;
  }

  /** The verification's outcome, claimed or not, if the call's key was verified by reserving. */
  get outcome(): Promise<ReservationOutcome> | undefined {
    return this.prepared?.outcome;
  }

  /** Whether a reservation was prepared that nobody has taken charge of yet. */
  get unclaimed(): boolean {
    return this.prepared !== null && !this.prepared.claimed;
  }

  /** Takes charge of the prepared reservation, if any is left to settle. */
  claim(): PreparedReservation | null {
    const reservation = this.prepared;
    if (!reservation || reservation.claimed) return null;
    reservation.claimed = true;
    return reservation;
  }

  /**
   * An unclaimed reservation's refusal (no credits left, a regenerated key), once known: what the call answers
   * before it takes on any work. Nothing when none was prepared or it was reserved.
   */
  async refusal(): Promise<Error | undefined> {
    if (!this.unclaimed) return undefined;
    const outcome = await this.prepared?.outcome;
    return outcome && !outcome.reserved ? outcome.error : undefined;
  }
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Null until billing applies; see `billingOf`. */
    billing: RequestBilling | null;
  }
}

/** The request's billing state, created on first use. */
export function billingOf(request: FastifyRequest): RequestBilling {
  request.billing ??= new RequestBilling();
  return request.billing;
}
