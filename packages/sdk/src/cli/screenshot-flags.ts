import { UsageError } from './inputs.ts';

/** The screenshot command's flags for page interactions and loud failures (parseArgs options, spread into the CLI's). */
export const SCREENSHOT_INTERACTION_OPTIONS = {
  hide: { type: 'string', multiple: true },
  click: { type: 'string', multiple: true },
  'scroll-to': { type: 'string' },
  timezone: { type: 'string' },
  geolocation: { type: 'string' },
  block: { type: 'string', multiple: true },
  'fail-on-status': { type: 'string' },
  'fail-on-console-error': { type: 'boolean' },
} as const;

export const SCREENSHOT_INTERACTION_HELP = `  --hide <selector>            hide the matching elements before the capture (repeat)
  --click <selector>           click the first match after the load, in order (repeat)
  --scroll-to <selector|y>     scroll to an element or a y offset before the capture
  --timezone <name>            the page's time zone, e.g. Europe/Paris
  --geolocation <lat,lon[,m]>  the position the page reads (accuracy in metres)
  --block <pattern>            refuse requests whose URL matches, * for any characters (repeat)
  --fail-on-status <codes>     e.g. 404,500: fail (no credit used) instead of capturing an error page
  --fail-on-console-error      fail when the page logs an error`;

interface InteractionFlags {
  hide?: string[];
  click?: string[];
  'scroll-to'?: string;
  timezone?: string;
  geolocation?: string;
  block?: string[];
  'fail-on-status'?: string;
  'fail-on-console-error'?: boolean;
}

function numbers(raw: string, flag: string, expected: string): number[] {
  const parts = raw.split(',').map((part) => part.trim());
  const values = parts.map(Number);
  if (parts.some((part) => part === '') || values.some((value) => !Number.isFinite(value)))
    throw new UsageError(`--${flag} takes ${expected} (got "${raw}")`);
  return values;
}

/** Body fields of those flags; the API checks the values and says what is wrong. */
export function screenshotInteractionFields(values: InteractionFlags): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  if (values.hide?.length) fields.hideSelectors = values.hide;
  if (values.click?.length) fields.click = values.click;
  const scroll = values['scroll-to'];
  if (scroll !== undefined) fields.scrollTo = /^\d+$/.test(scroll.trim()) ? Number(scroll.trim()) : scroll;
  if (values.timezone !== undefined) fields.timezone = values.timezone;
  if (values.geolocation !== undefined) {
    const position = numbers(values.geolocation, 'geolocation', 'latitude,longitude[,accuracy]');
    if (position.length < 2 || position.length > 3)
      throw new UsageError(`--geolocation takes latitude,longitude[,accuracy] (got "${values.geolocation}")`);
    const [latitude, longitude, accuracy] = position;
    fields.geolocation = { latitude, longitude, ...(accuracy === undefined ? {} : { accuracy }) };
  }
  if (values.block?.length) fields.blockRequests = values.block;
  if (values['fail-on-status'] !== undefined)
    fields.failOnHttpStatus = numbers(values['fail-on-status'], 'fail-on-status', 'status codes separated by commas, e.g. 404,500');
  if (values['fail-on-console-error']) fields.failOnConsoleError = true;
  return fields;
}
