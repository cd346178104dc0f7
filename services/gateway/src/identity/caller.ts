import type { ApiKeyOwnerResponse } from '@render/contracts';

export type AccountCaller = { kind: 'account'; userId: string; role: 'user' | 'admin'; plan: 'free' | 'pro' };
export type Caller = { kind: 'anonymous' } | AccountCaller;

/** The caller an API key's owner (as the account service answered it) is. */
export const accountOf = (owner: ApiKeyOwnerResponse): AccountCaller => ({
  kind: 'account',
  userId: owner.userId,
  role: owner.role,
  plan: owner.plan,
});
