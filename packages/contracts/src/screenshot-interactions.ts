import { Type } from 'typebox';
import { withMessages } from './schema-helpers.ts';

/**
 * The screenshot options that act on the page before the capture (hide, click, scroll), set what the page
 * sees (time zone, position), refuse some of its requests, or fail the render instead of capturing a broken
 * page (an error status, a console error). Declared apart from screenshot.ts so the body only spreads them in.
 */
export const ScreenshotInteractionLimits = {
  maxHideSelectors: 50,
  maxClickSelectors: 10,
  /** Same bound as the body's other selectors (ScreenshotLimits.maxSelectorLength). */
  maxSelectorLength: 512,
  maxScrollY: 100_000,
  maxTimezoneLength: 64,
  maxFailStatuses: 200,
  maxBlockPatterns: 50,
  maxBlockPatternLength: 2048,
  /** How much of a console error the failOnConsoleError answer quotes. */
  maxConsoleErrorQuote: 200,
  maxAccuracyMetres: 100_000,
  defaultAccuracyMetres: 100,
} as const;

const L = ScreenshotInteractionLimits;

/** Fixed sentences of these options (catalogued in message-catalog.ts, group `screenshotOption`). */
export const ScreenshotInteractionMessages = {
  hideSelectors: `hideSelectors must be a list of at most ${L.maxHideSelectors} CSS selectors`,
  click: `click must be a list of at most ${L.maxClickSelectors} CSS selectors, clicked in order`,
  selectorType: 'Each selector must be a string (a CSS selector)',
  selectorEmpty: 'A selector must not be empty',
  selectorTooLong: `A selector must be at most ${L.maxSelectorLength} characters`,
  scrollTo: `scrollTo must be a CSS selector or a y offset in CSS pixels between 0 and ${L.maxScrollY}`,
  timezone: 'timezone must be an IANA time zone name, e.g. Europe/Paris',
  geolocation: 'geolocation must be an object { latitude, longitude, accuracy }',
  latitude: 'geolocation.latitude must be a number between -90 and 90',
  longitude: 'geolocation.longitude must be a number between -180 and 180',
  accuracy: `geolocation.accuracy must be a number of metres between 0 and ${L.maxAccuracyMetres}`,
  failOnHttpStatus: `failOnHttpStatus must be a list of at most ${L.maxFailStatuses} HTTP status codes between 400 and 599`,
  failOnConsoleError: 'failOnConsoleError must be true or false',
  blockRequests: `blockRequests must be a list of at most ${L.maxBlockPatterns} URL patterns`,
  blockPatternLength: `A URL pattern must be between 1 and ${L.maxBlockPatternLength} characters`,
  blockPatternForm: 'A URL pattern must start with http://, https:// or *',
  blockPatternPage: 'blockRequests must not match the page’s own URL',
} as const;

const M = ScreenshotInteractionMessages;

const selectorItem = (description: string) =>
  withMessages(Type.String({ minLength: 1, maxLength: L.maxSelectorLength, description }), {
    type: M.selectorType,
    minLength: M.selectorEmpty,
    maxLength: M.selectorTooLong,
  });

const selectorList = (max: number, message: string, description: string, item: string) =>
  Type.Optional(
    withMessages(Type.Array(selectorItem(item), { maxItems: max, description }), {
      type: message,
      maxLength: message,
    }),
  );

const coordinate = (name: 'latitude' | 'longitude', bound: number) =>
  withMessages(
    Type.Number({ minimum: -bound, maximum: bound, description: `${name === 'latitude' ? 'Latitude' : 'Longitude'} in degrees` }),
    {
      type: M[name],
      range: M[name],
      required: M.geolocation,
    },
  );

const scrollMessages = { type: M.scrollTo, range: M.scrollTo, minLength: M.scrollTo, maxLength: M.scrollTo };

/** The fields, spread into ScreenshotConvertBody (all optional: absent, the page is left as it loads). */
export const screenshotInteractionFields = () => ({
  hideSelectors: selectorList(
    L.maxHideSelectors,
    M.hideSelectors,
    `Elements to hide before the capture (display: none), by CSS selector (at most ${L.maxHideSelectors}); also those that appear later. A selector that matches nothing is not an error`,
    'A CSS selector of elements to hide',
  ),
  click: selectorList(
    L.maxClickSelectors,
    M.click,
    `Elements to click after the page has loaded, in order, by CSS selector (at most ${L.maxClickSelectors}; the first match of each). ` +
      'A selector that matches nothing, or an element that cannot be clicked, fails the render (422) naming it. The page is scrolled back where it was; use delay for what a click loads',
    'A CSS selector of the element to click',
  ),
  scrollTo: Type.Optional(
    withMessages(
      Type.Union(
        [
          withMessages(Type.Integer({ minimum: 0, maximum: L.maxScrollY, description: 'A vertical offset in CSS pixels' }), scrollMessages),
          withMessages(
            Type.String({
              minLength: 1,
              maxLength: L.maxSelectorLength,
              description: 'A CSS selector: its first match is scrolled to the top',
            }),
            scrollMessages,
          ),
        ],
        {
          description:
            'Scroll before the capture (after the clicks): to a y offset in CSS pixels, or to the first element matching a CSS selector (422 when none does). ' +
            'Moves what a viewport capture shows; a full page is captured from its top',
        },
      ),
      scrollMessages,
    ),
  ),
  timezone: Type.Optional(
    withMessages(
      Type.String({
        minLength: 1,
        maxLength: L.maxTimezoneLength,
        pattern: '^[A-Za-z][A-Za-z0-9_+-]*(/[A-Za-z0-9_+-]+){0,2}$',
        description: 'The time zone the page sees (Date, Intl), as an IANA name such as Europe/Paris or America/New_York',
      }),
      { type: M.timezone, minLength: M.timezone, maxLength: M.timezone, format: M.timezone },
    ),
  ),
  geolocation: Type.Optional(
    withMessages(
      Type.Object(
        {
          latitude: coordinate('latitude', 90),
          longitude: coordinate('longitude', 180),
          accuracy: Type.Optional(
            withMessages(
              Type.Number({
                minimum: 0,
                maximum: L.maxAccuracyMetres,
                description: `Accuracy in metres (default ${L.defaultAccuracyMetres})`,
              }),
              { type: M.accuracy, range: M.accuracy },
            ),
          ),
        },
        {
          additionalProperties: false,
          description: 'The position navigator.geolocation reports; the permission is granted to the page’s own origin only',
        },
      ),
      { type: M.geolocation, required: M.geolocation },
    ),
  ),
  failOnHttpStatus: Type.Optional(
    withMessages(
      Type.Array(
        withMessages(Type.Integer({ minimum: 400, maximum: 599, description: 'An HTTP status code' }), {
          type: M.failOnHttpStatus,
          range: M.failOnHttpStatus,
        }),
        {
          maxItems: L.maxFailStatuses,
          description:
            'HTTP statuses of the page’s own answer (after redirects) that fail the render (422 naming the status, no credit used) instead of capturing an error page, e.g. [404, 500]',
        },
      ),
      { type: M.failOnHttpStatus, maxLength: M.failOnHttpStatus },
    ),
  ),
  failOnConsoleError: Type.Optional(
    withMessages(
      Type.Boolean({
        description:
          'true: a console.error or an uncaught error in the page fails the render (422 quoting the first one, no credit used) instead of capturing. Default false',
      }),
      { type: M.failOnConsoleError },
    ),
  ),
  blockRequests: Type.Optional(
    withMessages(
      Type.Array(
        withMessages(Type.String({ minLength: 1, maxLength: L.maxBlockPatternLength, description: 'A URL pattern' }), {
          type: M.blockPatternLength,
          minLength: M.blockPatternLength,
          maxLength: M.blockPatternLength,
        }),
        {
          maxItems: L.maxBlockPatterns,
          description:
            `Requests of the page to refuse in the browser, as URL patterns matched against the whole URL, * for any characters (at most ${L.maxBlockPatterns}), ` +
            'e.g. *.mp4, https://cdn.example.com/* or *://*/analytics.js*. The requests left go through the egress policy as usual',
        },
      ),
      { type: M.blockRequests, maxLength: M.blockRequests },
    ),
  ),
});

/** Whether `url` matches `pattern` as blockRequests reads it: the whole URL, `*` for any characters (none other is special). */
export function urlPatternMatches(pattern: string, url: string): boolean {
  const parts = pattern.split('*');
  if (parts.length === 1) return pattern === url;
  const first = parts[0] ?? '';
  const last = parts[parts.length - 1] ?? '';
  if (!url.startsWith(first) || url.length < first.length + last.length || !url.endsWith(last)) return false;
  let at = first.length;
  const end = url.length - last.length;
  for (const part of parts.slice(1, -1)) {
    const found = url.indexOf(part, at);
    if (found === -1 || found + part.length > end) return false;
    at = found + part.length;
  }
  return true;
}

/** Whether the JavaScript engine knows `name` as a time zone (IANA names and their aliases; no bare offsets). */
export function isKnownTimezone(name: string): boolean {
  if (!/^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+){0,2}$/.test(name)) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}
