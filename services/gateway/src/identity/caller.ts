import type { ApiKeyOwnerResponse, ApiKeyScope } from '@render/contracts';

/** The API key a caller called with: its id, what it may call, and when it stops working (ms since epoch; none: never). */
export interface CallerKey {
  id: string;
  scope: ApiKeyScope;
  expiresAt?: number;
}

export type AccountCaller = {
  kind: 'account';
  userId: string;
  role: 'user' | 'admin';
  plan: 'free' | 'pro';
  /** Set when the caller called with an API key the service described (a session token has none). */
  key?: CallerKey;
};
export type Caller = { kind: 'anonymous' } | AccountCaller;

/** The caller an API key's owner (as the account service answered it) is. */
export const accountOf = (owner: ApiKeyOwnerResponse): AccountCaller => ({
  kind: 'account',
  userId: owner.userId,
  role: owner.role,
  plan: owner.plan,
  ...(owner.keyId && owner.scope
    ? { key: { id: owner.keyId, scope: owner.scope, ...(owner.expiresAt ? { expiresAt: Date.parse(owner.expiresAt) } : {}) } }
    : {}),
});

/** Whether the caller's key has expired by `now` (what a lease or a hint kept about it may not outlive). */
export const keyExpired = (caller: AccountCaller, now = Date.now()): boolean =>
  caller.key?.expiresAt !== undefined && caller.key.expiresAt <= now;
