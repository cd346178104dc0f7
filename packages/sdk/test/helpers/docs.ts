import { readFile } from 'node:fs/promises';

/** A stdio MCP server entry as the docs give it (`mcpServers.<name>`). */
export interface McpServerConfig {
  name: string;
  command: string;
  args: string[];
  env: Record<string, string>;
}

/** The ```json blocks of a Markdown file. */
export function jsonBlocks(markdown: string): string[] {
  return [...markdown.matchAll(/^```json\n([\s\S]*?)^```$/gm)].map((match) => match[1]!);
}

/**
 * Every stdio MCP configuration (`mcpServers` entries with a `command`) in a Markdown file, placeholders
 * such as the docs' `__ORIGIN__` left as they are (the JSON stays valid with them).
 */
export function mcpConfigs(markdown: string): McpServerConfig[] {
  return jsonBlocks(markdown).flatMap((block) => {
    const parsed = JSON.parse(block) as { mcpServers?: Record<string, Omit<McpServerConfig, 'name'>> };
    return Object.entries(parsed.mcpServers ?? {})
      .filter(([, server]) => typeof server.command === 'string')
      .map(([name, server]) => ({ name, ...server }));
  });
}

/** The one stdio MCP configuration a Markdown file documents. */
export async function documentedMcpConfig(file: string): Promise<McpServerConfig> {
  const configs = mcpConfigs(await readFile(file, 'utf8'));
  if (configs.length !== 1) throw new Error(`${file}: expected one stdio MCP configuration, found ${configs.length}`);
  return configs[0]!;
}
