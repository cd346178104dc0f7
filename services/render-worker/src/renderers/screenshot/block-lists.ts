import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { addCosmeticList, type CosmeticFilters, emptyCosmeticFilters } from './cosmetic-filters.ts';
import { addFilterList, addTrackerDb, BLOCK_CATEGORIES, type BlockCategory, emptyFilters, type TrackerFilters } from './tracker-filters.ts';

/**
 * Which lists the screenshot renderer reads, once per process (worker config; README "Ad, tracker and
 * cookie-notice lists"):
 * - blockAds / blockTrackers: the files of BLOCKLIST_FILES (adblock or hosts syntax, each for one
 *   category), by default the project's own small lists in `blocklists/` (Apache-2.0, like the repository);
 *   the worker image ships EasyList and EasyPrivacy (GPLv3 / CC BY-SA 3.0) and points BLOCKLIST_FILES at
 *   them. Ghostery's trackerdb (CC-BY-NC-SA-4.0, non-commercial) only with BLOCKLIST_TRACKERDB=true.
 * - hideCookieBanners' element hiding: the files of COOKIE_LIST_FILES, by default EasyList Cookie as
 *   DuckDuckGo's autoconsent 15.1.0 ships it (npm alias `autoconsent-filterlist`; the list is EasyList's,
 *   GPLv3 / CC BY-SA 3.0); the image fetches the current one.
 */

export interface BlockListFile {
  category: BlockCategory;
  path: string;
}

export interface BlockListSettings {
  /** Empty: the project's own lists. */
  files: readonly BlockListFile[];
  /** Also Ghostery's trackerdb (CC-BY-NC-SA-4.0). */
  trackerDb: boolean;
  /** Cookie-notice lists (cosmetic rules); empty: the packaged EasyList Cookie. */
  cookieFiles: readonly string[];
}

export interface ScreenshotFilters {
  network: TrackerFilters;
  cosmetic: CosmeticFilters;
}

/** The project's lists: next to the compiled bundle (dist/blocklists), else the checkout's. */
export const DEFAULT_BLOCKLIST_DIR = fileURLToPath(
  [new URL('./blocklists/', import.meta.url), new URL('../../../blocklists/', import.meta.url)].find((dir) => existsSync(dir)) ??
    new URL('../../../blocklists/', import.meta.url),
);

export const defaultBlockListFiles = (): BlockListFile[] =>
  BLOCK_CATEGORIES.map((category) => ({ category, path: path.join(DEFAULT_BLOCKLIST_DIR, `${category}.txt`) }));

/**
 * BLOCKLIST_FILES: comma-separated `ads=<file>` / `trackers=<file>` entries. Throws a message naming the
 * entry when one is malformed; the files themselves are read by `loadScreenshotFilters`.
 */
export function parseBlockListFiles(value: string): BlockListFile[] {
  return value
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean)
    .map((entry) => {
      const match = /^(ads|trackers)=(.+)$/.exec(entry);
      if (!match) throw new Error(`BLOCKLIST_FILES: "${entry}" is not ads=<file> or trackers=<file>`);
      return { category: match[1] as BlockCategory, path: match[2]!.trim() };
    });
}

const require = createRequire(import.meta.url);

/** The packaged EasyList Cookie ("exports" hides rules/filterlist.txt; it sits beside dist/). */
export function packagedCookieList(): string {
  return path.join(path.dirname(require.resolve('autoconsent-filterlist')), '..', 'rules', 'filterlist.txt');
}

/** trackerdb.txt, found next to the package's entry point ("exports" hides dist/). */
function trackerDbFile(): string {
  return path.join(path.dirname(require.resolve('@ghostery/trackerdb')), '..', 'trackerdb.txt');
}

function read(file: string, setting: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (err) {
    throw new Error(`${setting}: cannot read ${file} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
}

/** Reads and parses every list once; throws (at the worker's start) when a configured file cannot be read. */
export function loadScreenshotFilters(settings: BlockListSettings): ScreenshotFilters {
  const network = emptyFilters();
  const files = settings.files.length ? settings.files : defaultBlockListFiles();
  for (const file of files) addFilterList(network, read(file.path, 'BLOCKLIST_FILES'), file.category, file.path);
  if (settings.trackerDb) addTrackerDb(network, read(trackerDbFile(), 'BLOCKLIST_TRACKERDB'), '@ghostery/trackerdb');
  const cosmetic = emptyCosmeticFilters();
  const cookieFiles = settings.cookieFiles.length ? settings.cookieFiles : [packagedCookieList()];
  for (const file of cookieFiles) addCosmeticList(cosmetic, read(file, 'COOKIE_LIST_FILES'), file);
  return { network, cosmetic };
}

let defaults: ScreenshotFilters | undefined;

/** The lists used when the worker was given none (tests, tools): the defaults above, read on first use. */
export function defaultScreenshotFilters(): ScreenshotFilters {
  defaults ??= loadScreenshotFilters({ files: [], trackerDb: false, cookieFiles: [] });
  return defaults;
}
