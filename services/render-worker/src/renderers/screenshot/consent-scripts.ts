import type { HTTPRequest, Page } from 'puppeteer-core';

/**
 * Requests of consent platforms still in flight: while one loads, its popup may be about to appear, so the
 * capture gives the consent blocker the chance to deal with it (consent-blocker.ts `settle`). Hosts of the
 * hosted platforms (any request to them) and the file names of the self-hosted ones (scripts only).
 * Written for this project from the platforms' public integration snippets.
 */
const CONSENT_HOSTS = [
  'cookielaw.org', // OneTrust
  'onetrust.com',
  'cookiepro.com',
  'cookiebot.com',
  'cookiebot.eu',
  'privacy-center.org', // Didomi
  'didomi.io',
  'quantcast.com', // Quantcast Choice (cmp.quantcast.com)
  'consensu.org',
  'usercentrics.eu',
  'usercentrics.com',
  'trustarc.com',
  'truste.com',
  'privacy-mgmt.com', // Sourcepoint
  'sp-prod.net',
  'iubenda.com',
  'osano.com',
  'cookieyes.com',
  'cdn-cookieyes.com',
  'consentmanager.net',
  'consentmanager.de',
  'civiccomputing.com', // Civic Cookie Control
  'termly.io',
  'cookie-script.com',
  'cookiefirst.com',
  'cookiehub.net',
  'axept.io', // Axeptio
  'sirdata.com',
  'consentframework.com',
  'trustcommander.net', // Commanders Act
  'cookieinformation.com',
  'uniconsent.com',
  'fundingchoicesmessages.google.com', // Google's CMP
  'clickio.com',
  'cookiereports.com',
  'ketchjs.com',
  'transcend.io',
  'securiti.ai',
];

/** Self-hosted consent scripts by file name (OneTrust's stub, cookieconsent, Klaro, tarteaucitron, WordPress plugins…). */
const CONSENT_SCRIPT =
  /\/(?:otSDKStub|otBannerSdk|cookieconsent|cookie-consent|cookie_consent|cookiebot|klaro|tarteaucitron|cookie-law-info|cookie-notice|complianz|borlabs-cookie|gdpr-cookie|consent-banner|cmp)[\w.-]*\.js(?:[?#]|$)/i;

export function isConsentRequest(url: string, resourceType: string): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  const host = parsed.hostname.toLowerCase();
  if (CONSENT_HOSTS.some((suffix) => host === suffix || host.endsWith(`.${suffix}`))) return true;
  return resourceType === 'script' && CONSENT_SCRIPT.test(parsed.pathname);
}

/** Counts the page's consent-platform requests in flight; `onSettled` runs whenever one ends. */
export class ConsentRequests {
  private readonly inFlight = new Set<HTTPRequest>();
  onSettled: (() => void) | undefined;

  constructor(private readonly page: Page) {
    page.on('request', this.onRequest);
    page.on('requestfinished', this.onDone);
    page.on('requestfailed', this.onDone);
  }

  /** Any consent-platform request since the page was first watched (finished or not). */
  seen = false;

  get loading(): boolean {
    return this.inFlight.size > 0;
  }

  dispose(): void {
    this.page.off('request', this.onRequest);
    this.page.off('requestfinished', this.onDone);
    this.page.off('requestfailed', this.onDone);
    this.inFlight.clear();
  }

  private readonly onRequest = (request: HTTPRequest) => {
    if (!isConsentRequest(request.url(), request.resourceType())) return;
    this.inFlight.add(request);
    this.seen = true;
  };

  private readonly onDone = (request: HTTPRequest) => {
    if (this.inFlight.delete(request)) this.onSettled?.();
  };
}
