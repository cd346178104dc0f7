/**
 * Renders in flight on this replica, per key (an account's id, a caller's address). A key with nothing in
 * flight leaves no entry behind, so the map holds only the keys rendering now.
 */
export class InFlightCounts {
  private readonly counts = new Map<string, number>();

  of(key: string): number {
    return this.counts.get(key) ?? 0;
  }

  /** Counts one more render for `key`; the function returned counts it off, once however often it is called. */
  add(key: string): () => void {
    this.counts.set(key, this.of(key) + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.counts.get(key) ?? 1) - 1;
      if (left > 0) this.counts.set(key, left);
      else this.counts.delete(key);
    };
  }
}
