import { act, renderHook } from '@testing-library/react';
import i18next from 'i18next';
import { toast } from 'sonner';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { useBusyAction } from '../src/features/auth/use-busy-action.ts';
import { ApiError } from '../src/lib/api-client.ts';

// Loaded first, so the hook's translations do not suspend.
beforeAll(() => i18next.loadNamespaces(['messages', 'errors']));
afterEach(() => vi.restoreAllMocks());

describe('useBusyAction', () => {
  it('is busy until the work (and what it awaits) is done', async () => {
    const { result } = renderHook(() => useBusyAction());
    let finish!: () => void;
    let running!: Promise<void>;
    act(() => {
      running = result.current.run(() => new Promise<void>((resolve) => (finish = resolve)));
    });
    expect(result.current.busy).toBe(true);
    await act(async () => {
      finish();
      await running;
    });
    expect(result.current.busy).toBe(false);
  });

  it('toasts the server’s message, unless the screen handles the failure itself', async () => {
    const error = vi.spyOn(toast, 'error').mockImplementation(() => 1);
    const { result } = renderHook(() => useBusyAction());
    await act(() =>
      result.current.run(async () => {
        throw new ApiError('Invalid email or password', 401);
      }),
    );
    expect(error).toHaveBeenCalledWith('Invalid email or password');
    const own = vi.fn();
    await act(() =>
      result.current.run(async () => {
        throw new ApiError('Please verify your email', 403);
      }, own),
    );
    expect(own).toHaveBeenCalledWith(expect.any(ApiError));
    expect(error).toHaveBeenCalledTimes(1);
    expect(result.current.busy).toBe(false);
  });
});
