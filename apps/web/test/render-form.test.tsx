import { act, renderHook } from '@testing-library/react';
import i18next from 'i18next';
import { toast } from 'sonner';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { failureToShow, onCtrlEnter, useRenderRun } from '../src/components/render-form/use-render-run.ts';
import { ApiError, ErrorTexts } from '../src/lib/api-client.ts';

// Loaded first, so the hooks' translations do not suspend.
beforeAll(() => i18next.loadNamespaces(['messages', 'errors']));
afterEach(() => vi.restoreAllMocks());

/** A promise settled from outside, so a test holds a render in flight. */
function deferred() {
  let resolve!: () => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe('failureToShow (docs/spec/errors.md)', () => {
  it('keeps the server’s own message and the connection message, else says the page’s failure', () => {
    const own = new ApiError('Invalid SVG', 400);
    const offline = new ApiError(ErrorTexts.noResponse, 0);
    expect(failureToShow(own, 'Failed to generate image')).toBe(own);
    expect(failureToShow(offline, 'Failed to generate image')).toBe(offline);
    expect(failureToShow(new ApiError(ErrorTexts.generic, 500), 'Failed to generate image')).toBe('Failed to generate image');
    expect(failureToShow(new TypeError('boom'), 'Failed to convert HTML')).toBe('Failed to convert HTML');
  });
});

describe('useRenderRun', () => {
  it('is busy while the latest run works, and a new run aborts the one before', async () => {
    const { result } = renderHook(() => useRenderRun('Failed to generate image'));
    const first = deferred();
    const second = deferred();
    let firstSignal: AbortSignal | undefined;
    let one!: Promise<void>;
    let two!: Promise<void>;
    act(() => {
      one = result.current.run(async (current) => {
        firstSignal = current.signal;
        await first.promise;
      });
    });
    expect(result.current.busy).toBe(true);
    act(() => {
      two = result.current.run(() => second.promise);
    });
    expect(firstSignal?.aborted).toBe(true);
    // The aborted run ending does not end the busy state of the one that replaced it.
    await act(async () => {
      first.resolve();
      await one;
    });
    expect(result.current.busy).toBe(true);
    await act(async () => {
      second.resolve();
      await two;
    });
    expect(result.current.busy).toBe(false);
  });

  it('says a failure in a toast, the page’s text for a bare server error, and nothing for an abort', async () => {
    const error = vi.spyOn(toast, 'error').mockImplementation(() => 1);
    const { result } = renderHook(() => useRenderRun('Failed to generate image'));
    await act(() =>
      result.current.run(async () => {
        throw new ApiError(ErrorTexts.generic, 500);
      }),
    );
    expect(error).toHaveBeenCalledWith('Failed to generate image');
    await act(() =>
      result.current.run(async () => {
        throw new ApiError('SVG too large', 413);
      }),
    );
    expect(error).toHaveBeenLastCalledWith('SVG too large');
    await act(() =>
      result.current.run(async () => {
        throw new DOMException('aborted', 'AbortError');
      }),
    );
    expect(error).toHaveBeenCalledTimes(2);
    expect(result.current.busy).toBe(false);
  });

  it('aborts the run in flight when the component goes away', () => {
    const { result, unmount } = renderHook(() => useRenderRun('Failed to generate image'));
    let signal: AbortSignal | undefined;
    act(() => {
      void result.current.run(async (current) => {
        signal = current.signal;
        await new Promise(() => undefined);
      });
    });
    unmount();
    expect(signal?.aborted).toBe(true);
  });
});

describe('onCtrlEnter', () => {
  it('runs the action on Ctrl+Enter or Cmd+Enter only', () => {
    const action = vi.fn();
    const handler = onCtrlEnter(action);
    const key = (init: { key: string; ctrlKey?: boolean; metaKey?: boolean }) =>
      ({ ctrlKey: false, metaKey: false, preventDefault: vi.fn(), ...init }) as unknown as Parameters<typeof handler>[0];
    handler(key({ key: 'Enter' }));
    handler(key({ key: 'a', ctrlKey: true }));
    expect(action).not.toHaveBeenCalled();
    const ctrl = key({ key: 'Enter', ctrlKey: true });
    handler(ctrl);
    handler(key({ key: 'Enter', metaKey: true }));
    expect(action).toHaveBeenCalledTimes(2);
    expect(ctrl.preventDefault).toHaveBeenCalled();
  });
});
