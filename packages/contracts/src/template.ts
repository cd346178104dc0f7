import { type Static, Type } from 'typebox';
import { cacheField, dimension, ErrorResponse, formatMessages, optimizeField, outputFields, quality, SvgOutputFormats } from './render.ts';
import { StringEnum, withMessages } from './schema-helpers.ts';
import { webhookField } from './webhook.ts';

/** Limits of saved templates; the templates service, the gateway and the editor all read these. */
export const TemplateLimits = {
  nameMin: 2,
  nameMax: 100,
  /** Saved SVG size in bytes (UTF-8). Big enough for embedded logos, small enough to list 50 at a time. */
  svgMaxBytes: 512 * 1024,
  /**
   * Elements in a saved SVG. Sanitising walks a full DOM (DOMPurify over jsdom), whose cost follows the
   * element count more than the size: 512 KB of tiny elements would hold the service for seconds.
   */
  svgMaxElements: 10_000,
  maxVariables: 50,
  variableValueMax: 2048,
  searchMax: 100,
  pageSizeMax: 50,
  pageSizeDefault: 20,
} as const;

/** What the templates service refuses with (the gateway says the same for a path it will not pass on). */
export const TemplateMessages = {
  notFound: 'Template Not Found',
  notPermitted: 'You do not have permission to modify this template',
  publicFrozen: 'Public templates can no longer be edited; duplicate it to make changes',
  signInRequired: 'Please sign in to use templates',
} as const;

export const TemplateDefaults = { width: 800, height: 600, quality: 80, format: 'png' } as const;

export const TemplateVariableTypes = ['text', 'number', 'image'] as const;
export type TemplateVariableType = (typeof TemplateVariableTypes)[number];

/**
 * Query parameters of the signed image URL that are not variables; variables with these names would be
 * ambiguous in `GET /api/template/{id}/image?name=value&format=…&sig=…`, so they are refused at save time.
 */
export const ReservedVariableNames = ['format', 'quality', 'sig'] as const;

/**
 * Names a JavaScript object's prototype answers to: as keys of a variables object (a JSON body, a query
 * parsed into an object) they are refused by JSON parsers or read as the prototype, so no variable has one.
 */
export const PrototypeKeyNames = ['__proto__', 'constructor', 'prototype'] as const;
export const isPrototypeKeyName = (name: string) => (PrototypeKeyNames as readonly string[]).includes(name);

export const VARIABLE_NAME_PATTERN = '^[A-Za-z_][A-Za-z0-9_-]{0,63}$';

/** Text that is stored: Postgres cannot hold U+0000, so it is refused with the other input rules. */
export const NO_NUL_PATTERN = '^[^\\u0000]*$';

// Ajv reports a union's failure on the branch it tried first, so both branches carry the message.
const variableValue = (field: string) => {
  const messages = {
    type: `${field} must be a string or a number`,
    maxLength: `${field} must be at most ${TemplateLimits.variableValueMax} characters`,
    format: `${field} must not contain NUL (U+0000) characters`,
  };
  return Type.Union([
    withMessages(Type.String({ maxLength: TemplateLimits.variableValueMax, pattern: NO_NUL_PATTERN }), messages),
    withMessages(Type.Number(), messages),
  ]);
};

export const TemplateVariable = Type.Object(
  {
    name: withMessages(Type.String({ pattern: VARIABLE_NAME_PATTERN, description: 'Bound in the SVG as data-variable="name"' }), {
      required: 'Each variable needs a name',
      type: 'Variable names are strings',
      format: 'Variable names start with a letter or _ and contain only letters, digits, _ and - (at most 64)',
    }),
    type: withMessages(StringEnum(TemplateVariableTypes, { description: 'text and number replace the text; image sets <image> href' }), {
      required: 'Each variable needs a type: text, number or image',
      enum: 'Variable type must be one of: text, number, image',
      type: 'Variable type must be one of: text, number, image',
    }),
    defaultValue: Type.Optional(variableValue('defaultValue')),
  },
  { additionalProperties: true },
);
export type TemplateVariable = Static<typeof TemplateVariable>;

export const TemplateInput = Type.Object(
  {
    name: withMessages(Type.String({ minLength: TemplateLimits.nameMin, maxLength: TemplateLimits.nameMax, pattern: NO_NUL_PATTERN }), {
      required: 'Name is required',
      type: 'Name is required',
      format: 'Name must not contain NUL (U+0000) characters',
      minLength: `Name must be at least ${TemplateLimits.nameMin} characters`,
      maxLength: `Name must be at most ${TemplateLimits.nameMax} characters`,
    }),
    width: dimension('width', TemplateDefaults.width),
    height: dimension('height', TemplateDefaults.height),
    svg: withMessages(
      Type.String({
        minLength: 1,
        description:
          'The SVG document (root element <svg>, at most 512 KB and 10,000 elements); elements are bound with data-variable="name". Scripts, event handlers, external references and foreign content are removed when it is saved',
      }),
      {
        required: 'Please enter some SVG content',
        minLength: 'Please enter some SVG content',
        type: 'Please enter some SVG content',
      },
    ),
    variables: withMessages(Type.Array(TemplateVariable, { maxItems: TemplateLimits.maxVariables, default: [] }), {
      type: 'variables must be an array of { name, type, defaultValue }',
    }),
  },
  { $id: 'TemplateInput', additionalProperties: true },
);
export type TemplateInput = Static<typeof TemplateInput>;

export const TemplateView = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    name: Type.String(),
    width: Type.Integer(),
    height: Type.Integer(),
    svg: Type.String(),
    variables: Type.Array(Type.Object({ name: Type.String(), type: StringEnum(TemplateVariableTypes), defaultValue: Type.String() })),
    variablesCount: Type.Integer(),
    creatorName: Type.String(),
    isPublic: Type.Boolean(),
    /** Whether the caller owns it: the editor shows Edit / Delete / Make public only then. */
    isOwner: Type.Boolean(),
    starCount: Type.Integer(),
    isStarred: Type.Boolean(),
    createdAt: Type.String({ format: 'date-time' }),
    updatedAt: Type.String({ format: 'date-time' }),
  },
  { $id: 'TemplateView' },
);
export type TemplateView = Static<typeof TemplateView>;

export const TemplateResponse = Type.Object({ data: TemplateView }, { $id: 'TemplateResponse' });
export type TemplateResponse = Static<typeof TemplateResponse>;

export const Pagination = Type.Object({ page: Type.Integer(), pageSize: Type.Integer(), total: Type.Integer() });

export const TemplateListResponse = Type.Object(
  { data: Type.Array(TemplateView), pagination: Pagination },
  { $id: 'TemplateListResponse' },
);
export type TemplateListResponse = Static<typeof TemplateListResponse>;

export const TemplateListQuery = Type.Object(
  {
    q: withMessages(
      Type.Optional(
        Type.String({ maxLength: TemplateLimits.searchMax, pattern: NO_NUL_PATTERN, description: 'Text search in template names' }),
      ),
      {
        maxLength: `q must be at most ${TemplateLimits.searchMax} characters`,
        format: 'q must not contain NUL (U+0000) characters',
      },
    ),
    // Query strings are text and the API never coerces types, so numbers arrive as digit strings.
    page: Type.Optional(
      withMessages(Type.String({ pattern: '^[1-9][0-9]{0,5}$', description: 'Page number, from 1' }), {
        format: 'page must be a whole number of at least 1',
      }),
    ),
    pageSize: Type.Optional(
      withMessages(
        Type.String({
          pattern: '^(50|[1-4][0-9]|[1-9])$',
          description: `Templates per page, 1-${TemplateLimits.pageSizeMax} (default ${TemplateLimits.pageSizeDefault})`,
        }),
        { format: `pageSize must be a whole number between 1 and ${TemplateLimits.pageSizeMax}` },
      ),
    ),
  },
  { additionalProperties: true },
);
export type TemplateListQuery = Static<typeof TemplateListQuery>;

export const TemplateSortBy = ['date', 'stars'] as const;

export const PublicTemplateListQuery = Type.Object(
  {
    ...TemplateListQuery.properties,
    sortBy: Type.Optional(
      withMessages(StringEnum(TemplateSortBy, { default: 'date', description: 'date: newest first; stars: most starred first' }), {
        enum: 'sortBy must be one of: date, stars',
        type: 'sortBy must be one of: date, stars',
      }),
    ),
  },
  { additionalProperties: true },
);
export type PublicTemplateListQuery = Static<typeof PublicTemplateListQuery>;

export const TemplateIdParams = Type.Object({ id: Type.String({ maxLength: 64 }) });
export type TemplateIdParams = Static<typeof TemplateIdParams>;

export const TemplateVariableValues = withMessages(
  Type.Record(Type.String({ maxLength: 64 }), variableValue('Each variable value'), { maxProperties: TemplateLimits.maxVariables }),
  { type: 'variables must be an object of name → value' },
);

export const TemplateGenerateBody = Type.Object(
  {
    templateId: withMessages(Type.String({ minLength: 1, maxLength: 64 }), {
      required: 'templateId is required',
      minLength: 'templateId is required',
      type: 'templateId must be a string',
    }),
    variables: Type.Optional(TemplateVariableValues),
    ...outputFields(),
    cache: cacheField(),
    webhook: webhookField(),
    format: withMessages(StringEnum(SvgOutputFormats, { default: TemplateDefaults.format }), formatMessages(SvgOutputFormats)),
    quality: quality(TemplateDefaults.quality),
    optimize: optimizeField(),
  },
  { $id: 'TemplateGenerateBody', additionalProperties: true },
);
export type TemplateGenerateBody = Static<typeof TemplateGenerateBody>;

export const StarResponse = Type.Object({ data: Type.Object({ isStarred: Type.Boolean(), starCount: Type.Integer() }) });
export const SuccessResponse = Type.Object({ success: Type.Literal(true) });

export const templateErrorResponses = {
  400: ErrorResponse,
  401: ErrorResponse,
  403: ErrorResponse,
  404: ErrorResponse,
  503: ErrorResponse,
  504: ErrorResponse,
};
