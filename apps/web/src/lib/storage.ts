/**
 * Browser storage with an expiry (docs/spec/states.md: stored items live 7 days by default). Each item is stored as
 * `{ value, expiresAt }`; reading an expired or unreadable item removes it and answers null.
 */
export const DEFAULT_TTL_MS = 7 * 24 * 60 * 60 * 1000;

interface Stored<T> {
  value: T;
  expiresAt: number;
}

export function setStored<T>(key: string, value: T, ttlMs = DEFAULT_TTL_MS, now = Date.now()): void {
  try {
    localStorage.setItem(key, JSON.stringify({ value, expiresAt: now + ttlMs } satisfies Stored<T>));
  } catch {
    // Storage full or disabled (private mode): the session then lasts as long as the tab.
  }
}

export function getStored<T>(key: string, now = Date.now()): T | null {
  let raw: string | null;
  try {
    raw = localStorage.getItem(key);
  } catch {
    return null;
  }
  if (raw === null) return null;
  try {
    const item = JSON.parse(raw) as Partial<Stored<T>>;
    if (typeof item?.expiresAt === 'number' && item.expiresAt > now && 'value' in item) return item.value as T;
  } catch {
    // Not ours or corrupted: treat like an expired item.
  }
  removeStored(key);
  return null;
}

export function removeStored(key: string): void {
  try {
    localStorage.removeItem(key);
  } catch {
    // Nothing to remove when storage is unavailable.
  }
}
