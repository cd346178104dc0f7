import { AuthMessages, FieldTexts } from '@render/contracts';
import { renderHook } from '@testing-library/react';
import i18next from 'i18next';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { WebMessages } from '../src/i18n/message-ids.ts';
import { useMessageText } from '../src/i18n/use-message.ts';
import { ApiError } from '../src/lib/api-client.ts';

beforeAll(() => i18next.loadNamespaces(['messages', 'errors']));
afterEach(() => i18next.changeLanguage('en'));

const french = (key: string, ns = 'messages') => i18next.getFixedT('fr', ns)(key, { keySeparator: ns === 'messages' ? false : '.' });
const messageText = () => renderHook(() => useMessageText()).result.current;
/** A server's error answer as the API client makes it. */
const answer = (body: Record<string, unknown>) => new ApiError(String(body.message), 400, { success: false, ...body });

describe('useMessageText: server errors by their message id', () => {
  it('fr: an answer whose English no catalog holds is translated by its messageId', async () => {
    await i18next.changeLanguage('fr');
    const text = messageText()(
      answer({ code: 'CONFLICT', messageId: 'auth.emailTaken', message: 'That address is in use already (reworded on the server)' }),
    );
    expect(text).toBe(french('auth.emailTaken'));
    expect(text).toMatch(/existe déjà/);
  });

  it('fr: the id wins over the English text, even when that text is another catalogued sentence', async () => {
    await i18next.changeLanguage('fr');
    const text = messageText()(answer({ code: 'CONFLICT', messageId: 'auth.emailTaken', message: AuthMessages.invalidCredentials }));
    expect(text).toBe(french('auth.emailTaken'));
  });

  it('fr: a catalogued English text without an id is said by its code (the text alone is not trusted)', async () => {
    await i18next.changeLanguage('fr');
    const text = messageText()(answer({ code: 'VALIDATION_ERROR', message: FieldTexts.widthRange }));
    expect(text).toBe(french('codes.VALIDATION_ERROR', 'errors'));
  });

  it('fr: an unknown id falls back to the code', async () => {
    await i18next.changeLanguage('fr');
    const text = messageText()(answer({ code: 'VALIDATION_ERROR', messageId: 'auth.noSuchMessage', message: 'Something new' }));
    expect(text).toBe(french('codes.VALIDATION_ERROR', 'errors'));
  });

  it('en: the catalog’s English for an id, the server’s own words without one', () => {
    const text = messageText();
    expect(text(answer({ code: 'CONFLICT', messageId: 'auth.emailTaken', message: 'reworded' }))).toBe(AuthMessages.emailTaken);
    expect(text(answer({ code: 'VALIDATION_ERROR', message: 'width must be between 50 and 4000, or so' }))).toBe(
      'width must be between 50 and 4000, or so',
    );
  });
});

describe('useMessageText: the app’s own strings by their text', () => {
  it('fr: a form’s contracts message and an app message resolve to their ids', async () => {
    await i18next.changeLanguage('fr');
    const text = messageText();
    expect(text(AuthMessages.passwordWeak)).toBe(french('auth.passwordWeak'));
    expect(text(WebMessages.templateLoadFailed)).toBe(french('web.templateLoadFailed'));
    expect(text(new ApiError(WebMessages.noResponse, 0))).toBe(french('web.noResponse'));
    expect(french('web.templateLoadFailed')).not.toBe(WebMessages.templateLoadFailed);
  });

  it('a text no catalog holds is shown as it is', async () => {
    await i18next.changeLanguage('fr');
    expect(messageText()('Invalid chart data format: datasets[0] has no data')).toBe('Invalid chart data format: datasets[0] has no data');
  });
});
