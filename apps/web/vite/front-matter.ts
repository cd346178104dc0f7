/** Front matter as the content files use it: `key: value` lines between two `---` lines (no nesting). */
export interface Parsed {
  meta: Record<string, string>;
  body: string;
}

export function parseFrontMatter(source: string): Parsed {
  const match = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?/.exec(source);
  if (!match) return { meta: {}, body: source };
  const meta: Record<string, string> = {};
  for (const line of match[1]!.split(/\r?\n/)) {
    const pair = /^([A-Za-z][\w-]*)\s*:\s*(.*)$/.exec(line);
    if (pair) meta[pair[1]!] = pair[2]!.trim().replace(/^(["'])(.*)\1$/, '$2');
  }
  return { meta, body: source.slice(match[0].length) };
}
