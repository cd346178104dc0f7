import { CREDIT_SETTLE_BATCH_MAX, type CreditOutcome, type RecentRenderKind } from '@render/contracts';

/** What a render made, recorded with its charge (or release) for the account's usage lists. */
export interface RenderFacts {
  /** What the render was: a spare leased ahead learns it only now. */
  kind?: RecentRenderKind;
  format?: string;
  sizeBytes?: number;
  renderMs?: number;
}

/** A charge waiting to be sent: the reservation and what its render made. */
export type Charge = { requestId: string } & RenderFacts;

export interface SettleBatchesOptions {
  /** How long a charge waits for a reservation call to carry it before it is sent on its own (with others). */
  batchMs: number;
  /** One settle call of at most CREDIT_SETTLE_BATCH_MAX items; rejects when the service did not confirm it. */
  send(items: readonly (string | Charge)[], outcome: CreditOutcome): Promise<void>;
  /** A call the service did not confirm: its items are retried unless the gateway is closing. */
  failed(count: number, outcome: CreditOutcome, err: Error, retrying: boolean): void;
}

const MAX_RETRY_DELAY_MS = 5_000;

const chunks = <T>(items: readonly T[], size: number): T[][] =>
  Array.from({ length: Math.ceil(items.length / size) }, (_, i) => items.slice(i * size, (i + 1) * size));

/**
 * Charges and releases settled later, together: a charge waits for the next reservation call to carry it
 * (`takeCharges`) or goes with the others of `batchMs`; spares given back go together too. A call the
 * service does not confirm (it or its database is away) is retried, waiting longer after each failure:
 * a delivered image must still be charged once it is back. Settling is idempotent, so a retry of a call
 * whose answer was lost is harmless. Nothing is thrown.
 */
export class SettleBatches {
  private charges: Charge[] = [];
  private chargeTimer: NodeJS.Timeout | undefined;
  private releases: string[] = [];
  private releaseTimer: NodeJS.Timeout | undefined;
  private readonly sending = new Set<Promise<void>>();
  /** Consecutive failed settle calls: the next retry waits longer (batchMs doubled each time, at most 5 s). */
  private failures = 0;
  private closing = false;

  constructor(private readonly opts: SettleBatchesOptions) {}

  private retryDelay(): number {
    return Math.min(this.opts.batchMs * 2 ** this.failures, MAX_RETRY_DELAY_MS);
  }

  /** The charges waiting, now taken by a call that carries them (`requeue` them should it fail). */
  takeCharges(): Charge[] | undefined {
    if (this.charges.length === 0) return undefined;
    clearTimeout(this.chargeTimer);
    this.chargeTimer = undefined;
    const taken = this.charges;
    this.charges = [];
    return taken;
  }

  chargeLater(requestId: string, facts: RenderFacts = {}): void {
    this.charges.push({ requestId, ...facts });
    if (this.charges.length >= CREDIT_SETTLE_BATCH_MAX) void this.flushCharges();
    else this.chargeTimer ??= setTimeout(() => void this.flushCharges(), this.opts.batchMs).unref();
  }

  /** Charges a call did not get confirmed: first in line again, sent after the retry delay. */
  requeue(charges: Charge[]): void {
    this.charges = charges.concat(this.charges);
    this.chargeTimer ??= setTimeout(() => void this.flushCharges(), this.retryDelay()).unref();
  }

  releaseLater(requestIds: readonly string[]): void {
    this.releases.push(...requestIds);
    this.releaseTimer ??= setTimeout(() => this.flushReleases(), this.opts.batchMs).unref();
  }

  flushCharges(): Promise<void> {
    const charges = this.takeCharges();
    // Each charge goes with what its render made: the ledger keeps it for the account's usage lists.
    return charges ? this.sendBatch(charges, 'charged', (failed) => this.requeue(failed)) : Promise.resolve();
  }

  flushReleases(): void {
    clearTimeout(this.releaseTimer);
    this.releaseTimer = undefined;
    if (this.releases.length === 0) return;
    const taken = this.releases;
    this.releases = [];
    void this.sendBatch(taken, 'released', (failed) => {
      this.releases = failed.concat(this.releases);
      this.releaseTimer ??= setTimeout(() => this.flushReleases(), this.retryDelay()).unref();
    });
  }

  /** Sends the pending charges now and waits for them, and for every settle under way. */
  async settled(): Promise<void> {
    await this.flushCharges();
    await Promise.all([...this.sending]);
  }

  /** One last try each; what the service does not confirm now is left to its sweep. */
  async close(): Promise<void> {
    this.closing = true;
    void this.flushCharges();
    this.flushReleases();
    await Promise.all(this.sending);
  }

  /** Settles a batch in calls of at most CREDIT_SETTLE_BATCH_MAX, tracked so that `close` waits for them. */
  private sendBatch<T extends string | Charge>(items: T[], outcome: CreditOutcome, retry: (items: T[]) => void): Promise<void> {
    const sent = Promise.all(
      chunks(items, CREDIT_SETTLE_BATCH_MAX).map((chunk) =>
        this.opts
          .send(chunk, outcome)
          .then(() => {
            this.failures = 0;
          })
          .catch((err: Error) => {
            this.failures += 1;
            // Until then the rows stay 'reserved' (or 'leased'); the service's sweep releases any left at the end.
            this.opts.failed(chunk.length, outcome, err, !this.closing);
            if (!this.closing) retry(chunk);
          }),
      ),
    )
      .then(() => undefined)
      .finally(() => this.sending.delete(sent));
    this.sending.add(sent);
    return sent;
  }
}
