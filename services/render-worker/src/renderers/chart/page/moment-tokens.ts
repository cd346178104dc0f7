/**
 * Chart.js's docs and most configs in the wild write time formats in moment.js tokens (`YYYY`, `DD`,
 * `MMM D, YYYY`, `[Q]Q`), but the page's adapter is date-fns, which reads `YYYY` as the week-numbering year
 * and refuses it ("Use `yyyy` instead of `YYYY`"). A format that can only be moment's (it has `Y`, `D`, `A`,
 * `[literal]` or `dddd`, all refused or meaningless in date-fns) is translated token by token; anything
 * else is already date-fns and is left alone.
 */
// Self-contained (no DOM): unit-tested in Node as well as bundled into the pages.
type JsonObject = Record<string, unknown>;
const isJsonObject = (v: unknown): v is JsonObject => v !== null && typeof v === 'object' && !Array.isArray(v);

const MOMENT_ONLY = /Y|D|A|\[|ddd|X/;

/** moment token (a run of one letter) → date-fns token; letters not listed mean the same in both. */
const TOKENS: Record<string, string> = {
  Y: 'y',
  YY: 'yy',
  YYYY: 'yyyy',
  D: 'd',
  DD: 'dd',
  Do: 'do',
  DDD: 'D',
  DDDD: 'DDD',
  d: 'i',
  dd: 'EEEEEE',
  ddd: 'EEE',
  dddd: 'EEEE',
  A: 'a',
  a: 'aaa',
  X: 't',
  x: 'T',
  Z: 'xxx',
  ZZ: 'xx',
  W: 'I',
  WW: 'II',
  E: 'i',
  GGGG: 'RRRR',
  gggg: 'YYYY',
};

/** Strips what the page cannot tell from the format alone (literals) before deciding whose tokens these are. */
const outsideLiterals = (format: string) => format.replace(/\[[^\]]*\]/g, '');

export const isMomentFormat = (format: string): boolean => MOMENT_ONLY.test(outsideLiterals(format)) || format.includes('[');

export function momentToDateFns(format: string): string {
  if (!isMomentFormat(format)) return format;
  let out = '';
  const re = /\[([^\]]*)\]|([A-Za-z])\2*o?|'|[^A-Za-z[']+/g;
  for (const match of format.matchAll(re)) {
    const [whole, literal, letter] = match;
    if (literal !== undefined) out += literal ? `'${literal.replace(/'/g, "''")}'` : '';
    else if (whole === "'") out += "''";
    else if (letter !== undefined) {
      // `Do`/`Mo` are a letter run with moment's ordinal suffix; date-fns writes them the same way.
      const ordinal = whole.endsWith('o') && whole.length > 1 && letter !== 'o';
      const run = ordinal ? whole.slice(0, -1) : whole;
      const mapped = TOKENS[run + (ordinal ? 'o' : '')] ?? (ordinal ? `${TOKENS[run] ?? run}o` : (TOKENS[run] ?? run));
      out += mapped;
    } else out += whole;
  }
  return out;
}

const translateIn = (holder: JsonObject, key: string) => {
  if (typeof holder[key] === 'string') holder[key] = momentToDateFns(holder[key] as string);
};

/** Chart.js 3/4 time scales: `time.displayFormats.*`, `time.tooltipFormat`, `time.parser` (when a string). */
export function translateTimeFormats(options: JsonObject): void {
  if (!isJsonObject(options.scales)) return;
  for (const scale of Object.values(options.scales)) {
    const time = isJsonObject(scale) ? scale.time : undefined;
    if (!isJsonObject(time)) continue;
    translateIn(time, 'tooltipFormat');
    translateIn(time, 'parser');
    if (isJsonObject(time.displayFormats)) for (const unit of Object.keys(time.displayFormats)) translateIn(time.displayFormats, unit);
  }
}
