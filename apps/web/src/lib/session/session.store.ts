import type { UserView } from '@render/contracts';
import { AccountHeads } from '@render/contracts/route-heads';
import { setTokenSource } from '../api-client.ts';
import { callRoute } from '../call-route.ts';
import { getStored, removeStored, setStored } from '../storage.ts';

/**
 * docs/spec/states.md session: token and user in browser storage (7-day expiry), the profile fetched at start
 * (failure signs out), a silent refresh every 60 minutes (failure only logged), and 'loading' until
 * the start-up check has answered. A tiny external store so React reads it with useSyncExternalStore
 * and tests drive it without rendering.
 */
export const TOKEN_KEY = 'token';
export const USER_KEY = 'user';
export const REFRESH_INTERVAL_MS = 60 * 60 * 1000;

export type SessionState =
  | { status: 'loading'; token: string | null; user: UserView | null }
  | { status: 'signedIn'; token: string; user: UserView }
  | { status: 'signedOut'; token: null; user: null };

type Listener = () => void;

export interface SessionStore {
  getState(): SessionState;
  /** The state before start() read storage: what a prerendered page shows. */
  getInitialState(): SessionState;
  subscribe(listener: Listener): () => void;
  /** Reads storage, checks the profile when a token exists, and starts the refresh timer. */
  start(): Promise<void>;
  signIn(token: string, user: UserView): void;
  signOut(): void;
  /** Re-reads the profile (after a plan change or a new key). */
  reloadUser(): Promise<void>;
  /** One refresh (also what the timer runs). */
  refresh(): Promise<void>;
  stop(): void;
}

const SIGNED_OUT: SessionState = { status: 'signedOut', token: null, user: null };

export function createSessionStore(log: Pick<Console, 'warn'> = console): SessionStore {
  const initial: SessionState = { status: 'loading', token: null, user: null };
  let state: SessionState = initial;
  const listeners = new Set<Listener>();
  let timer: ReturnType<typeof setInterval> | undefined;

  const set = (next: SessionState) => {
    state = next;
    for (const listener of listeners) listener();
  };
  const signOut = () => {
    removeStored(TOKEN_KEY);
    removeStored(USER_KEY);
    set(SIGNED_OUT);
  };
  const signIn = (token: string, user: UserView) => {
    setStored(TOKEN_KEY, token);
    setStored(USER_KEY, user);
    set({ status: 'signedIn', token, user });
  };

  // By the route's head only: the session store is on the landing page, and the account contracts' schemas
  // would add ~30 KB gzipped to its initial JavaScript, over the 200 KB budget (scripts/report-sizes).
  const fetchUser = async () => (await callRoute(AccountHeads.me)).user;

  const store: SessionStore = {
    getState: () => state,
    getInitialState: () => initial,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async start() {
      const token = getStored<string>(TOKEN_KEY);
      const user = getStored<UserView>(USER_KEY);
      if (!token) {
        removeStored(USER_KEY);
        set(SIGNED_OUT);
      } else {
        set({ status: 'loading', token, user });
        try {
          const fresh = await fetchUser();
          setStored(USER_KEY, fresh);
          set({ status: 'signedIn', token, user: fresh });
        } catch {
          signOut();
        }
      }
      clearInterval(timer);
      timer = setInterval(() => void store.refresh(), REFRESH_INTERVAL_MS);
    },
    signIn,
    signOut,
    async reloadUser() {
      if (state.status !== 'signedIn') return;
      const user = await fetchUser();
      signIn(state.token, user);
    },
    async refresh() {
      if (state.status !== 'signedIn') return;
      try {
        const { token } = await callRoute(AccountHeads.refresh);
        signIn(token, state.user);
      } catch (error) {
        log.warn('Session refresh failed', error);
      }
    },
    stop() {
      clearInterval(timer);
    },
  };
  setTokenSource(() => store.getState().token);
  return store;
}
