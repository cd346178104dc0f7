import { useSyncExternalStore } from 'react';

const never = () => () => {};

/**
 * The page's origin for the snippets a reader copies. A prerendered page was drawn with no origin
 * (relative URLs), so hydration reads that and the origin follows right after; a client render reads it at once.
 */
export function useOrigin(): string {
  return useSyncExternalStore(
    never,
    () => window.location.origin,
    () => '',
  );
}
