import { describe, expect, it } from 'vitest';
import { UsageError } from '../src/cli/inputs.ts';
import { helpText } from '../src/cli/main.ts';
import { screenshotInteractionFields } from '../src/cli/screenshot-flags.ts';

describe('renderapi screenshot: interaction flags', () => {
  it('turns the flags into the body fields the API takes', () => {
    expect(
      screenshotInteractionFields({
        hide: ['#cookie-bar', '.chat'],
        click: ['#accept', '.tab-2'],
        'scroll-to': '1200',
        timezone: 'Europe/Paris',
        geolocation: '48.8566, 2.3522,25',
        block: ['*.mp4'],
        'fail-on-status': '404,500',
        'fail-on-console-error': true,
      }),
    ).toEqual({
      hideSelectors: ['#cookie-bar', '.chat'],
      click: ['#accept', '.tab-2'],
      scrollTo: 1200,
      timezone: 'Europe/Paris',
      geolocation: { latitude: 48.8566, longitude: 2.3522, accuracy: 25 },
      blockRequests: ['*.mp4'],
      failOnHttpStatus: [404, 500],
      failOnConsoleError: true,
    });
    expect(screenshotInteractionFields({ 'scroll-to': '#pricing', geolocation: '1,2' })).toEqual({
      scrollTo: '#pricing',
      geolocation: { latitude: 1, longitude: 2 },
    });
    expect(screenshotInteractionFields({})).toEqual({});
  });

  it('refuses flags it cannot read, saying what they take', () => {
    expect(() => screenshotInteractionFields({ geolocation: 'Paris' })).toThrow(UsageError);
    expect(() => screenshotInteractionFields({ geolocation: '1' })).toThrow('--geolocation takes latitude,longitude[,accuracy] (got "1")');
    expect(() => screenshotInteractionFields({ 'fail-on-status': '404,,500' })).toThrow(
      '--fail-on-status takes status codes separated by commas, e.g. 404,500 (got "404,,500")',
    );
  });

  it('lists them in the screenshot help', () => {
    for (const flag of [
      '--hide',
      '--click',
      '--scroll-to',
      '--timezone',
      '--geolocation',
      '--block',
      '--fail-on-status',
      '--fail-on-console-error',
    ])
      expect(helpText('screenshot')).toContain(flag);
  });
});
