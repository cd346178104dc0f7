import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, relative, resolve } from 'node:path';
import type { RenderClient } from '../client.ts';
import { RenderApiError } from '../errors.ts';
import type { BatchTask, TaskResult } from './batch.ts';
import { errorOf } from './batch.ts';
import { UsageError } from './inputs.ts';
import { zipEntries } from './zip-entries.ts';

/** The API's most items per batch (`POST /api/batch`). */
const MAX_ITEMS = 50;
const POLL_MS = 500;
const SERVER_KINDS = new Set(['html', 'svg', 'chart', 'code', 'screenshot', 'template']);

type Item = { kind: 'html' | 'svg' | 'chart' | 'code' | 'screenshot' | 'template'; body: Record<string, unknown> };

/**
 * `renderapi batch --server`: the tasks go to the API as batches of up to 50 (`POST /api/batch`), rendered by
 * the server (every item checked and its credits reserved first, so a refused item fails its whole batch with
 * the message naming it); each batch is polled until done, its zip downloaded, and each image written under
 * the name its task asked for. A template task's body is the template call's ({ templateId, variables, … }).
 */
export async function runServerBatch(
  client: RenderClient,
  tasks: BatchTask[],
  options: { outDir: string; onProgress?: (done: number, failed: number) => void },
): Promise<TaskResult[]> {
  await mkdir(options.outDir, { recursive: true });
  const root = resolve(options.outDir);
  const results: TaskResult[] = new Array(tasks.length);
  let done = 0;
  let failed = 0;
  const fail = (index: number, err: unknown) => {
    const task = tasks[index]!;
    results[index] = { source: task.source, kind: task.kind, ok: false, error: errorOf(err) };
    failed += 1;
  };
  const sendable: number[] = [];
  tasks.forEach((task, index) => {
    if (typeof task.body.__invalid === 'string') fail(index, new UsageError(task.body.__invalid));
    else if (!SERVER_KINDS.has(task.kind)) fail(index, new UsageError(`${task.source}: a ${task.kind} task cannot go in a server batch`));
    else sendable.push(index);
  });
  for (let first = 0; first < sendable.length; first += MAX_ITEMS) {
    const chunk = sendable.slice(first, first + MAX_ITEMS);
    try {
      const files = await renderChunk(
        client,
        chunk.map((index) => ({ kind: tasks[index]!.kind, body: tasks[index]!.body }) as Item),
      );
      for (const [position, index] of chunk.entries()) {
        const task = tasks[index]!;
        const item = files[position]!;
        if (!item.ok) {
          fail(index, item.error);
          continue;
        }
        const file = resolve(root, task.out);
        if (relative(root, file).startsWith('..')) {
          fail(index, new UsageError(`${task.source}: output outside ${options.outDir}`));
          continue;
        }
        await mkdir(dirname(file), { recursive: true });
        await writeFile(file, item.bytes);
        results[index] = { source: task.source, kind: task.kind, ok: true, file, format: item.format, size: item.bytes.length };
        done += 1;
      }
    } catch (err) {
      for (const index of chunk) fail(index, err);
    }
    options.onProgress?.(done, failed);
  }
  return results;
}

type ItemOutcome = { ok: true; bytes: Uint8Array; format: string } | { ok: false; error: Error };

/** One server batch: submitted, polled until done, its archive read back; an outcome per item, in order. */
async function renderChunk(client: RenderClient, items: Item[]): Promise<ItemOutcome[]> {
  const batch = await client.batch({ items });
  let status = await client.getBatch(batch.id);
  // Done, or cancelled (renderapi cancel-batch): either way every item has ended and the archive holds the images.
  while (status.status !== 'done' && status.status !== 'cancelled') {
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    status = await client.getBatch(batch.id);
  }
  const archive = status.done > 0 ? zipEntries(await client.batchArchive(batch.id)) : new Map<string, Uint8Array>();
  return status.items.map((item): ItemOutcome => {
    const bytes = item.file ? archive.get(item.file) : undefined;
    if (item.status === 'done' && bytes) return { ok: true, bytes, format: item.format };
    // What the item's single call would have answered (its code and message; the batch's call was a 202).
    const message = item.error?.message ?? `item ${item.index} has no image in the archive`;
    return { ok: false, error: new RenderApiError({ status: 0, code: item.error?.code ?? 'RENDER_FAILED', message }) };
  });
}
