import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { consentTriggers } from '../src/renderers/screenshot/consent-blocker.ts';
import {
  needsConsentRules,
  type PageFacts,
  rulesForPage,
  selectorParts,
  triggerToken,
} from '../src/renderers/screenshot/consent-triggers.ts';

const page = (tokens: string[], extra: Partial<PageFacts> = {}): PageFacts => ({
  url: 'https://shop.example/',
  tokens,
  probeMatched: false,
  ...extra,
});

describe('consent triggers', () => {
  it('splits selector lists at top-level commas only', () => {
    expect(selectorParts('#a, .b ,div[x="1,2"]')).toEqual(['#a', '.b', 'div[x="1,2"]']);
    expect(selectorParts(':is(.a,.b) > p')).toEqual([':is(.a,.b) > p']);
  });

  it('takes the leading id or class, a tag name before it allowed', () => {
    expect(triggerToken('div#CMP-Box > p')).toBe('#cmp-box');
    expect(triggerToken('.cmp-root .cmp-receptacle')).toBe('.cmp-root');
    expect(triggerToken('[data-cookie-banner]')).toBeUndefined();
    expect(triggerToken('tiktok-cookie-banner')).toBeUndefined();
  });

  it('the rule set and the platforms autoconsent finds in code make the triggers', () => {
    const triggers = consentTriggers();
    // OneTrust and consentmanager are code in autoconsent, not rules; Didomi and Usercentrics are rules.
    for (const token of ['#onetrust-banner-sdk', '#onetrust-pc-sdk', '#cmpbox', '#truste-consent-track', '#didomi-host'])
      expect(triggers.tokens.has(token), token).toBe(true);
    expect(triggers.selectors.length).toBeGreaterThan(10);
    expect(triggers.selectors.some((selector) => selector.startsWith('xpath/'))).toBe(false);
    expect(triggers.sites.some((site) => site.test('https://www.tumblr.com/'))).toBe(true);
  });

  it('the rules sent are those the page shows a sign of, the ones tokens cannot tell, or all after a consent request', () => {
    const triggers = consentTriggers();
    const keep = rulesForPage(triggers, page(['#main', '.cky-consent-container']), false)!;
    expect(keep('cookieyes')).toBe(true);
    // cookie-law-info is told by #cookie-law-info-bar, which this page does not have.
    expect(keep('cookie-law-info')).toBe(false);
    // A site's own rule goes to its site only.
    const [site] = [...triggers.byRule].find(([, by]) => by.site?.test('https://www.coasthotels.com/'))!;
    expect(keep(site)).toBe(false);
    expect(rulesForPage(triggers, page([], { url: 'https://www.coasthotels.com/' }), false)!(site)).toBe(true);
    // A rule nothing is known of is sent.
    expect(keep('a rule that is not in the set')).toBe(true);
    // Far fewer than the ~200 of a top document are sent to a page with one platform's markup.
    const named = [...triggers.byRule.keys()];
    expect(named.filter(keep).length).toBeLessThan(named.length / 4);
    expect(rulesForPage(triggers, page(['.cky-consent-container']), true)).toBeUndefined();
  });

  it('a page needs the rule set for a platform token, a matching probe selector, a site rule or a consent request', () => {
    const triggers = consentTriggers();
    expect(needsConsentRules(triggers, page(['#main', '.card', '.header']), false)).toBe(false);
    expect(needsConsentRules(triggers, page(['#main', '#onetrust-banner-sdk']), false)).toBe(true);
    expect(needsConsentRules(triggers, page(['#main'], { probeMatched: true }), false)).toBe(true);
    expect(needsConsentRules(triggers, page(['#main'], { url: 'https://www.tumblr.com/explore' }), false)).toBe(true);
    expect(needsConsentRules(triggers, page(['#main']), true)).toBe(true);
  });

  it('covers every platform autoconsent detects in code (a new one there fails this until it is added to BUILT_IN_TRIGGERS)', () => {
    const require = createRequire(import.meta.url);
    const cmps = join(dirname(require.resolve('@duckduckgo/autoconsent')), '..', 'lib', 'cmps');
    const files = readdirSync(cmps).filter((file) => !['base.ts', 'all.ts'].includes(file));
    expect(files.sort()).toEqual(
      [
        'admiral.ts',
        'consentmanager.ts',
        'conversant.ts',
        'cookiebot.ts',
        'evidon.ts',
        'klaro.ts',
        'onetrust.ts',
        'sourcepoint-frame.ts',
        'tiktok.ts',
        'trustarc-top.ts',
        'tumblr-com.ts',
        'uniconsent.ts',
      ].sort(),
    );
    // The literal selectors their detection asks for are each covered by a token or a probe selector.
    const triggers = consentTriggers();
    for (const file of files) {
      const source = readFileSync(join(cmps, file), 'utf8');
      const detect = /async detectCmp\(\)[\s\S]*?\n {4}\}/.exec(source)?.[0] ?? '';
      for (const [, selector] of detect.matchAll(/element(?:Exists|Visible)\('([^']+)'/g)) {
        const covered =
          triggers.selectors.includes(selector!) || selectorParts(selector!).every((part) => triggers.tokens.has(triggerToken(part) ?? ''));
        expect(covered, `${file}: ${selector}`).toBe(true);
      }
    }
  });
});
