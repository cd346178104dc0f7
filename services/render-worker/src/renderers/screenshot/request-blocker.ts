import type { CDPSession } from 'puppeteer-core';
import blocklist from './blocklist.json' with { type: 'json' };

export type BlockCategory = 'ads' | 'trackers';

/** The shipped host lists (see blocklist.json for their source and date). */
export const BlockedHosts: Record<BlockCategory, readonly string[]> = { ads: blocklist.ads, trackers: blocklist.trackers };

/** The listed domain `host` is or is under, if any (a listed domain blocks its subdomains too). */
export function blockedBy(host: string, domains: readonly string[]): string | undefined {
  const name = host.toLowerCase().replace(/\.$/, '');
  return domains.find((domain) => name === domain || name.endsWith(`.${domain}`));
}

/**
 * Whether a request to `url` is refused for the chosen categories. The page's own host is never refused,
 * so a capture of a listed site still loads its document.
 */
export function isBlockedRequest(url: string, categories: readonly BlockCategory[], pageHost: string): boolean {
  let host: string;
  try {
    const parsed = new URL(url);
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:' && parsed.protocol !== 'ws:' && parsed.protocol !== 'wss:')
      return false;
    host = parsed.hostname;
  } catch {
    return false;
  }
  if (host.toLowerCase() === pageHost.toLowerCase()) return false;
  return categories.some((category) => blockedBy(host, BlockedHosts[category]) !== undefined);
}

interface RequestPaused {
  requestId: string;
  request: { url: string };
}

/**
 * Fails the page's requests to listed hosts with net::ERR_BLOCKED_BY_CLIENT before they leave the browser.
 * Only requests whose URL mentions a listed domain are paused (DevTools Fetch patterns); the exact host
 * decision is `isBlockedRequest`.
 */
export class RequestBlocker {
  blocked = 0;

  private constructor(
    private readonly session: CDPSession,
    private readonly categories: readonly BlockCategory[],
    private readonly pageHost: string,
  ) {}

  static async install(session: CDPSession, categories: readonly BlockCategory[], pageUrl: string): Promise<RequestBlocker> {
    const blocker = new RequestBlocker(session, categories, new URL(pageUrl).hostname);
    session.on('Fetch.requestPaused', blocker.onPaused);
    const domains = categories.flatMap((category) => BlockedHosts[category]);
    await session.send('Fetch.enable', { patterns: domains.map((domain) => ({ urlPattern: `*://*${domain}*` })) });
    return blocker;
  }

  dispose(): void {
    this.session.off('Fetch.requestPaused', this.onPaused);
  }

  private readonly onPaused = (event: RequestPaused) => {
    const block = isBlockedRequest(event.request.url, this.categories, this.pageHost);
    if (block) this.blocked++;
    const answer = block
      ? this.session.send('Fetch.failRequest', { requestId: event.requestId, errorReason: 'BlockedByClient' })
      : this.session.send('Fetch.continueRequest', { requestId: event.requestId });
    answer.catch(() => undefined);
  };
}
