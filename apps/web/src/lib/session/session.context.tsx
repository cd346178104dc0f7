import { createContext, type ReactNode, useContext, useSyncExternalStore } from 'react';
import type { SessionState, SessionStore } from './session.store.ts';

const SessionContext = createContext<SessionStore | null>(null);

export function SessionProvider({ store, children }: { store: SessionStore; children: ReactNode }) {
  return <SessionContext.Provider value={store}>{children}</SessionContext.Provider>;
}

export function useSessionStore(): SessionStore {
  const store = useContext(SessionContext);
  if (!store) throw new Error('useSession needs a SessionProvider');
  return store;
}

export function useSession(): SessionState {
  const store = useSessionStore();
  // A prerendered page was drawn before any session was read: hydration reads that first state, then the real one.
  return useSyncExternalStore(store.subscribe, store.getState, store.getInitialState);
}
