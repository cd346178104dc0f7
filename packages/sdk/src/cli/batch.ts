import { mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { basename, dirname, extname, isAbsolute, join, relative, resolve } from 'node:path';
import type { RenderClient } from '../client.ts';
import { RenderApiError } from '../errors.ts';
import type { ImageWithMeta } from '../types.ts';
import {
  chartBody,
  defaultOutputName,
  extensionOf,
  guessLanguage,
  kindOfFile,
  RENDER_KINDS,
  type RenderKind,
  UsageError,
} from './inputs.ts';

type Json = Record<string, unknown>;

export interface BatchTask {
  kind: RenderKind;
  body: Json;
  /** Output path, relative to the output folder. */
  out: string;
  /** Where the task came from (a file, or `file.jsonl:3`), for messages. */
  source: string;
}

export interface TaskResult {
  source: string;
  /** Absent for a line that could not be read as a task. */
  kind?: RenderKind;
  ok: boolean;
  file?: string;
  format?: string;
  width?: number;
  height?: number;
  size?: number;
  cache?: 'HIT' | 'MISS';
  error?: { status: number; code: string; message: string };
}

/** One render through the SDK, by kind (template bodies carry their `templateId`). */
export function renderKind(client: RenderClient, kind: RenderKind, body: Json): Promise<ImageWithMeta> {
  switch (kind) {
    case 'html':
      return client.htmlWithMeta(body as never);
    case 'svg':
      return client.svgWithMeta(body as never);
    case 'chart':
      return client.chartWithMeta(body as never);
    case 'code':
      return client.codeWithMeta(body as never);
    case 'screenshot':
      return client.screenshotWithMeta(body as never);
    case 'template': {
      const { templateId, ...rest } = body;
      if (typeof templateId !== 'string' || !templateId) throw new UsageError('a template task needs body.templateId');
      return client.templateWithMeta(templateId, rest as never);
    }
  }
}

export function errorOf(err: unknown): { status: number; code: string; message: string } {
  if (err instanceof RenderApiError) return { status: err.status, code: err.code, message: err.message };
  return {
    status: 0,
    code: err instanceof UsageError ? 'INVALID_INPUT' : 'CLIENT_ERROR',
    message: err instanceof Error ? err.message : String(err),
  };
}

/** An output path must stay inside the output folder: a JSON-lines file is input, not a licence to write anywhere. */
function confinedOut(out: unknown, source: string): string {
  if (typeof out !== 'string' || !out.trim()) throw new UsageError(`${source}: "out" must be a file name such as "card.png"`);
  if (isAbsolute(out) || out.split(/[\\/]/).includes('..'))
    throw new UsageError(`${source}: "out" must be a relative path inside the output folder`);
  return out;
}

/** Reads a JSON-lines file: `{ "kind": "html", "body": {...}, "out": "name.png" }` per line (blank lines and `#` comments skipped). */
export async function tasksFromJsonl(file: string): Promise<{ tasks: BatchTask[]; invalid: TaskResult[] }> {
  const text = await readFile(file, 'utf8');
  const tasks: BatchTask[] = [];
  const invalid: TaskResult[] = [];
  const seen = new Set<string>();
  text.split(/\r?\n/).forEach((line, index) => {
    const source = `${basename(file)}:${index + 1}`;
    if (!line.trim() || line.trimStart().startsWith('#')) return;
    try {
      let parsed: unknown;
      try {
        parsed = JSON.parse(line);
      } catch (err) {
        throw new UsageError(`${source}: not valid JSON (${(err as Error).message})`);
      }
      const task = parsed as { kind?: unknown; body?: unknown; out?: unknown };
      if (typeof task.kind !== 'string' || !RENDER_KINDS.includes(task.kind as RenderKind)) {
        throw new UsageError(`${source}: "kind" must be one of ${RENDER_KINDS.join(', ')}`);
      }
      if (typeof task.body !== 'object' || task.body === null || Array.isArray(task.body))
        throw new UsageError(`${source}: "body" must be an object`);
      const body = task.body as Json;
      const format = typeof body.format === 'string' ? body.format : 'png';
      const out = task.out === undefined ? `line-${index + 1}.${extensionOf(format)}` : confinedOut(task.out, source);
      if (seen.has(out)) throw new UsageError(`${source}: "${out}" is already written by an earlier line`);
      seen.add(out);
      tasks.push({ kind: task.kind as RenderKind, body, out, source });
    } catch (err) {
      invalid.push({ source, ok: false, error: errorOf(err) });
    }
  });
  return { tasks, invalid };
}

export interface FolderDefaults {
  format?: string;
  /** Extra fields for every body (width, height, theme…), from the command line. */
  fields: Json;
  library?: string;
}

/** Every file of a folder (not recursive) that has a kind by extension, with `name.<format>` as its output. */
export async function tasksFromFolder(folder: string, defaults: FolderDefaults): Promise<{ tasks: BatchTask[]; skipped: string[] }> {
  const entries = (await readdir(folder, { withFileTypes: true })).filter((entry) => entry.isFile()).map((entry) => entry.name);
  entries.sort();
  const tasks: BatchTask[] = [];
  const skipped: string[] = [];
  for (const name of entries) {
    const kind = kindOfFile(name);
    if (!kind) {
      skipped.push(name);
      continue;
    }
    const path = join(folder, name);
    const text = await readFile(path, 'utf8');
    const format = defaults.format ?? 'png';
    let body: Json;
    if (kind === 'html') body = { html: text };
    else if (kind === 'svg') body = { svg: text };
    else if (kind === 'chart') {
      try {
        body = chartBody(JSON.parse(text), defaults.library);
      } catch (err) {
        // Reported as this file's failure by the run, not as a crash of the whole batch.
        body = { __invalid: `${name}: ${(err as Error).message}` };
      }
    } else body = { code: text, language: guessLanguage(name) };
    // The same base name twice (a.html, a.svg) must not overwrite: keep the extension in the second name.
    const out = tasks.some((task) => task.out === defaultOutputName(name, format))
      ? `${basename(name, extname(name))}-${extname(name).slice(1)}.${extensionOf(format)}`
      : defaultOutputName(name, format);
    tasks.push({ kind, body: { ...body, ...defaults.fields, ...(defaults.format ? { format: defaults.format } : {}) }, out, source: name });
  }
  return { tasks, skipped };
}

export async function isDirectory(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory();
  } catch {
    return false;
  }
}

/** A one-line progress bar redrawn on a terminal; nothing at all when stderr is not one. */
export function progressBar(total: number, stream: NodeJS.WriteStream = process.stderr) {
  const enabled = Boolean(stream.isTTY) && total > 0;
  const width = 28;
  return {
    update(done: number, failed: number) {
      if (!enabled) return;
      const finished = done + failed;
      const filled = Math.round((finished / total) * width);
      const bar = `${'█'.repeat(filled)}${'░'.repeat(width - filled)}`;
      stream.write(`\r${bar} ${finished}/${total}  done ${done}  failed ${failed}`);
    },
    end() {
      if (enabled) stream.write('\n');
    },
  };
}

/**
 * Runs the tasks with at most `concurrency` renders in flight (the API counts an account's renders in flight,
 * and 429s beyond its plan's limit are retried by the client anyway), writing each image under `outDir`.
 */
export async function runBatch(
  client: RenderClient,
  tasks: BatchTask[],
  options: { outDir: string; concurrency: number; onProgress?: (done: number, failed: number) => void },
): Promise<TaskResult[]> {
  await mkdir(options.outDir, { recursive: true });
  const results: TaskResult[] = new Array(tasks.length);
  let next = 0;
  let done = 0;
  let failed = 0;
  const root = resolve(options.outDir);
  const worker = async () => {
    while (next < tasks.length) {
      const index = next;
      next += 1;
      const task = tasks[index]!;
      try {
        if (typeof task.body.__invalid === 'string') throw new UsageError(task.body.__invalid);
        const { image, meta } = await renderKind(client, task.kind, task.body);
        const file = resolve(root, task.out);
        if (relative(root, file).startsWith('..')) throw new UsageError(`${task.source}: output outside ${options.outDir}`);
        await mkdir(dirname(file), { recursive: true });
        await writeFile(file, image);
        results[index] = {
          source: task.source,
          kind: task.kind,
          ok: true,
          file,
          format: meta.format,
          width: meta.width,
          height: meta.height,
          size: meta.size,
          ...(meta.cache ? { cache: meta.cache } : {}),
        };
        done += 1;
      } catch (err) {
        results[index] = { source: task.source, kind: task.kind, ok: false, error: errorOf(err) };
        failed += 1;
      }
      options.onProgress?.(done, failed);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(options.concurrency, tasks.length)) }, worker));
  return results;
}
