import {
  AuthMessages,
  BillingMessages,
  HtmlConvertBody,
  MessageGroups,
  type MessageId,
  MessageIds,
  messageIdOf,
  TemplateMessages,
} from '@render/contracts';
import { ajvOptions, errorHandler } from '@render/fastify-kit';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';

/**
 * packages/contracts message-catalog.ts: every catalogued sentence has one id, the id a client translates by
 * (the web app's `messages` catalog is keyed by it). An id that is renamed or dropped breaks every translation
 * of it, so the ids are pinned here: adding one means adding it to this list (and to both web catalogs).
 */
const PINNED: Record<string, string[]> = {
  auth: [
    'nameRequired',
    'nameTooShort',
    'nameTooLong',
    'emailInvalid',
    'emailRequired',
    'passwordRequired',
    'passwordTooShort',
    'passwordTooLong',
    'passwordWeak',
    'passwordsMismatch',
    'confirmRequired',
    'usageSource',
    'referralSource',
    'plannedServices',
    'acceptTerms',
    'companyTooLong',
    'registered',
    'emailTaken',
    'invalidCredentials',
    'unverified',
    'loginSuccess',
    'resendSent',
    'resetRequested',
    'resetDone',
    'resetInvalid',
    'codeRequired',
    'verificationInvalid',
    'codeExpired',
    'codeLocked',
    'alreadyVerified',
    'verified',
    'tooManyRequests',
    'tooManyLogins',
    'invalidToken',
    'invalidApiKey',
    'sessionRequired',
  ],
  billing: [
    'notConfigured',
    'providerUnavailable',
    'priceUnavailable',
    'alreadySubscribed',
    'noBillingAccount',
    'noSubscription',
    'alreadyCancelling',
    'notCancelling',
    'periodEnded',
    'cancelled',
    'reactivated',
  ],
  template: ['notFound', 'notPermitted', 'publicFrozen', 'signInRequired'],
  problem: ['invalidJson', 'unexpected', 'renderFailed', 'screenshotFailed'],
  field: [
    'htmlRequired',
    'svgRequired',
    'codeRequired',
    'codeTooLong',
    'widthRange',
    'widthType',
    'heightRange',
    'heightType',
    'heightOrAuto',
    'qualityRange',
    'qualityType',
    'scaleRange',
    'scaleType',
    'fontSizeRange',
    'fontSizeType',
    'paddingRange',
    'paddingType',
    'borderRadiusRange',
    'borderRadiusType',
    'delayRange',
    'delayType',
    'selectorType',
    'selectorTooLong',
    'colorsType',
    'backgroundColorType',
  ],
  chart: ['dataJson', 'data', 'options'],
  chartFormat: ['pdf', 'svg'],
  screenshotUrl: ['required', 'invalid'],
  screenshotOption: [
    'hideSelectors',
    'click',
    'selectorType',
    'selectorEmpty',
    'selectorTooLong',
    'scrollTo',
    'timezone',
    'geolocation',
    'latitude',
    'longitude',
    'accuracy',
    'failOnHttpStatus',
    'failOnConsoleError',
    'blockRequests',
    'blockPatternLength',
    'blockPatternForm',
    'blockPatternPage',
  ],
  webhook: ['invalid', 'tooLong', 'signedIn'],
  idempotency: ['format', 'reused', 'inUse'],
  highchartsExport: ['noChart', 'type', 'constr', 'filename'],
  apiKeys: ['nameRequired', 'nameTooLong', 'scopeInvalid', 'expiresAtInvalid', 'tooMany', 'notFound', 'keyIdInvalid', 'scopeTooNarrow'],
  video: ['scenario', 'durationRange', 'durationType', 'fpsRange', 'fpsType', 'tooLarge', 'notForImages', 'elementCapture', 'transparent'],
  pageContent: ['metadataNeedsJson', 'contentNoSelector'],
  renderLink: ['kind', 'keyRequired', 'keyUnknown', 'signatureInvalid', 'signedOnly', 'ttl', 'repeated', 'notInLinks', 'signedOnlyType'],
  batch: ['itemsRequired', 'tooMany', 'kind', 'body', 'defaults', 'notFound', 'notFinished', 'noImages', 'unavailable', 'ended'],
};

describe('the message catalog (packages/contracts)', () => {
  it('has exactly the pinned ids, each `<group>.<key>`', () => {
    const pinned = Object.entries(PINNED).flatMap(([group, keys]) => keys.map((key) => `${group}.${key}`));
    expect(Object.keys(MessageIds).sort()).toEqual(pinned.sort());
    for (const id of Object.keys(MessageIds)) expect(id).toMatch(/^[a-z][A-Za-z]*\.[a-z][A-Za-z]*$/);
  });

  it('gives each sentence one id and finds it back by its text', () => {
    const texts = Object.values(MessageIds);
    expect(texts.filter((text, i) => texts.indexOf(text) !== i)).toEqual([]);
    for (const [id, text] of Object.entries(MessageIds)) {
      expect(text.trim(), id).not.toBe('');
      expect(messageIdOf(text), text).toBe(id);
    }
  });

  it('holds the texts the services answer with, taken from their own objects', () => {
    const cases: Array<[MessageId, string]> = [
      ['auth.emailTaken', AuthMessages.emailTaken],
      ['billing.noSubscription', BillingMessages.noSubscription],
      ['template.notFound', TemplateMessages.notFound],
      ['field.widthRange', 'width must be between 50 and 4000'],
      ['field.htmlRequired', 'Please enter some HTML content'],
    ];
    for (const [id, text] of cases) {
      expect(MessageIds[id]).toBe(text);
      expect(messageIdOf(text)).toBe(id);
    }
    expect(Object.keys(MessageGroups.highchartsExport)).not.toContain('number');
    expect(messageIdOf('width must be between 50 and 4000 ')).toBeUndefined();
    expect(messageIdOf('Something else')).toBeUndefined();
  });

  it('names the text the error handler answers for a field (read from the schema)', async () => {
    const app = Fastify({ ajv: ajvOptions });
    await app.register(errorHandler);
    app.post('/html', { schema: { body: HtmlConvertBody } }, async () => ({ success: true }));
    const res = await app.inject({ method: 'POST', url: '/html', payload: { html: '<p>x</p>', width: 10 } });
    await app.close();
    expect(res.json()).toMatchObject({ message: MessageIds['field.widthRange'], messageId: 'field.widthRange' });
  });
});
