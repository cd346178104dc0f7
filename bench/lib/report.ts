import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';

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

/** A report's last lines: the first services' warnings, if any, then how long the whole `what` took. */
export function reportEnd(what: string, warnings: string[], started: number): string[] {
  const lines: string[] = [];
  if (warnings.length) {
    lines.push(`service warnings (${warnings.length}, first 5):`);
    for (const line of warnings.slice(0, 5)) lines.push(`  ${line.slice(0, 300)}`);
  }
  lines.push(`total ${what} time ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return lines;
}

/** Writes `data` to `file` as indented JSON (its folder created as needed) and logs where. */
export async function writeResults(file: string, data: unknown, log: (message: string) => void): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, `${JSON.stringify(data, null, 2)}\n`);
  log(`results written to ${path.relative(process.cwd(), file)}`);
}
