export const fmt = (value: number | undefined, digits = 1): string =>
  value === undefined || Number.isNaN(value) ? '–' : value.toFixed(digits);

/** Plain-text table: first column left-aligned, the rest right-aligned, so numbers line up by digit. */
export function table(headers: string[], rows: string[][]): string {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, i) => (i === 0 ? cell.padEnd(widths[i] as number) : cell.padStart(widths[i] as number)))
      .join('  ')
      .trimEnd();
  return [line(headers), widths.map((w) => '─'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

export interface Target {
  label: string;
  value: number | undefined;
  op: '≤' | '≥';
  limit: number;
}

export const verdict = (t: Target): 'PASS' | 'MISS' | 'n/a' => {
  if (t.value === undefined || Number.isNaN(t.value)) return 'n/a';
  return (t.op === '≤' ? t.value <= t.limit : t.value >= t.limit) ? 'PASS' : 'MISS';
};
