import type { UserView } from '@render/contracts';
import { afterEach, beforeEach, vi } from 'vitest';
import type { PaymentInfo, Usage } from '../../src/features/dashboard/dashboard-api.ts';
import { createSessionStore, type SessionStore } from '../../src/lib/session/session.store.ts';

/** The signed-in user of the page tests (a verified Free account). */
export const testUser = (overrides: Partial<UserView> = {}): UserView => ({
  id: '8d0f5f39-1d5b-4c8e-9c1f-2f1d1c1b1a10',
  name: 'Grace Hopper',
  email: 'grace@example.com',
  company: 'Navy',
  accountType: 'regular',
  verificationStatus: 'verified',
  memberSince: '2026-03-14T10:00:00.000Z',
  apiKey: 'rk_live_0123456789abcdefghijklmnopqrstuv',
  plan: 'free',
  language: 'en',
  renderLinksSignedOnly: false,
  ...overrides,
});

/** The other user of the session and template tests: Ada, with her own id, name and e-mail and no company. */
export const adaUser = (overrides: Partial<UserView> = {}): UserView =>
  testUser({ id: '00000000-0000-4000-8000-000000000001', name: 'Ada Lovelace', email: 'ada@example.com', company: null, ...overrides });

/** A `GET /api/auth/usage` answer: 3 of the Free plan's 50 credits used in the current 30 days, changed by `data`. */
export const usageAnswer = (data: Partial<Usage> = {}) => ({
  body: {
    success: true,
    data: {
      totalCredits: 50,
      used: 3,
      limit: 50,
      remaining: 47,
      plan: 'free',
      window: { days: 30, since: '2026-10-25T12:00:00.000Z' },
      ...data,
    },
  },
});

/** A `GET /api/auth/payment-info` answer: a Free account without a subscription, changed by `data`. */
export const paymentInfoAnswer = (data: Partial<PaymentInfo> = {}) => ({
  body: {
    success: true,
    data: {
      plan: 'free',
      status: null,
      price: null,
      currency: null,
      interval: null,
      nextBillingDate: null,
      cancelAtPeriodEnd: false,
      paymentMethods: [],
      testMode: false,
      ...data,
    },
  },
});

/** A session store already signed in as `user`. */
export function signedInAs(user: UserView = testUser()): SessionStore {
  const session = createSessionStore();
  session.signIn('session-token', user);
  return session;
}

export type GatewayHandler = (init: RequestInit | undefined) => { status?: number; body: unknown };

/**
 * The gateway at the HTTP boundary, for one test file: `routes` ("METHOD /path" → answer, reset before each
 * test; others are 404) and the `calls` the page made, in order.
 */
export function fakeGateway() {
  const state = {
    routes: {} as Record<string, GatewayHandler>,
    calls: [] as Array<{ method: string; path: string; body: unknown; search: string }>,
  };
  beforeEach(() => {
    state.calls = [];
    state.routes = {};
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init?: RequestInit) => {
        const { pathname: path, search } = new URL(url, 'http://app.test');
        const method = init?.method ?? 'GET';
        state.calls.push({ method, path, search, body: init?.body ? JSON.parse(String(init.body)) : undefined });
        const handler = state.routes[`${method} ${path}`];
        if (!handler) return new Response(JSON.stringify({ success: false, message: 'Not found' }), { status: 404 });
        const { status = 200, body } = handler(init);
        return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
      }),
    );
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });
  return state;
}
