import path from 'node:path';
import { type ParseArgsConfig, parseArgs } from 'node:util';

type OptionsConfig = NonNullable<ParseArgsConfig['options']>;
const HELP_OPTION = { help: { type: 'boolean', short: 'h' } } as const;

/** The script's own command-line arguments, without the `--` pnpm forwards on some versions. */
export const scriptArgs = (): string[] => process.argv.slice(2).filter((a) => a !== '--');

/**
 * parseArgs over `options` plus `-h, --help`, which prints `help` and exits 0. `args` defaults to the
 * script's own arguments (every `--` dropped).
 */
export function parseCommandLine<O extends OptionsConfig>(
  options: O,
  help: string,
  args: string[] = scriptArgs(),
  allowPositionals = false,
): ReturnType<typeof parseArgs<{ args: string[]; options: O & typeof HELP_OPTION; allowPositionals: boolean }>>['values'] {
  const { values } = parseArgs({ args, options: { ...options, ...HELP_OPTION }, allowPositionals });
  if ((values as { help?: boolean }).help) {
    console.log(help);
    process.exit(0);
  }
  return values;
}

function numberOption(name: string, raw: string | undefined, fallback: number, min: number, integer: boolean, noun: string): number {
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || (integer && !Number.isInteger(value)) || value < min)
    throw new Error(`${name} must be ${noun} ≥ ${min}, got "${raw}"`);
  return value;
}

/** An integer option (CLI value or env variable): `fallback` when unset or empty, else an integer ≥ `min`. */
export function int(name: string, raw: string | undefined, fallback: number, min: number): number {
  return numberOption(name, raw, fallback, min, true, 'an integer');
}

/** A number option: `fallback` when unset or empty, else a finite number ≥ `min`, an integer unless `integer` is false. */
export function num(name: string, raw: string | undefined, fallback: number, min: number, integer = true): number {
  return numberOption(name, raw, fallback, min, integer, 'a number');
}

/** Where a script writes its results (`--json`): nowhere for "", bench/results/`file` when unset. */
export function resultsPath(raw: string | undefined, benchDir: string, file: string): string | null {
  return raw === '' ? null : path.resolve(raw ?? path.join(benchDir, 'results', file));
}
