/**
 * The README's table of calls, written from the OpenAPI document (one row per tag: its description and its
 * calls) so it cannot lag the product; fields, defaults and bounds stay on the docs page, which reads them
 * from the same document. `pnpm --filter @render/gateway readme-api-table` rewrites it between the markers;
 * `test/readme-api-table.test.ts` fails when the committed README differs.
 */
export const README_TABLE_START =
  '<!-- api-table: generated from the OpenAPI document by `pnpm --filter @render/gateway readme-api-table` -->';
export const README_TABLE_END = '<!-- /api-table -->';

interface Document {
  tags?: Array<{ name: string; description?: string }>;
  paths: Record<string, Record<string, { tags?: string[] }>>;
}

const ORDER = ['get', 'post', 'put', 'delete'];

export function readmeApiTable(document: Document): string {
  const calls = new Map<string, string[]>();
  for (const [path, methods] of Object.entries(document.paths)) {
    const sorted = Object.entries(methods).sort(([a], [b]) => ORDER.indexOf(a) - ORDER.indexOf(b));
    for (const [method, operation] of sorted) {
      const tag = operation.tags?.[0] ?? 'other';
      calls.set(tag, [...(calls.get(tag) ?? []), `\`${method.toUpperCase()} ${path}\``]);
    }
  }
  const described = new Map((document.tags ?? []).map((tag) => [tag.name, tag.description ?? tag.name]));
  const tags = [...described.keys(), ...[...calls.keys()].filter((tag) => !described.has(tag))].filter((tag) => calls.has(tag));
  const rows = tags.map((tag) => `| ${described.get(tag) ?? tag} | ${calls.get(tag)!.join(', ')} |`);
  return ['| Group | Calls |', '|---|---|', ...rows].join('\n');
}

/** The README with its table replaced by `table`; throws when the markers are missing. */
export function withReadmeApiTable(readme: string, table: string): string {
  const start = readme.indexOf(README_TABLE_START);
  const end = readme.indexOf(README_TABLE_END);
  if (start < 0 || end < start) throw new Error('README.md has no api-table markers');
  return `${readme.slice(0, start + README_TABLE_START.length)}\n${table}\n${readme.slice(end)}`;
}
