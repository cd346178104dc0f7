// Batches (issue 30 §5): up to `BatchLimits.maxItems` render requests of any kind in one call, with shared
// defaults, rendered in the background through the same queues and billing as single renders; the status of
// each item, a zip of the finished ones, and one signed webhook when the whole batch has ended.
import { type Static, Type } from 'typebox';
import { StringEnum, withMessages } from './schema-helpers.ts';
import { RenderFailure, webhookField } from './webhook.ts';

export const BatchLimits = {
  maxItems: 50,
  /** Items of one batch rendered at the same time (the batch holds one of the account's in-flight slots). */
  parallel: 4,
} as const;

/**
 * The render kinds a batch item may be: the convert calls (`POST /api/<kind>…/convert`), and `template`, a
 * stored template filled and rendered as `POST /api/template/generate` does.
 */
export const BatchItemKinds = ['html', 'svg', 'chart', 'code', 'screenshot', 'template'] as const;
export type BatchItemKind = (typeof BatchItemKinds)[number];

/** Fields of a convert body that an item cannot use: the batch answers 202, keeps the images and calls one webhook. */
export const BATCH_ITEM_EXCLUDED_FIELDS = ['output', 'outputType', 'cache', 'webhook'] as const;

export const BatchMessages = {
  itemsRequired: 'items is required: a list of 1 to 50 render requests, each { "kind", "body" }',
  tooMany: `A batch holds at most ${BatchLimits.maxItems} items`,
  kind: 'Each item’s kind must be one of html, svg, chart, code, screenshot, template',
  body: 'Each item’s body must be a JSON object (the fields of its kind’s convert call)',
  defaults: 'defaults must be a JSON object (fields merged into every item’s body)',
  notFound: 'Batch not found',
  notFinished: 'The batch is not finished yet: the archive is ready once every item has ended (see GET /api/batches/{id})',
  noImages: 'No item of the batch produced an image: the archive would be empty (see each item’s error in GET /api/batches/{id})',
  unavailable: 'Batches are unavailable right now; please retry shortly',
  ended: 'The batch has already ended: there is nothing left to cancel',
} as const;

/** `items[3]`: where an item's problem is, in every message about it. */
export const batchItemPath = (index: number) => `items[${index}]`;

const JsonObject = (description: string, message: string) =>
  withMessages(Type.Object({}, { additionalProperties: true, description }), { type: message, required: message });

export const BatchItem = Type.Object(
  {
    kind: withMessages(StringEnum(BatchItemKinds, { description: 'Which convert call the body is for' }), {
      required: BatchMessages.kind,
      type: BatchMessages.kind,
      enum: BatchMessages.kind,
    }),
    body: JsonObject(
      'The body of that convert call (defaults merged under it), or for a template { templateId, variables, format, quality }; output, outputType, cache and webhook do not apply',
      BatchMessages.body,
    ),
  },
  { additionalProperties: false },
);
export type BatchItem = Static<typeof BatchItem>;

export const BatchBody = Type.Object(
  {
    items: withMessages(
      Type.Array(BatchItem, {
        minItems: 1,
        maxItems: BatchLimits.maxItems,
        description: `1 to ${BatchLimits.maxItems} render requests; each is checked by its kind's schema before anything is queued or charged`,
      }),
      { required: BatchMessages.itemsRequired, type: BatchMessages.itemsRequired, maxLength: BatchMessages.tooMany },
    ),
    defaults: Type.Optional(
      JsonObject(
        'Fields merged into every item’s body (an item’s own fields win), e.g. { "format": "webp", "width": 800 }',
        BatchMessages.defaults,
      ),
    ),
    webhook: webhookField(),
  },
  { additionalProperties: false },
);
export type BatchBody = Static<typeof BatchBody>;

/** `cancelling`: a cancel was asked while items were rendering (they finish); `done` and `cancelled` have ended. */
export const BatchStatuses = ['queued', 'running', 'cancelling', 'done', 'cancelled'] as const;
export type BatchStatus = (typeof BatchStatuses)[number];
/** The statuses of a batch that has ended: its archive is ready, its webhook queued, it cannot be cancelled. */
export const BatchEndStatuses = ['done', 'cancelled'] as const;
export type BatchEndStatus = (typeof BatchEndStatuses)[number];
export const BatchItemStatuses = ['queued', 'running', 'done', 'failed', 'cancelled'] as const;
export type BatchItemStatus = (typeof BatchItemStatuses)[number];

// A pattern, not `format: 'uuid'`, as the render ids (the queue's compiled checks are kept free of formats).
const BatchId = Type.String({ pattern: '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$', description: 'The batch id' });
export const BatchIdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100, description: 'The batch id' }) });

export const BatchAccepted = Type.Object(
  {
    success: Type.Literal(true),
    data: Type.Object({
      id: BatchId,
      status: StringEnum(BatchStatuses),
      items: Type.Integer({ description: 'How many items the batch holds' }),
      credits: Type.Integer({ description: 'Credits reserved for the batch (each failed item’s are given back)' }),
      statusUrl: Type.String({ description: 'Where to poll the status: /api/batches/{id}' }),
      archiveUrl: Type.String({ description: 'The zip of the finished images, once the batch is done: /api/batches/{id}/archive' }),
    }),
  },
  { $id: 'BatchAccepted', description: 'Accepted: the items render in the background; the webhook (if any) is called once all have ended' },
);
export type BatchAccepted = Static<typeof BatchAccepted>;

export const BatchItemView = Type.Object({
  index: Type.Integer({ description: 'The item’s place in `items` (from 0)' }),
  kind: StringEnum(BatchItemKinds),
  format: Type.String({ description: 'The output format asked for' }),
  status: StringEnum(BatchItemStatuses, {
    description:
      'queued, running, done (in the archive), failed (see error; its credits were given back) or cancelled (never started; its credits were given back)',
  }),
  contentType: Type.Optional(Type.String({ description: 'The media type of the image made' })),
  size: Type.Optional(Type.Integer({ description: 'image size in bytes' })),
  width: Type.Optional(Type.Integer()),
  height: Type.Optional(Type.Integer()),
  file: Type.Optional(Type.String({ description: 'The item’s file name in the archive' })),
  error: Type.Optional(RenderFailure),
});
export type BatchItemView = Static<typeof BatchItemView>;

export const BatchView = Type.Object({
  id: BatchId,
  status: StringEnum(BatchStatuses, {
    description:
      'queued (accepted), running (items rendering), cancelling (cancel asked; items already rendering finish), done (every item has ended) or cancelled (ended after a cancel)',
  }),
  total: Type.Integer(),
  done: Type.Integer({ description: 'Items with an image' }),
  failed: Type.Integer({ description: 'Items that failed (not charged)' }),
  cancelled: Type.Integer({ description: 'Items cancelled before they started (not charged)' }),
  createdAt: Type.String({ format: 'date-time' }),
  cancelledAt: Type.Optional(Type.String({ format: 'date-time', description: 'When the cancel was asked' })),
  finishedAt: Type.Optional(Type.String({ format: 'date-time' })),
  expiresAt: Type.String({ format: 'date-time', description: 'When the batch and its images are forgotten' }),
  archiveUrl: Type.Optional(Type.String({ description: 'GET it (with the same credentials) for the zip, once done or cancelled' })),
  items: Type.Array(BatchItemView),
});
export type BatchView = Static<typeof BatchView>;

export const BatchResponse = Type.Object({ success: Type.Literal(true), data: BatchView }, { $id: 'BatchResponse' });
export type BatchResponse = Static<typeof BatchResponse>;

/** The JSON body POSTed to a batch's webhook once every item has ended (signed as a render's), cancelled or not. */
export const BatchWebhookPayload = Type.Object(
  {
    id: BatchId,
    type: Type.Literal('batch'),
    status: StringEnum(BatchEndStatuses),
    total: Type.Integer(),
    done: Type.Integer(),
    failed: Type.Integer(),
    cancelled: Type.Integer(),
  },
  { $id: 'BatchWebhookPayload' },
);
export type BatchWebhookPayload = Static<typeof BatchWebhookPayload>;

/** A file name in the archive: the item's index (two digits, so names sort in order) and its format's extension. */
export function batchFileName(index: number, format: string): string {
  const extension = ({ jpeg: 'jpg', markdown: 'md', text: 'txt' } as Record<string, string>)[format] ?? format;
  return `${String(index).padStart(2, '0')}.${extension}`;
}
