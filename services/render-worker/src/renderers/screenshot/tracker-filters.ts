import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

/**
 * The blockAds / blockTrackers lists: Ghostery's tracker database (`@ghostery/trackerdb`, a production
 * dependency updated often; bumping it updates the lists), read once from the installed package's
 * `dist/trackerdb.txt` when this module loads. Nothing is downloaded at run time.
 *
 * The file is adblock syntax, each filter preceded by `! trackerdb_id:<id> trackerdb_category:<category>
 * trackerdb_filter|trackerdb_domain`. Only `trackerdb_filter` lines are used: they are what Ghostery
 * blocks. `trackerdb_domain` lines say which organisation owns a domain (google.com and facebook.com are
 * "advertising" domains there); blocking them would break maps, sign-in buttons and embeds.
 *
 * Categories (trackerdb.json describes them):
 * - ads: `advertising`, `pornvertising`.
 * - trackers: `site_analytics` ("data analytics, site usage, and performance trackers") and `misc`
 *   ("different types of unclassified trackers").
 * - not blocked: `audio_video_player`, `social_media` (embedded players and feeds are page content),
 *   `customer_interaction` (chat and support widgets, shop personalisation), `utilities` (tag managers,
 *   privacy notices: "may be critical to website functionality"), `hosting` (CDNs), `extensions`, and
 *   `consent` (cookie banners are `hideCookieBanners`' job).
 *
 * What is kept of adblock syntax: host-anchored filters (`||host^`, `||host/path*…`, `^` separators, `*`
 * wildcards, a trailing `|`), matched against the host and its parent domains through one Map (a lookup
 * per label, not a scan of the list), with the options `$3p`/`$third-party`, `$1p`/`$first-party` and the
 * resource types `script`, `image`, `stylesheet`, `xhr`, `subdocument`. Skipped and counted in
 * `TrackerFilterStats`: regular-expression filters, filters not anchored to a host, `domain=` and other
 * options, and cosmetic (`##`) rules. With trackerdb 1.0.945 that keeps 3,454 of the 3,610 filters of the
 * chosen categories (2,452 ads, 1,002 trackers; 127 regular expressions skipped).
 *
 * Licence: the database is CC-BY-NC-SA-4.0 (non-commercial). Selling renders that use it needs Ghostery's
 * commercial licence, or a switch to EasyList/EasyPrivacy (GPL-3.0 or CC-BY-SA-3.0) once a package that
 * ships them is available to the build; they are adblock syntax too, so this parser carries over.
 */

export type BlockCategory = 'ads' | 'trackers';

const CategoryOf: Readonly<Record<string, BlockCategory>> = {
  advertising: 'ads',
  pornvertising: 'ads',
  site_analytics: 'trackers',
  misc: 'trackers',
};

/** Chromium's resource types (Fetch.requestPaused) for the filter options we understand. */
const ResourceTypes: Readonly<Record<string, readonly string[]>> = {
  script: ['Script'],
  image: ['Image'],
  stylesheet: ['Stylesheet'],
  xhr: ['XHR', 'Fetch'],
  subdocument: ['Document'],
};

export interface HostRule {
  category: BlockCategory;
  /** The original filter, for tests and logs. */
  filter: string;
  /** Matched against what follows the host name (`:port/path?query`); absent: the whole host. */
  rest?: RegExp;
  party?: 'first' | 'third';
  /** Chromium resource types this rule applies to; absent: all. */
  types?: ReadonlySet<string>;
}

export interface TrackerFilterStats {
  source: string;
  used: Record<BlockCategory, number>;
  /** Filters of the chosen categories that cannot be expressed as a host rule here, by reason. */
  skipped: Record<'regex' | 'not-host-anchored' | 'options' | 'cosmetic', number>;
}

export interface TrackerFilters {
  /** Rules by the host they are anchored to (lower case, no trailing dot). */
  byHost: ReadonlyMap<string, readonly HostRule[]>;
  stats: TrackerFilterStats;
}

const HOST_ANCHORED = /^\|\|([a-z0-9-]+(?:\.[a-z0-9-]+)+)([\^/].*)?$/;

/** An adblock pattern (what follows the host) as a regular expression anchored at its start. */
function restPattern(rest: string): RegExp {
  let source = '^';
  for (let i = 0; i < rest.length; i++) {
    const char = rest[i]!;
    if (char === '*') source += '.*';
    else if (char === '^') source += '(?:[^\\w\\-.%]|$)';
    else if (char === '|' && i === rest.length - 1) source += '$';
    else source += char.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  }
  return new RegExp(source, 'i');
}

type Parsed = { rule: Omit<HostRule, 'category'> & { host: string } } | { skip: keyof TrackerFilterStats['skipped'] };

export function parseFilter(filter: string): Parsed {
  if (filter.includes('##') || filter.includes('#@#')) return { skip: 'cosmetic' };
  if (filter.startsWith('/')) return { skip: 'regex' };
  const dollar = filter.indexOf('$');
  const pattern = dollar === -1 ? filter : filter.slice(0, dollar);
  const options = dollar === -1 ? [] : filter.slice(dollar + 1).split(/[,$]/);
  const anchored = HOST_ANCHORED.exec(pattern.toLowerCase());
  if (!anchored) return { skip: 'not-host-anchored' };
  const [, host, rest] = anchored as unknown as [string, string, string | undefined];
  let party: HostRule['party'];
  const types = new Set<string>();
  for (const option of options) {
    if (option === '3p' || option === 'third-party') party = 'third';
    else if (option === '1p' || option === 'first-party') party = 'first';
    else if (ResourceTypes[option]) for (const type of ResourceTypes[option]) types.add(type);
    else return { skip: 'options' };
  }
  // `||host^` alone blocks the whole host; so does a pattern that is only a separator.
  const wholeHost = rest === undefined || rest === '^' || rest === '^|';
  return {
    rule: {
      host,
      filter,
      ...(wholeHost ? {} : { rest: restPattern(rest) }),
      ...(party ? { party } : {}),
      ...(types.size ? { types } : {}),
    },
  };
}

const FILTER_HEADER = /^! trackerdb_id:\S+ trackerdb_category:(\S+) trackerdb_filter\s*$/;

/** Parses trackerdb.txt (exported for tests; the worker uses `trackerFilters`). */
export function parseTrackerDb(text: string, source: string): TrackerFilters {
  const byHost = new Map<string, HostRule[]>();
  const stats: TrackerFilterStats = {
    source,
    used: { ads: 0, trackers: 0 },
    skipped: { regex: 0, 'not-host-anchored': 0, options: 0, cosmetic: 0 },
  };
  const lines = text.split('\n');
  for (let i = 0; i < lines.length - 1; i++) {
    const header = FILTER_HEADER.exec(lines[i]!);
    if (!header) continue;
    const category = CategoryOf[header[1]!];
    const filter = lines[++i]!.trim();
    if (!category || !filter || filter.startsWith('!')) continue;
    const parsed = parseFilter(filter);
    if ('skip' in parsed) {
      stats.skipped[parsed.skip]++;
      continue;
    }
    const { host, ...rule } = parsed.rule;
    const rules = byHost.get(host) ?? [];
    rules.push({ category, ...rule });
    byHost.set(host, rules);
    stats.used[category]++;
  }
  return { byHost, stats };
}

/** The installed package's trackerdb.txt ("exports" hides dist/, so it is found next to the package's entry point). */
function trackerDbFile(): string {
  const entry = createRequire(import.meta.url).resolve('@ghostery/trackerdb');
  return path.join(path.dirname(entry), '..', 'trackerdb.txt');
}

export const trackerFilters: TrackerFilters = (() => {
  const file = trackerDbFile();
  return parseTrackerDb(readFileSync(file, 'utf8'), file);
})();

/** Approximate registrable domain, for `$3p`: the last two labels, three under a country code's second level (co.uk, com.au). */
export function siteOf(host: string): string {
  if (/^[\d.]+$/.test(host) || host.includes(':')) return host;
  const labels = host.split('.');
  const countrySecondLevel = labels.length >= 3 && labels.at(-1)!.length === 2 && labels.at(-2)!.length <= 3;
  return labels.slice(countrySecondLevel ? -3 : -2).join('.');
}

export interface RequestFacts {
  /** Lower case, no trailing dot. */
  host: string;
  /** What follows the host in the URL: `:port/path?query`. */
  rest: string;
  /** Chromium's resource type, when known. */
  type?: string;
  pageHost: string;
}

/** The first rule of the chosen categories that blocks the request, walking up the host's labels. */
export function matchingRule(filters: TrackerFilters, request: RequestFacts, categories: readonly BlockCategory[]): HostRule | undefined {
  let thirdParty: boolean | undefined;
  let name = request.host;
  for (;;) {
    for (const rule of filters.byHost.get(name) ?? []) {
      if (!categories.includes(rule.category)) continue;
      if (rule.types && (!request.type || !rule.types.has(request.type))) continue;
      if (rule.party) {
        thirdParty ??= siteOf(request.host) !== siteOf(request.pageHost);
        if (thirdParty !== (rule.party === 'third')) continue;
      }
      if (rule.rest && !rule.rest.test(request.rest)) continue;
      return rule;
    }
    const dot = name.indexOf('.');
    if (dot === -1) return undefined;
    name = name.slice(dot + 1);
  }
}
