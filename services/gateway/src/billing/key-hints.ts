/** Most keys remembered; past it, expired ones are dropped first, then all. */
const MAX_ENTRIES = 10_000;

/** What a key's last verification said: whose it is and how many credits its account had left. */
export interface KeyHint<Caller> {
  caller: Caller;
  remaining: number | null;
}

/**
 * API keys verified moments ago, by SHA-256 (never the key itself): whose they are and how many credits
 * their account had left. Only a hint for starting a render early: every call is still verified.
 */
export class KeyHints<Caller> {
  private readonly entries = new Map<string, KeyHint<Caller> & { expiresAt: number }>();

  constructor(private readonly ttlMs: number) {}

  get(keyHash: string, now = Date.now()): KeyHint<Caller> | undefined {
    const hit = this.entries.get(keyHash);
    return hit && hit.expiresAt > now ? hit : undefined;
  }

  set(keyHash: string, caller: Caller, remaining: number | null, now = Date.now()): void {
    if (this.entries.size >= MAX_ENTRIES && !this.entries.has(keyHash)) {
      for (const [k, entry] of this.entries) if (entry.expiresAt <= now) this.entries.delete(k);
      if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
    }
    this.entries.set(keyHash, { caller, remaining, expiresAt: now + this.ttlMs });
  }

  delete(keyHash: string): void {
    this.entries.delete(keyHash);
  }

  clear(): void {
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }
}
