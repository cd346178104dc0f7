/** Credits used this period by the account behind `token` (a session token or an API key), as GET /api/auth/usage answers. */
export async function creditsUsed(baseUrl: string, token: string): Promise<number> {
  const res = await fetch(`${baseUrl}/api/auth/usage`, { headers: { authorization: `Bearer ${token}` } });
  return ((await res.json()) as { data: { used: number } }).data.used;
}

/** The text parts of an MCP tool result, one a line (what a client shows of it). */
export const toolText = (result: { content: ReadonlyArray<{ type: string; text?: string }> }): string =>
  result.content
    .filter((c) => c.type === 'text')
    .map((c) => c.text)
    .join('\n');
