import type { Page } from 'playwright-core';

declare global {
  interface Window {
    __layoutShift?: { total: number; sources: string[] };
  }
}

/**
 * Installed before any of the page's scripts: sums every layout shift not caused by recent input (what CLS counts;
 * the sum is never less than CLS's largest session window) and names the elements that moved.
 */
export function observeLayoutShift() {
  const record = { total: 0, sources: [] as string[] };
  window.__layoutShift = record;
  type Shift = PerformanceEntry & { value: number; hadRecentInput: boolean; sources?: Array<{ node?: Node | null }> };
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries() as Shift[]) {
      if (entry.hadRecentInput) continue;
      record.total += entry.value;
      for (const source of entry.sources ?? []) {
        const node = source.node as Element | null | undefined;
        record.sources.push(`${entry.value.toFixed(3)} ${node?.nodeName ?? '?'}${node?.id ? `#${node.id}` : ''}.${node?.className ?? ''}`);
      }
    }
  }).observe({ type: 'layout-shift', buffered: true });
}

/** The layout shift summed so far on the page (NaN when the observer was not installed). */
export const layoutShiftSoFar = (page: Page) => page.evaluate(() => window.__layoutShift ?? { total: Number.NaN, sources: [] as string[] });
