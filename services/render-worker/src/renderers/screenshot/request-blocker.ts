import type { CDPSession } from 'puppeteer-core';
import { defaultScreenshotFilters } from './block-lists.ts';
import { type BlockCategory, type HostRule, matchingRule, type TrackerFilters } from './tracker-filters.ts';

export type { BlockCategory };

/**
 * The rule that refuses a request to `url` for the chosen categories, if any (see block-lists.ts for the
 * lists; by default the worker's configured ones). The page's own host is never refused, so a capture of a listed site still loads its document.
 */
export function blockingRule(
  url: string,
  categories: readonly BlockCategory[],
  pageHost: string,
  type?: string,
  filters: TrackerFilters = defaultScreenshotFilters().network,
): HostRule | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:' && parsed.protocol !== 'ws:' && parsed.protocol !== 'wss:') {
    return undefined;
  }
  const host = parsed.hostname.toLowerCase().replace(/\.$/, '');
  const page = pageHost.toLowerCase().replace(/\.$/, '');
  if (host === page || !categories.length) return undefined;
  const rest = `${parsed.port ? `:${parsed.port}` : ''}${parsed.pathname}${parsed.search}`;
  return matchingRule(filters, { host, rest, ...(type ? { type } : {}), pageHost: page }, categories);
}

export function isBlockedRequest(
  url: string,
  categories: readonly BlockCategory[],
  pageHost: string,
  type?: string,
  filters?: TrackerFilters,
): boolean {
  return blockingRule(url, categories, pageHost, type, filters) !== undefined;
}

interface RequestPaused {
  requestId: string;
  request: { url: string };
  resourceType?: string;
}

/**
 * Fails the page's requests matched by the lists with net::ERR_BLOCKED_BY_CLIENT before they leave the
 * browser. Every request is paused (DevTools Fetch; thousands of host patterns would cost Chromium more
 * than one Map walk per request here) and answered at once by `blockingRule`.
 */
export class RequestBlocker {
  blocked = 0;

  private constructor(
    private readonly session: CDPSession,
    private readonly categories: readonly BlockCategory[],
    private readonly pageHost: string,
    private readonly filters: TrackerFilters,
  ) {}

  static async install(
    session: CDPSession,
    categories: readonly BlockCategory[],
    pageUrl: string,
    filters: TrackerFilters,
  ): Promise<RequestBlocker> {
    const blocker = new RequestBlocker(session, categories, new URL(pageUrl).hostname, filters);
    session.on('Fetch.requestPaused', blocker.onPaused);
    await session.send('Fetch.enable', { patterns: [{ urlPattern: '*' }] });
    return blocker;
  }

  dispose(): void {
    this.session.off('Fetch.requestPaused', this.onPaused);
  }

  private readonly onPaused = (event: RequestPaused) => {
    const block = isBlockedRequest(event.request.url, this.categories, this.pageHost, event.resourceType, this.filters);
    if (block) this.blocked++;
    const answer = block
      ? this.session.send('Fetch.failRequest', { requestId: event.requestId, errorReason: 'BlockedByClient' })
      : this.session.send('Fetch.continueRequest', { requestId: event.requestId });
    answer.catch(() => undefined);
  };
}
