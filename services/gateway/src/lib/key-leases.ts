import { randomUUID } from 'node:crypto';

/** Whom a lease's credits are for, as the account service answered when it leased them. */
export interface LeaseOwner<Caller> {
  caller: Caller;
  /** Credits left in the window after the lease; null when the account has no limit. */
  remaining: number | null;
}

export interface KeyLeasesOptions {
  /** How long spares are kept unused before they are given back. */
  ttlMs: number;
  /** Most spares asked for at once. */
  maxSpares: number;
  /** Gives back spares nobody took (released: they cost nothing). */
  giveBack(requestIds: string[]): void;
}

interface Lease<Caller> extends LeaseOwner<Caller> {
  spares: string[];
  expiresAt: number;
}

/** A lease being asked for: the ids to ask with, and the generation it must still be in when it arrives. */
export interface LeaseRequest {
  spares: string[];
  generation: number;
}

/**
 * Credits an API key's account had reserved ahead ("spares", recorded 'leased' in the ledger by the account
 * service), so that when one key sends many renders at once most of them need no call of their own: one
 * reservation call asks for the current render's credit plus a few spares, and the next renders take them.
 *
 * Only a key with several renders in flight on this gateway asks for spares (one at a time needs none), and
 * an account with a limit only for half of what it has left. While a lease is being asked for, the key's
 * other renders wait for it (`arriving`) instead of each making a call. Spares are kept by key hash for `ttlMs`,
 * then given back; `invalidate` (an account changed somewhere: a key regenerated, a plan changed) gives them
 * all back at once, and a lease asked for before it is refused when it arrives (`generation`).
 */
export class KeyLeases<Caller> {
  private readonly leases = new Map<string, Lease<Caller>>();
  private readonly inFlight = new Map<string, number>();

  /** Keys whose lease is being asked for, with what resolves when its answer is in (see `arriving`). */
  private readonly asking = new Map<string, () => void>();
  private readonly arrivals = new Map<string, Promise<void>>();
  private generation = 0;

  constructor(private readonly opts: KeyLeasesOptions) {}

  /** A render for `keyHash` starts; `end` must follow once it is answered. */
  begin(keyHash: string): void {
    this.inFlight.set(keyHash, (this.inFlight.get(keyHash) ?? 0) + 1);
  }

  end(keyHash: string): void {
    const left = (this.inFlight.get(keyHash) ?? 1) - 1;
    if (left > 0) this.inFlight.set(keyHash, left);
    else this.inFlight.delete(keyHash);
  }

  /** A spare of the key's lease, with its owner, if one is left and still fresh. */
  take(keyHash: string, now = Date.now()): (LeaseOwner<Caller> & { requestId: string }) | undefined {
    const lease = this.leases.get(keyHash);
    if (!lease) return undefined;
    if (lease.expiresAt <= now) {
      this.drop(keyHash);
      return undefined;
    }
    const requestId = lease.spares.pop();
    if (lease.spares.length === 0) this.leases.delete(keyHash);
    return requestId ? { caller: lease.caller, remaining: lease.remaining, requestId } : undefined;
  }

  /**
   * The spares a reservation for `keyHash` should ask for now, if any: when other renders of the key are in
   * flight here, none is being asked for already, and the account (by `known`, its last answer) can spare
   * them. `settle` must follow with the answer (or nothing).
   */
  ask(keyHash: string, known: LeaseOwner<Caller> | undefined): LeaseRequest | undefined {
    const others = (this.inFlight.get(keyHash) ?? 1) - 1;
    if (others < 1 || !known || this.asking.has(keyHash)) return undefined;
    const affordable = known.remaining === null ? this.opts.maxSpares : Math.floor(known.remaining / 2);
    const count = Math.min(this.opts.maxSpares, 2 * (others + 1), affordable);
    if (count < 1) return undefined;
    this.arrivals.set(
      keyHash,
      new Promise<void>((resolve) => {
        this.asking.set(keyHash, resolve);
      }),
    );
    return { spares: Array.from({ length: count }, () => randomUUID()), generation: this.generation };
  }

  /**
   * The answer to `ask`'s request: the spares leased (a subset of those asked), kept unless the accounts
   * changed meanwhile (then given back). Null when the reservation failed or was refused.
   */
  settle(keyHash: string, request: LeaseRequest, answer: (LeaseOwner<Caller> & { spares: string[] }) | null, now = Date.now()) {
    const arrived = this.asking.get(keyHash);
    this.asking.delete(keyHash);
    this.arrivals.delete(keyHash);
    try {
      this.keep(keyHash, request, answer, now);
    } finally {
      arrived?.();
    }
  }

  /**
   * Resolves once the lease being asked for `keyHash` is in (kept or not), if one is: a render that finds no
   * spare waits for it rather than making a call of its own (the lease asked for every render in flight).
   */
  arriving(keyHash: string): Promise<void> | undefined {
    return this.arrivals.get(keyHash);
  }

  private keep(keyHash: string, request: LeaseRequest, answer: (LeaseOwner<Caller> & { spares: string[] }) | null, now: number) {
    if (!answer || answer.spares.length === 0) return;
    if (request.generation !== this.generation) {
      this.opts.giveBack(answer.spares);
      return;
    }
    const lease = this.leases.get(keyHash);
    if (lease) this.opts.giveBack(lease.spares);
    this.leases.set(keyHash, {
      caller: answer.caller,
      remaining: answer.remaining,
      spares: [...answer.spares],
      expiresAt: now + this.opts.ttlMs,
    });
  }

  /** Gives back the spares of leases past their time. */
  sweep(now = Date.now()): void {
    for (const [keyHash, lease] of this.leases) if (lease.expiresAt <= now) this.drop(keyHash);
  }

  /** An account changed somewhere: every spare goes back, and leases asked for before now are refused. */
  invalidate(): void {
    this.generation += 1;
    for (const keyHash of [...this.leases.keys()]) this.drop(keyHash);
  }

  /** Spares kept now (all keys). */
  get size(): number {
    let n = 0;
    for (const lease of this.leases.values()) n += lease.spares.length;
    return n;
  }

  private drop(keyHash: string): void {
    const lease = this.leases.get(keyHash);
    if (!lease) return;
    this.leases.delete(keyHash);
    if (lease.spares.length > 0) this.opts.giveBack(lease.spares);
  }
}
