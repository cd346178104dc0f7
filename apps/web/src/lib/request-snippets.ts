/**
 * Ready-to-paste requests (curl, JavaScript fetch, Python requests) for a JSON call, shared by the
 * playgrounds and the docs. Binary answers are written to a file; JSON answers are printed.
 */
export type SnippetLanguage = 'curl' | 'javascript' | 'python';
export const SNIPPET_LANGUAGES: SnippetLanguage[] = ['curl', 'javascript', 'python'];

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
  const lines = [`curl -X ${request.method} ${shellQuote(request.baseUrl + request.path)}`];
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

export function buildSnippet(language: SnippetLanguage, request: SnippetRequest): string {
  if (language === 'curl') return curl(request);
  if (language === 'javascript') return javascript(request);
  return python(request);
}
