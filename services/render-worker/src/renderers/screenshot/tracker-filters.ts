/**
 * The blockAds / blockTrackers lists: files in the standard adblock or hosts syntax, each for one category
 * (block-lists.ts says which files are read). Parsed once at start into one Map by host: a request costs a
 * lookup per label of its host, not a scan of the list.
 *
 * What is kept of adblock syntax: host-anchored filters (`||host^`, `||host/path*…`, `^` separators, `*`
 * wildcards, a trailing `|`) and their `@@` exceptions, with the options `$3p`/`$third-party`,
 * `$1p`/`$first-party` and the resource types `script`, `image`, `stylesheet`, `xhr`, `subdocument`.
 * Hosts-file lines (`0.0.0.0 host`, `127.0.0.1 host …`) and bare domain lines block the whole host. Skipped
 * and counted in `TrackerFilterStats`: regular expressions, filters not anchored to a host (`/ads/*`),
 * `domain=` and other options, and cosmetic (`##`) rules, which cosmetic-filters.ts reads.
 *
 * Ghostery's tracker database (`@ghostery/trackerdb`, CC-BY-NC-SA-4.0: no commercial use) is read only
 * when the worker is told to (BLOCKLIST_TRACKERDB); `addTrackerDb` maps its categories.
 */

export type BlockCategory = 'ads' | 'trackers';

export const BLOCK_CATEGORIES: readonly BlockCategory[] = ['ads', 'trackers'];

/** trackerdb's categories: ads = advertising; trackers = site analytics and unclassified trackers. */
const TrackerDbCategory: Readonly<Record<string, BlockCategory>> = {
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
  /** An `@@` exception: requests it matches are let through even when another rule blocks them. */
  allow?: boolean;
  /** Matched against what follows the host name (`:port/path?query`); absent: the whole host. */
  rest?: RegExp;
  party?: 'first' | 'third';
  /** Chromium resource types this rule applies to; absent: all. */
  types?: ReadonlySet<string>;
}

export interface TrackerFilterStats {
  /** The files (or package) the rules came from. */
  sources: string[];
  used: Record<BlockCategory, number>;
  /** Lines that cannot be expressed as a host rule here, by reason. */
  skipped: Record<'regex' | 'not-host-anchored' | 'options' | 'cosmetic', number>;
}

export interface TrackerFilters {
  /** Rules by the host they are anchored to (lower case, no trailing dot). */
  byHost: ReadonlyMap<string, readonly HostRule[]>;
  stats: TrackerFilterStats;
}

export function emptyFilters(): TrackerFilters {
  return {
    byHost: new Map(),
    stats: { sources: [], used: { ads: 0, trackers: 0 }, skipped: { regex: 0, 'not-host-anchored': 0, options: 0, cosmetic: 0 } },
  };
}

const HOST_ANCHORED = /^\|\|([a-z0-9-]+(?:\.[a-z0-9-]+)+)([\^/].*)?$/;
const HOST_NAME = /^[a-z0-9-_]+(?:\.[a-z0-9-_]+)+$/;
const HOSTS_LINE = /^(?:0\.0\.0\.0|127\.0\.0\.1|::1|::)\s+(.+)$/;
/** Names a hosts file maps for the machine itself, not to block anything. */
const HOSTS_SELF = new Set(['localhost', 'localhost.localdomain', 'local', 'broadcasthost', 'ip6-localhost', 'ip6-loopback', '0.0.0.0']);
const COSMETIC = /#[@?$%]?#|#@[$?]#/;

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

/** One adblock network filter (an `@@` exception included) as a host rule, or why it is skipped. */
export function parseFilter(filter: string): Parsed {
  if (COSMETIC.test(filter)) return { skip: 'cosmetic' };
  const allow = filter.startsWith('@@');
  const body = allow ? filter.slice(2) : filter;
  if (/^\/.*\/(?:\$.*)?$/.test(body)) return { skip: 'regex' };
  const dollar = body.indexOf('$');
  const pattern = dollar === -1 ? body : body.slice(0, dollar);
  const options = dollar === -1 ? [] : body.slice(dollar + 1).split(/[,$]/);
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
      ...(allow ? { allow } : {}),
      ...(wholeHost ? {} : { rest: restPattern(rest) }),
      ...(party ? { party } : {}),
      ...(types.size ? { types } : {}),
    },
  };
}

function addRule(filters: TrackerFilters, host: string, rule: HostRule): void {
  const byHost = filters.byHost as Map<string, HostRule[]>;
  const rules = byHost.get(host);
  if (rules) rules.push(rule);
  else byHost.set(host, [rule]);
  if (!rule.allow) filters.stats.used[rule.category]++;
}

/** The hosts a line of a hosts file (or a plain domain list) names; empty when it is something else. */
export function hostsOfLine(line: string): string[] {
  const entry = line
    .replace(/\s#.*$/, '')
    .trim()
    .toLowerCase()
    .replace(/\.$/, '');
  const mapped = HOSTS_LINE.exec(entry);
  const names = mapped ? mapped[1]!.split(/\s+/) : HOST_NAME.test(entry) ? [entry] : [];
  return names.map((name) => name.replace(/\.$/, '')).filter((name) => HOST_NAME.test(name) && !HOSTS_SELF.has(name));
}

/**
 * Adds one list in adblock or hosts syntax (or a mix, or plain domains) to `filters`, every rule of it in
 * `category`. Comments (`!`, `#`, `[Adblock Plus 2.0]`) and empty lines are ignored.
 */
export function addFilterList(filters: TrackerFilters, text: string, category: BlockCategory, source: string): TrackerFilters {
  filters.stats.sources.push(source);
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (!line || line.startsWith('!') || line.startsWith('[')) continue;
    if (COSMETIC.test(line)) {
      filters.stats.skipped.cosmetic++;
      continue;
    }
    if (line.startsWith('#')) continue;
    const hosts = line.startsWith('||') || line.startsWith('@@') ? [] : hostsOfLine(line);
    if (hosts.length) {
      for (const host of hosts) addRule(filters, host, { category, filter: line });
      continue;
    }
    addFilter(filters, line, category);
  }
  return filters;
}

/** One adblock filter: added as a rule of `category`, or counted under the reason it was skipped. */
function addFilter(filters: TrackerFilters, filter: string, category: BlockCategory): void {
  const parsed = parseFilter(filter);
  if ('skip' in parsed) {
    filters.stats.skipped[parsed.skip]++;
    return;
  }
  const { host, ...rule } = parsed.rule;
  addRule(filters, host, { category, ...rule });
}

const TRACKERDB_FILTER = /^! trackerdb_id:\S+ trackerdb_category:(\S+) trackerdb_filter\s*$/;

/**
 * Adds Ghostery's trackerdb.txt (adblock syntax, each filter preceded by `! trackerdb_id:<id>
 * trackerdb_category:<category> trackerdb_filter|trackerdb_domain`). Only `trackerdb_filter` lines are
 * used: `trackerdb_domain` lines say which organisation owns a domain (google.com is an "advertising"
 * domain there), and blocking them would break maps, sign-in buttons and embeds. Its categories
 * `audio_video_player`, `social_media`, `customer_interaction`, `utilities`, `hosting`, `extensions` and
 * `consent` are not blocked.
 */
export function addTrackerDb(filters: TrackerFilters, text: string, source: string): TrackerFilters {
  filters.stats.sources.push(source);
  const lines = text.split('\n');
  for (let i = 0; i < lines.length - 1; i++) {
    const header = TRACKERDB_FILTER.exec(lines[i]!);
    if (!header) continue;
    const category = TrackerDbCategory[header[1]!];
    const filter = lines[++i]!.trim();
    if (category && filter && !filter.startsWith('!')) addFilter(filters, filter, category);
  }
  return filters;
}

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

function ruleApplies(rule: HostRule, request: RequestFacts, thirdParty: () => boolean): boolean {
  if (rule.types && (!request.type || !rule.types.has(request.type))) return false;
  if (rule.party && thirdParty() !== (rule.party === 'third')) return false;
  return !rule.rest || rule.rest.test(request.rest);
}

/**
 * The first rule of the chosen categories that blocks the request, walking up the host's labels, unless an
 * exception of the same category lets it through.
 */
export function matchingRule(filters: TrackerFilters, request: RequestFacts, categories: readonly BlockCategory[]): HostRule | undefined {
  let third: boolean | undefined;
  const thirdParty = () => (third ??= siteOf(request.host) !== siteOf(request.pageHost));
  const candidates: HostRule[] = [];
  for (let name = request.host; ; ) {
    const rules = filters.byHost.get(name);
    if (rules)
      for (const rule of rules) if (categories.includes(rule.category) && ruleApplies(rule, request, thirdParty)) candidates.push(rule);
    const dot = name.indexOf('.');
    if (dot === -1) break;
    name = name.slice(dot + 1);
  }
  const block = candidates.find((rule) => !rule.allow);
  if (!block || candidates.some((rule) => rule.allow && rule.category === block.category)) return undefined;
  return block;
}
