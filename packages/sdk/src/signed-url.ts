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
