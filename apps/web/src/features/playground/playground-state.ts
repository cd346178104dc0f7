import { checkFields, OutputDefault, parseScreenshotUrl, parseWebhookUrl, WebhookMessages } from '@render/contracts';
import type { FieldDef, PlaygroundDefinition, Values } from './playground-definitions.ts';

export type Problems = Record<string, string>;

/** docs/spec/validation.md JSON messages: chart data has its own wording, options name Highcharts' where it applies. */
function parseJsonField(field: FieldDef, text: string, library: unknown): { value?: unknown; problem?: string } {
  if (!text.trim()) return field.name === 'chartData' ? { problem: 'Please enter valid JSON chart data' } : {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    if (field.name === 'chartOptions' && library === 'highcharts') return { problem: 'Invalid chart options format' };
    return { problem: 'Invalid JSON format' };
  }
  if (field.name === 'chartData' && (value === null || typeof value !== 'object')) return { problem: 'Invalid chart data format' };
  if (field.name === 'chartOptions' && (value === null || typeof value !== 'object' || Array.isArray(value))) {
    return { problem: library === 'highcharts' ? 'Invalid chart options format' : 'Invalid JSON format' };
  }
  return { value };
}

function numberValue(text: string): number | string {
  const value = Number(text);
  // Left as text when it is not a number, so the contract answers its own "must be a number" message.
  return text.trim() !== '' && Number.isFinite(value) ? value : text;
}

/**
 * The request body for the current values (what the render call sends and the snippets show), and the
 * problems a user must fix first: JSON that does not parse, then the contract's own checks.
 */
export function buildRequest(
  definition: PlaygroundDefinition,
  values: Values,
  /** `webhook`: render in the background (signed-in callers only); kept out of `values` so shared links never carry it. */
  extra: { webhook?: string } = {},
): { body: Record<string, unknown>; problems: Problems } {
  let body: Record<string, unknown> = { ...(definition.fixed ?? {}) };
  const problems: Problems = {};
  const library = definition.fixed?.library ?? values.library;
  for (const field of definition.fields) {
    if (field.visible && !field.visible(values)) continue;
    const value = values[field.name];
    if (value === undefined) continue;
    if (field.kind === 'checkbox') body[field.name] = value === true;
    else if (typeof value !== 'string') continue;
    else if (field.kind === 'json') {
      const parsed = parseJsonField(field, value, library);
      if (parsed.problem) problems[field.name] = parsed.problem;
      else if (parsed.value !== undefined) body[field.name] = parsed.value;
    } else if (field.kind === 'number') {
      if (value.trim() !== '') body[field.name] = numberValue(value);
    } else if (field.kind === 'colors') {
      const colours = value
        .split(',')
        .map((c) => c.trim())
        .filter(Boolean);
      if (colours.length) body[field.name] = colours;
    } else if (field.kind === 'code') body[field.name] = value;
    else if (field.name === 'margin') {
      // One length for the four sides (the API takes each side on its own).
      const length = value.trim();
      if (length) body.margin = { top: length, right: length, bottom: length, left: length };
    } else if (value.trim() !== '') body[field.name] = field.name === 'height' ? numberValue(value) : value.trim();
  }
  if (definition.id === 'screenshot') {
    const parsed = parseScreenshotUrl(String(values.url ?? ''));
    if ('problem' in parsed) problems.url = parsed.problem;
  }
  if (definition.toBody) body = definition.toBody(body);
  const webhook = extra.webhook?.trim();
  if (webhook) {
    body.webhook = webhook;
    // The gateway parses the URL beyond the contract's pattern (no credentials in it, a host): say so here too.
    if (!parseWebhookUrl(webhook)) problems.webhook = WebhookMessages.invalid;
  }
  for (const [field, problem] of Object.entries(checkFields(definition.schema as never, body))) {
    const shownBy = definition.problemFields?.[field];
    problems[typeof shownBy === 'function' ? shownBy(problem) : (shownBy ?? field)] ??= problem;
  }
  return { body, problems };
}

/** The body without the values the API would use anyway: what a person would write by hand. */
export function minimalBody(definition: PlaygroundDefinition, body: Record<string, unknown>): Record<string, unknown> {
  const properties = ((definition.schema as { properties?: Record<string, { default?: unknown }> }).properties ?? {}) as Record<
    string,
    { default?: unknown }
  >;
  return Object.fromEntries(
    Object.entries(body).filter(([name, value]) => {
      // The two names of the output field carry no schema default (one would contradict the other): binary is.
      if ((name === 'output' || name === 'outputType') && value === OutputDefault) return false;
      const schemaDefault = properties[name]?.default;
      return schemaDefault === undefined || JSON.stringify(schemaDefault) !== JSON.stringify(value);
    }),
  );
}

// Shareable URLs: the values that differ from the page's defaults, as base64url JSON in `?o=`.
const toBase64Url = (text: string) =>
  btoa(String.fromCharCode(...new TextEncoder().encode(text)))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
const fromBase64Url = (text: string) =>
  new TextDecoder().decode(Uint8Array.from(atob(text.replace(/-/g, '+').replace(/_/g, '/')), (c) => c.charCodeAt(0)));

export function encodeValues(definition: PlaygroundDefinition, values: Values): string | undefined {
  const changed: Record<string, unknown> = Object.fromEntries(
    Object.entries(values).filter(([name, value]) => definition.defaults[name] !== value),
  );
  for (const [name, together] of Object.entries(definition.sharedTogether ?? {})) {
    if (!(name in changed)) continue;
    for (const other of together) if (values[other] !== undefined) changed[other] = values[other];
  }
  return Object.keys(changed).length ? toBase64Url(JSON.stringify(changed)) : undefined;
}

/** Reads `?o=` back: only this page's fields, with the type each one holds; anything else is ignored. */
export function decodeValues(definition: PlaygroundDefinition, encoded: unknown): Values {
  const values: Values = { ...definition.defaults };
  if (typeof encoded !== 'string' || !encoded) return values;
  let parsed: unknown;
  try {
    parsed = JSON.parse(fromBase64Url(encoded));
  } catch {
    return values;
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return values;
  const shared = definition.migrateShared
    ? definition.migrateShared(parsed as Record<string, unknown>)
    : (parsed as Record<string, unknown>);
  for (const field of definition.fields) {
    const value = shared[field.name];
    if (field.kind === 'checkbox' ? typeof value === 'boolean' : typeof value === 'string') values[field.name] = value as string | boolean;
  }
  return values;
}
