import type { ApiKeysRepository } from '@render/db';

/** A key's last use is shown to the minute, so it is written at most this often per key (per replica). */
export const KEY_USE_WRITE_INTERVAL_MS = 60_000;
/** Most keys remembered; past it the memory starts over (costing at most one more write per key). */
const MAX_KEYS = 50_000;

/**
 * Records when API keys are used without a write per call: a key verified or reserved with is written at
 * most once a minute by this replica (a busy key's renders otherwise each cost Postgres an UPDATE).
 */
export class KeyUse {
  private readonly written = new Map<string, number>();

  constructor(
    private readonly apiKeys: Pick<ApiKeysRepository, 'touch'>,
    /** Told when a write fails: the call that used the key still goes on (its last use is only a display). */
    private readonly failed: (err: Error) => void,
    private readonly intervalMs = KEY_USE_WRITE_INTERVAL_MS,
  ) {}

  /** The key was used now; resolves once its use is written (at once when it was written this minute), never rejects. */
  async record(keyId: string, now = Date.now()): Promise<void> {
    const last = this.written.get(keyId);
    if (last !== undefined && now - last < this.intervalMs) return;
    if (this.written.size >= MAX_KEYS) this.written.clear();
    this.written.set(keyId, now);
    try {
      await this.apiKeys.touch(keyId, new Date(now));
    } catch (err) {
      // Not written: the next use tries again.
      this.written.delete(keyId);
      this.failed(err as Error);
    }
  }
}
