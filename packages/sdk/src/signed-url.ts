import {
  renderLinkKey as contractsRenderLinkKey,
  renderLinkSigningString as contractsRenderLinkSigningString,
  signRenderUrl as contractsSignRenderUrl,
} from '@render/contracts/signed-render-link';
import {
  templateImageSigningString as contractsSigningString,
  signTemplateUrl as contractsSignTemplateUrl,
} from '@render/contracts/signed-template-url';

/**
 * Signed template image URLs (`GET /api/template/{id}/image?<variables>&format=…&sig=<hex>`), which need no
 * credentials: put them in an `<img>` on any site. `sig` is the HMAC-SHA256, keyed with the template owner's
 * API key, of the template id and the query pairs sorted by name, percent-encoded. One implementation, in
 * packages/contracts (`signed-template-url.ts`): the gateway checks with it and the web app signs with it;
 * this build compiles it in. The types are declared here so the published declarations stand alone.
 * Sign on a server or in the owner's own browser: the key must not be shipped to other people's browsers.
 */
export interface SignedTemplateUrlInput {
  templateId: string;
  /** Variable values for the URL; empty strings are left out (the template's defaults apply). */
  variables?: Record<string, string | number>;
  format?: 'png' | 'jpeg' | 'webp' | 'svg' | (string & {});
  quality?: number;
}

export interface SignTemplateUrlInput extends SignedTemplateUrlInput {
  /** The API's origin, e.g. https://render.example.com */
  baseUrl: string;
  /** The template owner's API key (the signing key). */
  apiKey: string;
}

/** The string the signature covers: `<templateId>?<k=v&… sorted by name, then value; sig left out>`. */
export const templateImageSigningString: (templateId: string, params: Iterable<[string, string]>) => string = contractsSigningString;

export const signTemplateUrl: (input: SignTemplateUrlInput) => Promise<string> = contractsSignTemplateUrl;

/**
 * Render links (`GET /api/render/{kind}?<body fields>&key=…&ttl=…&sig=…`): the image of any render kind from a
 * URL, for `<img src>`. The query carries the POST body's fields (strings as they are, anything else as
 * JSON); `key` is the SHA-256 (hex) of the API key, `sig` the HMAC-SHA256, keyed with the API key, of
 * `/api/render/<kind>?<every other parameter sorted by name, then value, percent-encoded, joined with &>`.
 * Billed to the key's owner once per cache miss; cached (and Cache-Control max-age) for `ttl` seconds.
 */
export type RenderLinkKind = 'screenshot' | 'chart' | 'code' | 'html' | 'svg';

export interface RenderLinkOptions {
  /** Seconds the image is cached, and may be kept by browsers and CDNs (1–86400; a day by default). */
  ttl?: number;
  /** false: an unsigned link (key only), refused when the account requires signed links. */
  sign?: boolean;
}

export interface SignRenderUrlInput extends RenderLinkOptions {
  /** The API's origin, e.g. https://render.example.com */
  baseUrl: string;
  /** The account's API key: it signs the link and is never put in it (only its SHA-256). */
  apiKey: string;
  kind: RenderLinkKind;
  /** The body of the matching POST call (`output`, `outputType`, `cache` and `webhook` do not apply). */
  body: Record<string, unknown>;
}

export const signRenderUrl: (input: SignRenderUrlInput) => Promise<string> = contractsSignRenderUrl;
/** A render link's `key`: the lowercase hex SHA-256 of the API key. */
export const renderLinkKey: (apiKey: string) => Promise<string> = contractsRenderLinkKey;
/** The string a render link's `sig` covers. */
export const renderLinkSigningString: (kind: string, params: Iterable<[string, string]>) => string = contractsRenderLinkSigningString;
