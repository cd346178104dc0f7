/**
 * Ready-to-paste requests (curl, JavaScript fetch, Python requests, and the `render-api-sdk` call for render
 * calls) for a JSON call, shared by the playgrounds and the docs. Binary answers are written to a file;
 * JSON answers are printed.
 */
import { AsyncRenderHeads, RenderHeads } from '@render/contracts/route-heads';

export type SnippetLanguage = 'curl' | 'javascript' | 'python' | 'sdk';
export const SNIPPET_LANGUAGES: SnippetLanguage[] = ['curl', 'javascript', 'python', 'sdk'];

export interface SnippetRequest {
  baseUrl: string;
  method: string;
  path: string;
  body?: Record<string, unknown>;
  /** `apiKey` adds X-API-Key; `bearer` adds Authorization: Bearer. */
  auth?: { kind: 'apiKey' | 'bearer'; value: string };
  /** Where a binary answer is saved (e.g. image.png); absent for JSON answers. */
  outputFile?: string;
}

const shellQuote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

function headers(request: SnippetRequest): Array<[string, string]> {
  const list: Array<[string, string]> = [];
  if (request.body) list.push(['Content-Type', 'application/json']);
  if (request.auth?.kind === 'apiKey') list.push(['X-API-Key', request.auth.value]);
  if (request.auth?.kind === 'bearer') list.push(['Authorization', `Bearer ${request.auth.value}`]);
  return list;
}

function curl(request: SnippetRequest): string {
  // -sS: no progress meter, but errors shown; --fail-with-body: an error answer makes curl fail (exit 22)
  // and still shows why, instead of passing quietly with the error saved as the image.
  const lines = [`curl -sS --fail-with-body -X ${request.method} ${shellQuote(request.baseUrl + request.path)}`];
  for (const [name, value] of headers(request)) lines.push(`  -H ${shellQuote(`${name}: ${value}`)}`);
  if (request.body) lines.push(`  -d ${shellQuote(JSON.stringify(request.body))}`);
  if (request.outputFile) lines.push(`  -o ${request.outputFile}`);
  return lines.join(' \\\n');
}

function javascript(request: SnippetRequest): string {
  const headerLines = headers(request).map(([name, value]) => `    ${JSON.stringify(name)}: ${JSON.stringify(value)},`);
  const options = [`  method: ${JSON.stringify(request.method)},`];
  if (headerLines.length) options.push('  headers: {', ...headerLines, '  },');
  if (request.body) options.push(`  body: JSON.stringify(${JSON.stringify(request.body, null, 2).replace(/\n/g, '\n  ')}),`);
  const call = [`const response = await fetch(${JSON.stringify(request.baseUrl + request.path)}, {`, ...options, '});'];
  const handle = request.outputFile
    ? [
        'if (!response.ok) throw new Error((await response.json()).message);',
        `// Node: write the image to ${request.outputFile}`,
        "const { writeFile } = await import('node:fs/promises');",
        `await writeFile(${JSON.stringify(request.outputFile)}, Buffer.from(await response.arrayBuffer()));`,
      ]
    : ['const data = await response.json();', 'console.log(data);'];
  return [...call, ...handle].join('\n');
}

const pythonValue = (value: unknown, indent: string): string => {
  if (value === null) return 'None';
  if (value === true) return 'True';
  if (value === false) return 'False';
  if (Array.isArray(value)) return `[${value.map((item) => pythonValue(item, indent)).join(', ')}]`;
  if (typeof value === 'object') {
    const inner = `${indent}    `;
    const entries = Object.entries(value as Record<string, unknown>).map(
      ([k, v]) => `${inner}${JSON.stringify(k)}: ${pythonValue(v, inner)},`,
    );
    return entries.length ? `{\n${entries.join('\n')}\n${indent}}` : '{}';
  }
  return JSON.stringify(value);
};

function python(request: SnippetRequest): string {
  const lines = ['import requests', ''];
  const args = [`    ${JSON.stringify(request.baseUrl + request.path)},`];
  const list = headers(request).filter(([name]) => name !== 'Content-Type');
  if (list.length) args.push(`    headers={${list.map(([n, v]) => `${JSON.stringify(n)}: ${JSON.stringify(v)}`).join(', ')}},`);
  if (request.body) args.push(`    json=${pythonValue(request.body, '    ')},`);
  args.push('    timeout=60,');
  lines.push(`response = requests.${request.method.toLowerCase()}(`, ...args, ')', 'response.raise_for_status()');
  if (request.outputFile) lines.push(`with open(${JSON.stringify(request.outputFile)}, "wb") as f:`, '    f.write(response.content)');
  else lines.push('print(response.json())');
  return lines.join('\n');
}

/** The SDK's method for each render call (`RenderClient` in `render-api-sdk`). */
const SDK_METHODS: Record<string, 'html' | 'svg' | 'chart' | 'code' | 'screenshot'> = Object.fromEntries(
  (['html', 'svg', 'chart', 'code', 'screenshot'] as const).map((kind) => [RenderHeads[kind].url, kind]),
);
const TEMPLATE_GENERATE = RenderHeads.template.url;
const BATCH = AsyncRenderHeads.createBatch.url;

/** Whether the SDK has a method for this call (the render calls, template generation and batches). */
export const sdkSupports = (request: Pick<SnippetRequest, 'method' | 'path'>) =>
  request.method === 'POST' && (request.path in SDK_METHODS || request.path === TEMPLATE_GENERATE || request.path === BATCH);

/** The languages offered for a request: the SDK tab only where the SDK has a method for it. */
export const snippetLanguagesFor = (request: Pick<SnippetRequest, 'method' | 'path'>) =>
  SNIPPET_LANGUAGES.filter((language) => language !== 'sdk' || sdkSupports(request));

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/** A value as a JavaScript literal: unquoted keys where they can be, one property per line. */
function jsValue(value: unknown, indent: string): string {
  if (Array.isArray(value)) {
    if (value.every((item) => item === null || typeof item !== 'object')) return JSON.stringify(value).replace(/,/g, ', ');
    const inner = `${indent}  `;
    return `[\n${value.map((item) => `${inner}${jsValue(item, inner)},`).join('\n')}\n${indent}]`;
  }
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>);
    if (!entries.length) return '{}';
    const inner = `${indent}  `;
    const lines = entries.map(([key, item]) => `${inner}${IDENTIFIER.test(key) ? key : JSON.stringify(key)}: ${jsValue(item, inner)},`);
    return `{\n${lines.join('\n')}\n${indent}}`;
  }
  return JSON.stringify(value) ?? 'undefined';
}

const extension = (format: unknown) => (format === 'jpeg' ? 'jpg' : typeof format === 'string' && format ? format : 'png');

/** Until the SDK is on npm, `npm install render-api-sdk` finds nothing: the docs' SDK tab says how to install it. */
const SDK_INSTALL = 'render-api-sdk: install it as the SDK tab of the docs says';

/**
 * The `render-api-sdk` call: a `RenderClient` with the key from RENDER_API_KEY, the method for the call
 * (`template(id, …)` for a template), and the bytes it returns written to a file. The SDK always returns
 * the image, so the API's output/outputType choice is left out. A call with `webhook` answers 202 and no
 * image: it goes through `render.api.POST` with the body as written.
 */
function sdk(request: SnippetRequest): string {
  const { output: _output, outputType: _outputType, ...body } = request.body ?? {};
  const options = request.baseUrl
    ? `{ apiKey: process.env.RENDER_API_KEY, baseUrl: ${JSON.stringify(request.baseUrl)} }`
    : '{ apiKey: process.env.RENDER_API_KEY }';
  let call: string;
  if (request.path === TEMPLATE_GENERATE) {
    const { templateId, ...rest } = body;
    call = `render.template(${JSON.stringify(String(templateId ?? 'YOUR_TEMPLATE_ID'))}, ${jsValue(rest, '')})`;
  } else {
    call = `render.${SDK_METHODS[request.path] ?? 'html'}(${jsValue(body, '')})`;
  }
  const key = request.auth?.kind === 'apiKey' ? request.auth.value : 'YOUR_API_KEY';
  const program = (writesFile: boolean, lines: string[]) => sdkProgram(key, options, writesFile, lines);
  if (request.path === BATCH) return program(true, sdkBatchLines(request));
  if (typeof body.webhook === 'string') {
    // The image methods drop `webhook` (a webhook call answers 202, not an image): the typed client sends it as is.
    return program(false, [
      `const { data, error } = await render.api.POST(${JSON.stringify(request.path)}, { body: ${jsValue(request.body ?? {}, '')} });`,
      'if (error) throw new Error(error.message);',
      '// 202: the render runs in the background; its outcome is POSTed to your webhook.',
      'console.log(data);',
    ]);
  }
  const file = request.outputFile ?? `image.${extension(body.format)}`;
  return program(true, [`const image = await ${call};`, `await writeFile(${JSON.stringify(file)}, image);`]);
}

/** An SDK program: how to install and run it, its imports, the client, then `lines`. */
function sdkProgram(key: string, options: string, writesFile: boolean, lines: string[]): string {
  return [
    `// ${SDK_INSTALL}, then run with RENDER_API_KEY=${key}`,
    ...(writesFile ? ["import { writeFile } from 'node:fs/promises';"] : []),
    "import { RenderClient } from 'render-api-sdk';",
    '',
    `const render = new RenderClient(${options});`,
    ...lines,
  ].join('\n');
}

/** A batch through the SDK: sent, followed until every item has ended, then its zip of images saved. */
function sdkBatchLines(request: SnippetRequest): string[] {
  return [
    `const batch = await render.batch(${jsValue(request.body ?? {}, '')});`,
    '// The items render in the background: read the status until every item has ended, then save the zip.',
    'let status = await render.getBatch(batch.id);',
    "while (status.status !== 'done') {",
    '  await new Promise((resolve) => setTimeout(resolve, 1000));',
    '  status = await render.getBatch(batch.id);',
    '}',
    'console.log(status.items);',
    "if (status.done > 0) await writeFile('batch.zip', await render.batchArchive(batch.id));",
  ];
}

export function buildSnippet(language: SnippetLanguage, request: SnippetRequest): string {
  if (language === 'curl') return curl(request);
  if (language === 'javascript') return javascript(request);
  if (language === 'sdk') return sdk(request);
  return python(request);
}
