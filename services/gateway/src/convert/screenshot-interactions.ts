import {
  AppError,
  isKnownTimezone,
  ScreenshotInteractionMessages as Messages,
  type ScreenshotConvertBody,
  ScreenshotInteractionLimits,
  type ScreenshotRenderPayload,
  urlPatternMatches,
} from '@render/contracts';

const invalid = (message: string) => new AppError('VALIDATION_ERROR', message);

function selectors(list: string[] | undefined): string[] | undefined {
  if (list === undefined) return undefined;
  const trimmed = list.map((selector) => selector.trim());
  if (trimmed.some((selector) => !selector)) throw invalid(Messages.selectorEmpty);
  return trimmed.length ? trimmed : undefined;
}

/** blockRequests, checked: each pattern can match a web URL, and none refuses the page itself. */
function blockPatterns(patterns: string[] | undefined, url: string): string[] | undefined {
  if (!patterns?.length) return undefined;
  for (const pattern of patterns) {
    if (!/^(?:https?:\/\/|\*)/i.test(pattern)) throw invalid(Messages.blockPatternForm);
    if (urlPatternMatches(pattern, url)) throw invalid(Messages.blockPatternPage);
  }
  return [...new Set(patterns)];
}

/**
 * hideSelectors, click, scrollTo, timezone, geolocation, failOnHttpStatus, failOnConsoleError and
 * blockRequests: what the schema cannot check is checked here, so each bad value is a 400 before queueing.
 */
export function interactionOptions(body: ScreenshotConvertBody, payload: ScreenshotRenderPayload, url: string): void {
  const hide = selectors(body.hideSelectors);
  if (hide) payload.hideSelectors = hide;
  const click = selectors(body.click);
  if (click) payload.click = click;
  if (typeof body.scrollTo === 'number') payload.scrollTo = body.scrollTo;
  else if (body.scrollTo !== undefined) {
    const target = body.scrollTo.trim();
    if (!target) throw invalid(Messages.scrollTo);
    payload.scrollTo = target;
  }
  if (body.timezone !== undefined) {
    if (!isKnownTimezone(body.timezone)) throw invalid(Messages.timezone);
    payload.timezone = body.timezone;
  }
  if (body.geolocation) {
    const { latitude, longitude, accuracy } = body.geolocation;
    payload.geolocation = { latitude, longitude, accuracy: accuracy ?? ScreenshotInteractionLimits.defaultAccuracyMetres };
  }
  if (body.failOnHttpStatus?.length) payload.failOnHttpStatus = [...new Set(body.failOnHttpStatus)].sort((a, b) => a - b);
  if (body.failOnConsoleError === true) payload.failOnConsoleError = true;
  const block = blockPatterns(body.blockRequests, url);
  if (block) payload.blockRequests = block;
}
