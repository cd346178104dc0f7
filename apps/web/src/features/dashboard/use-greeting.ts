import type { UserView } from '@render/contracts';
import { useEffect, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { getStored, setStored } from '../../lib/storage.ts';

/** An account this young that has not seen the dashboard in this browser yet is greeted as new. */
const NEW_ACCOUNT_MS = 24 * 60 * 60 * 1000;
// Long enough that a returning user keeps being welcomed back; the flag only tells first from later visits.
const SEEN_TTL_MS = 365 * 24 * 60 * 60 * 1000;
const seenKey = (userId: string) => `dashboard-seen:${userId}`;

/** Whether this is the account's first visit: new (signed up within a day) and never shown the dashboard here. */
export function isFirstVisit(user: Pick<UserView, 'id' | 'memberSince'>, now = Date.now()): boolean {
  if (getStored<boolean>(seenKey(user.id))) return false;
  const since = Date.parse(user.memberSince);
  return Number.isFinite(since) && now - since < NEW_ACCOUNT_MS;
}

/**
 * "Welcome, Ada" on a new account's first dashboard, "Welcome back, Ada" afterwards (a new account was
 * greeted "welcome back" before it had ever been here). Decided once per account, so the text does not
 * change under the user's eyes when the visit is recorded.
 */
export function useGreeting(user: Pick<UserView, 'id' | 'memberSince' | 'name'> | null | undefined): string | undefined {
  const { t } = useTranslation('dashboard');
  const id = user?.id;
  const memberSince = user?.memberSince;
  // biome-ignore lint/correctness/useExhaustiveDependencies: decided once per account, not again after the visit is recorded
  const first = useMemo(() => (id && memberSince ? isFirstVisit({ id, memberSince }) : false), [id]);
  useEffect(() => {
    if (id) setStored(seenKey(id), true, SEEN_TTL_MS);
  }, [id]);
  if (!user) return undefined;
  return t(first ? 'welcome' : 'welcomeBack', { name: user.name });
}
