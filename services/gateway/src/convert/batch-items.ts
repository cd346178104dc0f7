import { AppError, BATCH_ITEM_EXCLUDED_FIELDS, type BatchBody, type BatchItemKind, batchItemPath, isAppError } from '@render/contracts';
import { type AjvError, fieldPath, validationMessage } from '@render/fastify-kit';
import type { RenderPayload } from '@render/queue';
import type { FastifyRequest } from 'fastify';
import { creditsOf } from '../billing/render-credits.ts';
import { LinkBodySchemas, payloadOf } from './render-link-body.ts';

/** A batch item checked and built: its job payload and the credits it costs. */
export interface PreparedItem {
  index: number;
  kind: BatchItemKind;
  payload: RenderPayload<BatchItemKind>;
  format: string;
  credits: number;
}

/** A refusal about item `index`: its message names the item (and the field), and so does its field error. */
function itemError(
  index: number,
  kind: BatchItemKind,
  message: string,
  field: string | undefined,
  code: AppError['code'] = 'VALIDATION_ERROR',
) {
  const where = batchItemPath(index);
  const fieldErrors = [{ field: field ? `items.${index}.body.${field}` : `items.${index}`, message }];
  return new AppError(code, `${where} (${kind}): ${message}`, { index }, { fieldErrors });
}

/** The item's body with the batch's defaults under it; the fields an item cannot use are refused first. */
function mergedBody(body: BatchBody, index: number): Record<string, unknown> {
  const item = body.items[index] as BatchBody['items'][number];
  for (const [where, fields] of [
    ['defaults', body.defaults ?? {}],
    ['body', item.body],
  ] as const) {
    const excluded = BATCH_ITEM_EXCLUDED_FIELDS.find((name) => Object.hasOwn(fields, name));
    if (excluded)
      throw itemError(
        index,
        item.kind,
        `${excluded} does not apply to batch items (${where}): a batch answers 202, keeps the images and calls its own webhook`,
        excluded,
      );
  }
  // A copy: the validator fills defaults in, and one item's must not reach the next through a shared object.
  return structuredClone({ ...(body.defaults ?? {}), ...item.body });
}

/**
 * Every item checked as its own convert call checks its body (the kind's schema, with the route's validator
 * and messages, then what the payload builder checks beyond it: an SVG's root, a chart's data, a screenshot's
 * URL…) and built into its job payload, before anything is queued or reserved. The first refused item is the
 * call's 400 (or the builder's own 4xx), naming the item.
 */
export function prepareBatchItems(request: FastifyRequest, body: BatchBody): PreparedItem[] {
  return body.items.map((item, index) => {
    const merged = mergedBody(body, index);
    const validate = request.compileValidationSchema(LinkBodySchemas[item.kind], 'body');
    if (!validate(merged)) {
      const errors = (validate.errors ?? []) as AjvError[];
      const first = errors[0];
      throw itemError(index, item.kind, validationMessage(errors, 'body'), first ? fieldPath(first) : undefined);
    }
    let payload: RenderPayload<BatchItemKind>;
    try {
      payload = payloadOf(item.kind, merged);
    } catch (err) {
      if (isAppError(err) && err.statusCode < 500) throw itemError(index, item.kind, err.message, undefined, err.code);
      throw err;
    }
    const format = String((payload as { format?: unknown }).format ?? 'png');
    return { index, kind: item.kind, payload, format, credits: creditsOf(item.kind, payload) };
  });
}
