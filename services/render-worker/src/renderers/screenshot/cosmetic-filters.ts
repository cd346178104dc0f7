/**
 * Element hiding rules in the standard adblock cosmetic syntax (`##selector`, `example.com##selector`,
 * `example.com#@#selector`), as the cookie-notice lists write them. Used by hideCookieBanners: the rules that
 * match the page are applied just before the capture (cosmetic-hiding.ts).
 *
 * A list holds ~15,000 generic selectors; a stylesheet of all of them costs Chromium ~80 ms per page. So
 * generic selectors that begin with an id or a class (`###cookie-bar`, `##.cc-window > div`; nearly all of
 * them) are indexed by that token, and only those whose token the page uses are applied; the few hundred
 * others (`##[data-cookie-banner]`) are always applied. Matching stays Chromium's: a token only says the
 * selector could match.
 *
 * Kept: plain CSS selectors, `:has()`/`:is()`/`:not()` included (Chromium has them). Skipped: uBlock's and
 * AdGuard's procedural and scriptlet rules (`#?#`, `#$#`, `##+js(…)`, `:has-text()`, `:style()`,
 * `:remove()`, `:xpath()`, `:upward()`, `:matches-*()`, …), and anything with braces or comments, which
 * could reach outside its rule.
 */

export interface CosmeticFilters {
  /** Generic selectors by the lower-cased id or class they begin with ("#cookie-bar", ".cc-window"). */
  byToken: ReadonlyMap<string, readonly string[]>;
  /** Generic selectors without such a token: always applied. */
  untokened: readonly string[];
  /** Selectors for a domain (lower case; `name.*` for any public suffix). */
  byDomain: ReadonlyMap<string, readonly string[]>;
  /** `domain#@#selector`: selectors a domain does not hide (`*` for every domain). */
  exceptions: ReadonlyMap<string, ReadonlySet<string>>;
  stats: { sources: string[]; generic: number; specific: number; skipped: number };
}

export function emptyCosmeticFilters(): CosmeticFilters {
  return {
    byToken: new Map(),
    untokened: [],
    byDomain: new Map(),
    exceptions: new Map(),
    stats: { sources: [], generic: 0, specific: 0, skipped: 0 },
  };
}

const RULE = /^([^#]*)#(@?)#(.+)$/;
const EXTENDED =
  /:(?:-abp-|has-text|contains|style|remove|xpath|upward|matches-|min-text-length|watch-attr|others|nth-ancestor|if|if-not|properties)\b/;
/** The leading `#id` / `.class` of a selector, when it is a plain name (escapes and odd characters: no token). */
const LEADING_TOKEN = /^([#.])((?:[\w-]|[^\p{ASCII}])+)(?![\\(])/u;

/** The index token of a selector ("#id" / ".class", lower case), or undefined. */
export function selectorToken(selector: string): string | undefined {
  if (/^[#.][\w-]+\s*,/.test(selector)) return undefined; // a list: each part would need its own token
  const match = LEADING_TOKEN.exec(selector);
  return match ? `${match[1]}${match[2]!.toLowerCase()}` : undefined;
}

/** A selector's ids and classes ("#id", ".class"), once its parentheses and attribute brackets are taken out. */
const NAMED = /([#.])((?:[\w-]|[^\p{ASCII}])+)/gu;

/**
 * Whether `selector` could match an element of a page whose elements carry `tokens` ("#id", ".class", lower
 * case, as cosmetic-hiding.ts collects them): every id and class it asks for outside parentheses (`:not(.x)`,
 * `:is(.a, .b)`) and attribute brackets must be among them, since each names an element that must exist
 * (`.card.cookie` needs an element with both classes). Anything it cannot read this way (a list, an escape,
 * brackets left unbalanced) could match.
 */
export function mayMatch(selector: string, tokens: ReadonlySet<string>): boolean {
  if (selector.includes('\\')) return true;
  let plain = selector.replace(/\[[^\]]*\]/g, '');
  for (let before = ''; before !== plain; ) {
    before = plain;
    plain = plain.replace(/\([^()]*\)/g, '');
  }
  if (/[,()[\]"']/.test(plain)) return true;
  for (const [, kind, name] of plain.matchAll(NAMED)) if (!tokens.has(`${kind}${name!.toLowerCase()}`)) return false;
  return true;
}

const usable = (selector: string) => !EXTENDED.test(selector) && !/[{}]|\/\*/.test(selector) && !selector.startsWith('+js');

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/** Adds the cosmetic rules of one list (its network rules are ignored here) to `filters`. */
export function addCosmeticList(filters: CosmeticFilters, text: string, source: string): CosmeticFilters {
  const byToken = filters.byToken as Map<string, string[]>;
  const byDomain = filters.byDomain as Map<string, string[]>;
  const exceptions = filters.exceptions as Map<string, Set<string>>;
  const untokened = filters.untokened as string[];
  filters.stats.sources.push(source);
  for (const raw of text.split('\n')) {
    const rule = RULE.exec(raw.trim());
    if (!rule || raw.trimStart().startsWith('!')) continue;
    const [, domainList, exception, selector] = rule as unknown as [string, string, string, string];
    if (!usable(selector)) {
      filters.stats.skipped++;
      continue;
    }
    const domains = domainList
      .split(',')
      .map((d) => d.trim().toLowerCase())
      .filter((d) => d && !d.startsWith('~'));
    if (exception) {
      for (const domain of domains.length ? domains : ['*']) {
        const set = exceptions.get(domain) ?? new Set<string>();
        set.add(selector);
        exceptions.set(domain, set);
      }
    } else if (domainList.trim()) {
      // `~domain` entries only narrow a rule for other domains; a rule with nothing else is generic elsewhere.
      if (!domains.length) continue;
      for (const domain of domains) push(byDomain, domain, selector);
      filters.stats.specific++;
    } else {
      const token = selectorToken(selector);
      if (token) push(byToken, token, selector);
      else untokened.push(selector);
      filters.stats.generic++;
    }
  }
  return filters;
}

/**
 * The names a page host's domain rules may be filed under: the host, each parent domain, and each with its
 * last one or two labels as `*` (`shop.example.co.uk` → …, `example.co.*`, `example.*`).
 */
export function domainKeys(host: string): string[] {
  const keys: string[] = [];
  const labels = host.toLowerCase().replace(/\.$/, '').split('.');
  for (let i = 0; i < labels.length; i++) {
    const name = labels.slice(i);
    keys.push(name.join('.'));
    for (const cut of [1, 2]) if (name.length > cut) keys.push(`${name.slice(0, -cut).join('.')}.*`);
  }
  return keys;
}

/** Every selector to hide on a page of `host` whose elements carry `tokens` ("#id", ".class", lower case). */
export function selectorsFor(filters: CosmeticFilters, host: string, tokens: Iterable<string>): string[] {
  const keys = domainKeys(host);
  const excepted = new Set<string>(filters.exceptions.get('*') ?? []);
  for (const key of keys) for (const selector of filters.exceptions.get(key) ?? []) excepted.add(selector);
  const selectors = new Set<string>(filters.untokened);
  for (const token of tokens) for (const selector of filters.byToken.get(token) ?? []) selectors.add(selector);
  for (const key of keys) for (const selector of filters.byDomain.get(key) ?? []) selectors.add(selector);
  for (const selector of excepted) selectors.delete(selector);
  return [...selectors];
}
