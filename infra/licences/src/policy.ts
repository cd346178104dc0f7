// Which licences the production dependencies may carry. A package whose licence is not allowed here fails
// the inventory test unless it is an exception below, with the reason it is accepted. Change this file
// deliberately (a reviewer reads the diff), never to make the test pass.

/** One licence a production dependency may carry without further review, and why that is safe. */
export interface AllowedLicence {
  /** An SPDX identifier, as packages declare it. */
  id: string;
  why: string;
}

/** A package accepted under a licence outside the allow-list. */
export interface LicenceException {
  /** The package name, or a prefix ending in `*` for a family of platform builds (`@img/sharp-libvips-*`). */
  package: string;
  /** The licence it declares today: if that changes, the exception no longer applies and must be reviewed. */
  licence: string;
  reason: string;
}

export interface LicencePolicy {
  allowed: AllowedLicence[];
  exceptions: LicenceException[];
}

const permissive = 'permissive: commercial use, modification and redistribution with the notice kept';

export const policy: LicencePolicy = {
  allowed: [
    { id: 'MIT', why: permissive },
    { id: 'MIT-0', why: `${permissive} (not even the notice required)` },
    { id: 'ISC', why: permissive },
    { id: '0BSD', why: `${permissive} (not even the notice required)` },
    { id: 'BSD-2-Clause', why: permissive },
    { id: 'BSD-3-Clause', why: `${permissive}; no endorsement with the authors' names` },
    { id: 'Apache-2.0', why: `${permissive}, with a patent grant; NOTICE files kept` },
    { id: 'BlueOak-1.0.0', why: permissive },
    { id: 'Zlib', why: permissive },
    { id: 'Python-2.0', why: permissive },
    { id: 'Unlicense', why: 'public domain dedication' },
    { id: 'CC0-1.0', why: 'public domain dedication (data: MDN CSS data, brand icons)' },
    {
      id: 'MPL-2.0',
      why: 'weak copyleft per file: used unmodified, as here, it asks only that the source of those files stays available (it is, on npm)',
    },
    { id: 'OFL-1.1', why: 'fonts (JetBrains Mono in code images): free to embed and bundle, not to sell on their own' },
  ],
  exceptions: [
    {
      package: 'highcharts',
      licence: 'https://www.highcharts.com/license',
      reason:
        'Highsoft licence: free for non-commercial use only. The chart renderer ships it for `library: "highcharts"`; a commercial ' +
        'deployment needs a commercial Highcharts licence from Highsoft (README, ARCHITECTURE and the docs say so).',
    },
    {
      package: '@ghostery/trackerdb',
      licence: 'CC-BY-NC-SA-4.0',
      reason:
        'Ghostery tracker database, non-commercial only. Loaded only when an operator explicitly chooses it (a non-commercial ' +
        "deployment, or one with Ghostery's commercial licence); the default ad/tracker blocking uses EasyList, EasyPrivacy " +
        "and the project's own list instead.",
    },
    {
      package: '@img/sharp-libvips-*',
      licence: 'LGPL-3.0-or-later',
      reason:
        "libvips, sharp's image library, as the prebuilt shared library of its own npm package: used unmodified and dynamically " +
        'linked, so anyone can replace it, which is what the LGPL asks; commercial use is allowed.',
    },
  ],
};
