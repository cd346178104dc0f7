import { randomUUID } from 'node:crypto';

/** Whom a lease's credits are for, as the account service answered when it leased them. */
export interface LeaseOwner<Caller> {
  caller: Caller;
  /** Credits left in the window after the lease; null when the account has no limit. */
  remaining: number | null;
  /** The account's credits per window, as the lease's answer said (null: no limit; undefined: not said). */
  limit?: number | null;
}

export interface KeyLeasesOptions {
  /** How long spares are kept unused before they are given back. */
  ttlMs: number;
  /** Most spares asked for at once. */
  maxSpares: number;
  /** Gives back spares nobody took (released: they cost nothing). */
  giveBack(requestIds: string[]): void;
  /**
   * Renders a key must have begun here within the last second to lease one at a time (a script calling in a
   * loop); 0 turns that off. Such a key asks for a quarter of a second's renders.
   */
  steadyPerSecond?: number;
}

/** Renders a key began in the current one-second window, and in the window before it. */
interface Pace {
  windowStart: number;
  count: number;
  previous: number;
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

const PACE_WINDOW_MS = 1_000;

/**
 * Credits an API key's account had reserved ahead ("spares", recorded 'leased' in the ledger by the account
 * service), so that when one key sends many renders at once most of them need no call of their own: one
 * reservation call asks for the current render's credit plus a few spares, and the next renders take them.
 *
 * A key with several renders in flight on this gateway asks for spares, and so does one calling one at a
 * time but steadily (`steadyPerSecond`: a script rendering in a loop, whose every call would otherwise wait
 * on a reservation while its render competes with that call for the CPU); an account with a limit only for
 * half of what it has left. While a lease is being asked for, the key's
 * other renders wait for it (`arriving`) instead of each making a call. Spares are kept by key hash for `ttlMs`,
 * then given back; `invalidate` (an account changed somewhere: a key regenerated, a plan changed) gives them
 * all back at once, and a lease asked for before it is refused when it arrives (`generation`).
 */
export class KeyLeases<Caller> {
  private readonly leases = new Map<string, Lease<Caller>>();
  private readonly inFlight = new Map<string, number>();
  private readonly pace = new Map<string, Pace>();

  /** Keys whose lease is being asked for, with what resolves when its answer is in (see `arriving`). */
  private readonly asking = new Map<string, () => void>();
  private readonly arrivals = new Map<string, Promise<void>>();
  private generation = 0;

  constructor(private readonly opts: KeyLeasesOptions) {}

  /** A render for `keyHash` starts; `end` must follow once it is answered. */
  begin(keyHash: string, now = Date.now()): void {
    this.inFlight.set(keyHash, (this.inFlight.get(keyHash) ?? 0) + 1);
    if (!this.opts.steadyPerSecond) return;
    const pace = this.pace.get(keyHash);
    if (!pace || now - pace.windowStart >= 2 * PACE_WINDOW_MS) this.pace.set(keyHash, { windowStart: now, count: 1, previous: 0 });
    else if (now - pace.windowStart >= PACE_WINDOW_MS) this.pace.set(keyHash, { windowStart: now, count: 1, previous: pace.count });
    else pace.count += 1;
  }

  /** About how many renders the key began in the last second (the previous window weighted by its overlap). */
  private recentBegins(keyHash: string, now: number): number {
    const pace = this.pace.get(keyHash);
    if (!pace || now - pace.windowStart >= 2 * PACE_WINDOW_MS) return 0;
    const elapsed = now - pace.windowStart;
    if (elapsed >= PACE_WINDOW_MS) return pace.count * (1 - (elapsed - PACE_WINDOW_MS) / PACE_WINDOW_MS);
    return pace.count + pace.previous * (1 - elapsed / PACE_WINDOW_MS);
  }

  end(keyHash: string): void {
    const left = (this.inFlight.get(keyHash) ?? 1) - 1;
    if (left > 0) this.inFlight.set(keyHash, left);
    else this.inFlight.delete(keyHash);
  }

  /**
   * A spare of the key's lease, with its owner, if one is left and still fresh. Its `remaining` counts the
   * spares still unused as credits left (they go back if nobody takes them).
   */
  take(keyHash: string, now = Date.now()): (LeaseOwner<Caller> & { requestId: string }) | undefined {
    const lease = this.leases.get(keyHash);
    if (!lease) return undefined;
    if (lease.expiresAt <= now) {
      this.drop(keyHash);
      return undefined;
    }
    const requestId = lease.spares.pop();
    if (lease.spares.length === 0) this.leases.delete(keyHash);
    if (!requestId) return undefined;
    const remaining = lease.remaining === null ? null : lease.remaining + lease.spares.length;
    return { caller: lease.caller, remaining, limit: lease.limit, requestId };
  }

  /**
   * The spares a reservation for `keyHash` should ask for now, if any: when other renders of the key are in
   * flight here (twice their number) or the key calls one at a time but steadily (a quarter of a second's
   * renders), none is being asked for already, and the account (by `known`, its last answer) can spare
   * them. `settle` must follow with the answer (or nothing).
   */
  ask(keyHash: string, known: LeaseOwner<Caller> | undefined, now = Date.now()): LeaseRequest | undefined {
    if (!known || this.asking.has(keyHash)) return undefined;
    const others = (this.inFlight.get(keyHash) ?? 1) - 1;
    const steady = this.opts.steadyPerSecond ? this.recentBegins(keyHash, now) : 0;
    let wanted = 0;
    if (others >= 1) wanted = 2 * (others + 1);
    else if (this.opts.steadyPerSecond && steady >= this.opts.steadyPerSecond) wanted = Math.ceil(steady / 4);
    if (wanted < 1) return undefined;
    const affordable = known.remaining === null ? this.opts.maxSpares : Math.floor(known.remaining / 2);
    const count = Math.min(this.opts.maxSpares, wanted, affordable);
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
      limit: answer.limit,
      spares: [...answer.spares],
      expiresAt: now + this.opts.ttlMs,
    });
  }

  /** Gives back the spares of leases past their time, and forgets the pace of keys gone quiet. */
  sweep(now = Date.now()): void {
    for (const [keyHash, lease] of this.leases) if (lease.expiresAt <= now) this.drop(keyHash);
    for (const [keyHash, pace] of this.pace) if (now - pace.windowStart >= 2 * PACE_WINDOW_MS) this.pace.delete(keyHash);
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
