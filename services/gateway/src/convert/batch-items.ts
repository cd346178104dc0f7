import {
  ApiKeyMessages,
  AppError,
  BATCH_ITEM_EXCLUDED_FIELDS,
  type BatchBody,
  type BatchItemKind,
  batchItemPath,
  isAppError,
  keyScopeFor,
  type RecentRenderKind,
  RenderHeads,
  scopeAllows,
  TemplateGenerateBody,
} from '@render/contracts';
import { type AjvError, fieldPath, validationMessage } from '@render/fastify-kit';
import type { RenderKind, RenderPayload } from '@render/queue';
import type { FastifyRequest } from 'fastify';
import type { TObject } from 'typebox';
import { creditsOf } from '../billing/render-credits.ts';
import type { AccountCaller } from '../identity/caller.ts';
import type { TemplatesClient } from '../plugins/templates-client.plugin.ts';
import { LinkBodySchemas, payloadOf } from './render-link-body.ts';
import { templatePayload } from './template-payload.ts';

/** A batch item checked and built: its job payload, the queue it goes to, and the credits it costs. */
export interface PreparedItem {
  index: number;
  kind: BatchItemKind;
  /** The queue its job goes to (a template is an svg job). */
  queue: RenderKind;
  /** What the ledger records it as (the usage lists): its kind. */
  ledgerKind: RecentRenderKind;
  payload: RenderPayload<RenderKind>;
  format: string;
  credits: number;
}

/** Each kind's body schema: the convert calls', and the template render's (`POST /api/template/generate`). */
const ItemSchemas: Record<BatchItemKind, TObject> = { ...LinkBodySchemas, template: TemplateGenerateBody };
/** The key scope a template item needs: the template render's (a render-only key may not use templates). */
const TEMPLATE_SCOPE = keyScopeFor(RenderHeads.template);

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

/** A builder's own 4xx (an SVG's root, a template not found…) as the item's refusal; anything else as it is. */
const asItemError = (index: number, kind: BatchItemKind, err: unknown) =>
  isAppError(err) && err.statusCode < 500 ? itemError(index, kind, err.message, undefined, err.code) : err;

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

/** The item's body checked by its kind's schema, with the route's own validator and messages. */
function checkedBody(request: FastifyRequest, body: BatchBody, index: number): Record<string, unknown> {
  const { kind } = body.items[index] as BatchBody['items'][number];
  const merged = mergedBody(body, index);
  const validate = request.compileValidationSchema(ItemSchemas[kind], 'body');
  if (!validate(merged)) {
    const errors = (validate.errors ?? []) as AjvError[];
    const first = errors[0];
    throw itemError(index, kind, validationMessage(errors, 'body'), first ? fieldPath(first) : undefined);
  }
  return merged;
}

/**
 * A template item, as `POST /api/template/generate` renders one: the caller's key must allow templates, and
 * the templates service fills a template the caller may use (else its 404 "Template Not Found", or its 400
 * for a variable); the filled SVG is an svg job, recorded as a template render.
 */
async function templateItem(
  templates: Pick<TemplatesClient, 'renderInput'>,
  request: FastifyRequest,
  caller: AccountCaller,
  index: number,
  body: TemplateGenerateBody,
): Promise<PreparedItem> {
  if (caller.key && !scopeAllows(caller.key.scope, TEMPLATE_SCOPE))
    throw itemError(index, 'template', ApiKeyMessages.scopeTooNarrow, undefined, 'FORBIDDEN');
  const filling = templates.renderInput(body.templateId, caller.userId, body.variables ?? {}, request.id);
  const payload = await templatePayload(filling, body.format, body.quality, body.optimize).catch((err: unknown) => {
    throw asItemError(index, 'template', err);
  });
  return { index, kind: 'template', queue: 'svg', ledgerKind: 'template', payload, format: payload.format, credits: 1 };
}

/**
 * Every item checked as its own call checks its body (the kind's schema, with the route's validator and
 * messages, then what the payload builder checks beyond it: an SVG's root, a chart's data, a screenshot's
 * URL, a template the caller may use…) and built into its job payload, before anything is queued or
 * reserved. The first refused item (by index) is the call's 400 (or the builder's own 4xx), naming the item.
 * Templates are filled by the templates service, all at once.
 */
export async function prepareBatchItems(
  request: FastifyRequest,
  caller: AccountCaller,
  body: BatchBody,
  templates: Pick<TemplatesClient, 'renderInput'>,
): Promise<PreparedItem[]> {
  const settled = await Promise.allSettled(
    body.items.map(async (item, index): Promise<PreparedItem> => {
      const merged = checkedBody(request, body, index);
      if (item.kind === 'template') return templateItem(templates, request, caller, index, merged as TemplateGenerateBody);
      let payload: RenderPayload<RenderKind>;
      try {
        payload = payloadOf(item.kind, merged);
      } catch (err) {
        throw asItemError(index, item.kind, err);
      }
      const format = String((payload as { format?: unknown }).format ?? 'png');
      return { index, kind: item.kind, queue: item.kind, ledgerKind: item.kind, payload, format, credits: creditsOf(item.kind, payload) };
    }),
  );
  const refused = settled.find((outcome) => outcome.status === 'rejected');
  if (refused) throw refused.reason;
  return settled.map((outcome) => (outcome as PromiseFulfilledResult<PreparedItem>).value);
}
