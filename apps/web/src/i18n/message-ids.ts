import type { MessageId } from '@render/contracts';

/**
 * The app's own sentences, which no server sends (a failed load, a copy confirmation): the `messages` catalog
 * holds them under `web.<key>`, next to the contracts' ids (`auth.emailTaken`).
 */
export const WebMessages = {
  generic: 'An error occurred',
  noResponse: 'No response from server. Please check your internet connection.',
  invalidResponse: 'Invalid response structure',
  accessDenied: 'Access denied',
  templateLoadFailed: 'Failed to load template',
  templateIdCopied: 'Template ID copied to clipboard',
  registrationFailed: 'Registration failed. Please try again.',
  loginFailed: 'An error occurred during login',
  statsLoadFailed: 'Error loading statistics',
  paymentInfoUnavailable: 'Unable to load payment information',
  paymentInfoFailed: 'Failed to load payment information',
  portalFailed: 'Failed to open billing portal',
  cancelFailed: 'Failed to cancel subscription',
  reactivateFailed: 'Failed to reactivate subscription',
  base64Copied: 'Base64 content copied to clipboard',
  codeCopied: 'Code copied to clipboard!',
} as const;

export type CatalogId = MessageId | `web.${keyof typeof WebMessages}`;

/**
 * The catalog id of a text the app holds (a form's check from the contracts, its own toast), or undefined: the
 * English catalog read backwards. Its texts are the contracts' `MessageIds` and `WebMessages`, word for word
 * (test/i18n-catalogs.test.ts), so this is the contracts' `messageIdOf` without loading the contracts' schemas,
 * and TypeBox, into the landing page (docs/decisions/0034-route-heads.md).
 */
export function catalogIdOf(english: Readonly<Record<string, unknown>> | undefined, text: string): CatalogId | undefined {
  let ids = idsByText.get(english ?? {});
  if (!ids) {
    ids = new Map(Object.entries(english ?? {}).map(([id, value]) => [String(value), id as CatalogId]));
    if (english) idsByText.set(english, ids);
  }
  return ids.get(text);
}
const idsByText = new WeakMap<object, Map<string, CatalogId>>();
