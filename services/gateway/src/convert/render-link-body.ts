import {
  AppError,
  ChartConvertBody,
  CodeConvertBody,
  HtmlConvertBody,
  isPrototypeKeyName,
  PrototypeKeyNames,
  RENDER_LINK_PARAMS,
  type RenderLinkKind,
  RenderLinkMessages,
  ScreenshotConvertBody,
  SvgConvertBody,
} from '@render/contracts';
import type { RenderPayload } from '@render/queue';
import type { FastifyRequest } from 'fastify';
import type { TObject } from 'typebox';
import { toChartRenderPayload } from './chart-input.ts';
import { prepareCodePayload } from './code-request.ts';
import { htmlPayload, svgPayload } from './markup-request.ts';
import { screenshotPayload } from './screenshot-request.ts';

/** Each kind's POST body schema: a link's query is read back into it and checked against it. */
export const LinkBodySchemas: Record<RenderLinkKind, TObject> = {
  html: HtmlConvertBody,
  svg: SvgConvertBody,
  chart: ChartConvertBody,
  code: CodeConvertBody,
  screenshot: ScreenshotConvertBody,
};

/** Fields of the POST bodies that a link cannot use: it answers the image itself, at once, cached for its ttl. */
const NOT_IN_LINKS = new Set(['output', 'outputType', 'cache', 'webhook']);
const RESERVED = new Set<string>(Object.values(RENDER_LINK_PARAMS));

type Schema = { type?: string | string[]; const?: unknown; anyOf?: Schema[]; oneOf?: Schema[] };

/** The JSON types a field's schema admits, or null for a schema that admits anything (a chart's data). */
function typesOf(schema: Schema | undefined): Set<string> | null {
  if (!schema) return null;
  if (schema.type !== undefined) return new Set(Array.isArray(schema.type) ? schema.type : [schema.type]);
  if (schema.const !== undefined) return new Set([typeof schema.const]);
  const options = schema.anyOf ?? schema.oneOf;
  if (!options) return null;
  const all = new Set<string>();
  for (const option of options) {
    const types = typesOf(option);
    if (!types) return null;
    for (const type of types) all.add(type);
  }
  return all;
}

/**
 * One parameter back to its field's value: a string field takes the text as it is; any other field its JSON
 * (numbers, booleans, objects, arrays); a field that admits a string and something else takes the JSON when it
 * is not a string, else the text. Text that is not JSON is kept as text, so the schema refuses it with the
 * field's own message, as the POST call would.
 */
function decodeValue(value: string, schema: Schema | undefined): unknown {
  const types = typesOf(schema);
  if (types && types.size === 1 && types.has('string')) return value;
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    return value;
  }
  if (types?.has('string') && typeof parsed === 'string') return value;
  return parsed;
}

/** The POST body a link's query carries (its own parameters left out), before it is checked. */
export function decodeLinkBody(kind: RenderLinkKind, query: Record<string, string>): Record<string, unknown> {
  const properties = LinkBodySchemas[kind].properties as Record<string, Schema>;
  const body: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(query)) {
    if (RESERVED.has(name)) continue;
    if (isPrototypeKeyName(name)) {
      throw new AppError('VALIDATION_ERROR', `Query parameter "${name}" is not allowed: ${PrototypeKeyNames.join(', ')} are not fields`);
    }
    if (NOT_IN_LINKS.has(name)) throw new AppError('VALIDATION_ERROR', RenderLinkMessages.notInLinks);
    body[name] = decodeValue(value, Object.hasOwn(properties, name) ? properties[name] : undefined);
  }
  return body;
}

/**
 * Checks a decoded body against the kind's POST schema with the route's own validator (the same Ajv options:
 * no coercion, defaults filled in), and refuses it as Fastify refuses a POST body: the same 400 and messages.
 */
export function checkLinkBody(request: FastifyRequest, kind: RenderLinkKind, body: Record<string, unknown>): void {
  const validate = request.compileValidationSchema(LinkBodySchemas[kind], 'body');
  if (validate(body)) return;
  throw Object.assign(new Error('body validation failed'), {
    validation: validate.errors ?? [],
    validationContext: 'body',
    statusCode: 400,
  });
}

/** Each kind's job payload from its checked body, as its POST call builds it (render links and batch items). */
export const payloadOf = (kind: RenderLinkKind, body: Record<string, unknown>): RenderPayload<RenderLinkKind> => {
  switch (kind) {
    case 'html':
      return htmlPayload(body as HtmlConvertBody);
    case 'svg':
      return svgPayload(body as SvgConvertBody);
    case 'chart':
      return toChartRenderPayload(body as ChartConvertBody);
    case 'code':
      return prepareCodePayload(body as CodeConvertBody);
    case 'screenshot':
      return screenshotPayload(body as ScreenshotConvertBody);
  }
};
