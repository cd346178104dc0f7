import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { UserView } from '@render/contracts';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { setApiBaseUrl } from '../src/lib/api-client.ts';
import { createSessionStore, REFRESH_INTERVAL_MS, TOKEN_KEY, USER_KEY } from '../src/lib/session/session.store.ts';
import { getStored, setStored } from '../src/lib/storage.ts';
import { adaUser } from './helpers/gateway-fake.ts';

const user: UserView = adaUser({ memberSince: '2026-11-01T00:00:00.000Z', apiKey: 'rk_live_x' });

// A real HTTP server standing in for the gateway's /api/auth/me and /api/auth/refresh.
let server: Server;
const calls: Array<{ url?: string; authorization?: string }> = [];
let meStatus = 200;
let refreshStatus = 200;

beforeAll(async () => {
  server = createServer((req, res) => {
    calls.push({ url: req.url, authorization: req.headers.authorization });
    const send = (status: number, body: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    if (req.url === '/api/auth/me') {
      if (meStatus === 200) send(200, { success: true, user: { ...user, name: 'Ada (fresh)' } });
      else send(meStatus, { success: false, message: 'Invalid or expired token', code: 'UNAUTHORIZED' });
    } else if (req.url === '/api/auth/refresh') {
      if (refreshStatus === 200) send(200, { success: true, token: 'token-2' });
      else send(refreshStatus, { success: false, message: 'Service unavailable', code: 'UNAVAILABLE' });
    } else send(404, {});
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  setApiBaseUrl(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
afterEach(() => {
  calls.length = 0;
  meStatus = 200;
  refreshStatus = 200;
  vi.useRealTimers();
});

describe('session store (docs/spec/states.md)', () => {
  it('starts signed out without a token, without calling the server', async () => {
    const store = createSessionStore();
    expect(store.getState().status).toBe('loading');
    await store.start();
    store.stop();
    expect(store.getState()).toEqual({ status: 'signedOut', token: null, user: null });
    expect(calls).toHaveLength(0);
  });

  it('fetches the profile at start and keeps the session with the fresh user', async () => {
    setStored(TOKEN_KEY, 'token-1');
    setStored(USER_KEY, user);
    const store = createSessionStore();
    await store.start();
    store.stop();
    expect(calls[0]).toEqual({ url: '/api/auth/me', authorization: 'Bearer token-1' });
    expect(store.getState()).toMatchObject({ status: 'signedIn', token: 'token-1', user: { name: 'Ada (fresh)' } });
    expect(getStored<UserView>(USER_KEY)?.name).toBe('Ada (fresh)');
  });

  it('signs out and clears storage when the profile check fails', async () => {
    meStatus = 401;
    setStored(TOKEN_KEY, 'revoked');
    setStored(USER_KEY, user);
    const store = createSessionStore();
    await store.start();
    store.stop();
    expect(store.getState().status).toBe('signedOut');
    expect(localStorage.getItem(TOKEN_KEY)).toBeNull();
    expect(localStorage.getItem(USER_KEY)).toBeNull();
  });

  it('treats an expired stored token as no session', async () => {
    setStored(TOKEN_KEY, 'old', 1000, Date.now() - 5000);
    const store = createSessionStore();
    await store.start();
    store.stop();
    expect(store.getState().status).toBe('signedOut');
    expect(calls).toHaveLength(0);
  });

  it('refreshes silently every 60 minutes and stores the new token', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    setStored(TOKEN_KEY, 'token-1');
    const store = createSessionStore();
    await store.start();
    expect(REFRESH_INTERVAL_MS).toBe(60 * 60 * 1000);
    vi.advanceTimersByTime(REFRESH_INTERVAL_MS - 1);
    expect(calls.some((call) => call.url === '/api/auth/refresh')).toBe(false);
    vi.advanceTimersByTime(1);
    await vi.waitFor(() => expect(store.getState().token).toBe('token-2'));
    store.stop();
    expect(calls.find((call) => call.url === '/api/auth/refresh')?.authorization).toBe('Bearer token-1');
    expect(getStored(TOKEN_KEY)).toBe('token-2');
  });

  it('only logs a failed refresh and keeps the session', async () => {
    refreshStatus = 503;
    const log = { warn: vi.fn() };
    setStored(TOKEN_KEY, 'token-1');
    const store = createSessionStore(log);
    await store.start();
    await store.refresh();
    store.stop();
    expect(log.warn).toHaveBeenCalledOnce();
    expect(store.getState()).toMatchObject({ status: 'signedIn', token: 'token-1' });
  });

  it('signs out on request: state and storage cleared, listeners told', async () => {
    const store = createSessionStore();
    await store.start();
    store.stop();
    store.signIn('token-9', user);
    const listener = vi.fn();
    store.subscribe(listener);
    store.signOut();
    expect(listener).toHaveBeenCalled();
    expect(store.getState().status).toBe('signedOut');
    expect(localStorage.getItem(TOKEN_KEY)).toBeNull();
  });
});
