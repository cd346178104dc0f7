import type { TemplateView, UserView } from '@render/contracts';
import { signedTemplateUrlPairs } from '@render/contracts/signed-template-url';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { generateBody, generateProblems } from '../src/features/templates/generate/generate-values.ts';
import { readListSearch } from '../src/features/templates/list/list-search.ts';
import { SizeSelector, type SizeValue } from '../src/features/templates/size-selector.tsx';
import { listRequestPath, sortTemplates } from '../src/features/templates/template-api.ts';
import { TemplateCreatePage } from '../src/features/templates/template-editor.page.tsx';
import { TemplateListPage } from '../src/features/templates/template-list.page.tsx';
import { bindingProblems, detectBindings, presetOf, sizeProblem, suggestVariable } from '../src/features/templates/template-rules.ts';
import { createSessionStore } from '../src/lib/session/session.store.ts';
import { expectTexts } from './helpers/expect-texts.ts';
import { adaUser } from './helpers/gateway-fake.ts';
import { renderPage } from './helpers/render-page.tsx';

const USER: UserView = adaUser({ memberSince: '2026-01-01T00:00:00.000Z', apiKey: 'rk_test_key' });

const signedIn = () => {
  const store = createSessionStore();
  store.signIn('token-1', USER);
  return store;
};

const svg = (inner: string) => `<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100">${inner}</svg>`;

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('variable detection (data-variable)', () => {
  it('reads every binding with the elements it sits on, and suggests a variable for each', () => {
    const detected = detectBindings(
      svg(
        '<text data-variable="title">Hello</text><tspan data-variable="title">x</tspan><image data-variable="logo" href="https://x.test/a.png"/><text data-variable="n"> 42 </text>',
      ),
    );
    expect(detected.valid).toBe(true);
    expect([...detected.bindings]).toEqual([
      ['title', ['text', 'tspan']],
      ['logo', ['image']],
      ['n', ['text']],
    ]);
    expect(suggestVariable('title', detected)).toEqual({ name: 'title', type: 'text', defaultValue: 'Hello' });
    expect(suggestVariable('logo', detected)).toEqual({ name: 'logo', type: 'image', defaultValue: 'https://x.test/a.png' });
    expect(suggestVariable('n', detected)).toEqual({ name: 'n', type: 'number', defaultValue: '42' });
  });

  it('adds the SVG namespace a pasted inline SVG lacks, and refuses what is not SVG', () => {
    expect(detectBindings('<svg><text data-variable="a">A</text></svg>').bindings.get('a')).toEqual(['text']);
    expect(detectBindings('<div data-variable="a"/>').valid).toBe(false);
    expect(detectBindings('<svg><text>').valid).toBe(false);
    expect(detectBindings('').valid).toBe(false);
  });
});

describe('binding rules (the service refuses the same)', () => {
  const detected = detectBindings(svg('<text data-variable="title">T</text><image data-variable="photo"/><rect data-variable="box"/>'));

  it('accepts declared variables that match their bindings', () => {
    expect(
      bindingProblems(
        [
          { name: 'title', type: 'text', defaultValue: 'T' },
          { name: 'photo', type: 'image', defaultValue: '' },
          { name: 'box', type: 'text', defaultValue: '' },
        ],
        detected,
      ),
    ).toEqual([]);
  });

  it('names each declared variable without a binding and each binding without a variable', () => {
    expect(
      bindingProblems(
        [
          { name: 'title', type: 'text', defaultValue: '' },
          { name: 'ghost', type: 'text', defaultValue: '' },
        ],
        detected,
      ),
    ).toEqual([
      { code: 'unbound', name: 'ghost' },
      { code: 'undeclared', name: 'photo' },
      { code: 'undeclared', name: 'box' },
    ]);
  });

  it('keeps image variables on <image> and only there', () => {
    const problems = bindingProblems(
      [
        { name: 'title', type: 'image', defaultValue: '' },
        { name: 'photo', type: 'text', defaultValue: '' },
        { name: 'box', type: 'text', defaultValue: '' },
      ],
      detected,
    );
    expect(problems).toEqual([
      { code: 'imageNotOnImage', name: 'title', element: 'text' },
      { code: 'nonImageOnImage', name: 'photo', type: 'text' },
    ]);
  });

  it("flags what the service refuses beyond the editor's old rules: prototype names, characters XML does not allow", () => {
    const d = detectBindings(svg('<text data-variable="constructor"/><text data-variable="t"/>'));
    expect(
      bindingProblems(
        [
          { name: 'constructor', type: 'text', defaultValue: '' },
          { name: 't', type: 'text', defaultValue: 'a\u0001b' },
        ],
        d,
      ),
    ).toEqual([
      { code: 'prototypeName', name: 'constructor' },
      { code: 'forbiddenCharacter', name: 't', character: 'U+0001', position: 2 },
    ]);
  });

  it('checks names, reserved names, duplicates and default values', () => {
    const d = detectBindings(
      svg('<text data-variable="format"/><text data-variable="n"/><image data-variable="i"/><text data-variable="1bad"/>'),
    );
    expect(
      bindingProblems(
        [
          { name: 'format', type: 'text', defaultValue: '' },
          { name: 'n', type: 'number', defaultValue: 'abc' },
          { name: 'n', type: 'number', defaultValue: '1' },
          { name: 'i', type: 'image', defaultValue: 'ftp://x' },
          { name: '1bad', type: 'text', defaultValue: '' },
        ],
        d,
      ),
    ).toEqual([
      { code: 'reserved', name: 'format' },
      { code: 'numberDefault', name: 'n' },
      { code: 'duplicate', name: 'n' },
      { code: 'imageDefault', name: 'i' },
      { code: 'invalidName', name: '1bad' },
    ]);
    expect(bindingProblems([], detectBindings('<p/>'))).toEqual([{ code: 'svgInvalid' }]);
  });

  it('shows the rules in the editor as the variables change, with a fix for each', async () => {
    const user = userEvent.setup();
    renderPage(TemplateCreatePage, { path: '/template/create', session: signedIn() });
    const rules = await screen.findByTestId('binding-rules');
    expect(rules).toHaveTextContent('Every variable is bound and every binding is declared.');
    await user.click(screen.getByRole('button', { name: 'Remove subtitle' }));
    expect(rules).toHaveTextContent('The SVG binds data-variable="subtitle" but no variable named "subtitle" is declared.');
    await user.click(within(rules).getByRole('button', { name: 'Declare subtitle' }));
    expect(rules).toHaveTextContent('Every variable is bound and every binding is declared.');
    await user.clear(screen.getByLabelText('Variable name', { selector: '#var-name-0' }));
    await user.type(screen.getByLabelText('Variable name', { selector: '#var-name-0' }), 'headline');
    expect(rules).toHaveTextContent('Variable "headline" is declared but no element in the SVG has data-variable="headline".');
    expect(rules).toHaveTextContent('The SVG binds data-variable="eyebrow" but no variable named "eyebrow" is declared.');
  });
});

function SizeHarness({ initial }: { initial: SizeValue }) {
  const [value, setValue] = useState(initial);
  return (
    <>
      <SizeSelector value={value} onChange={setValue} />
      <output data-testid="size">{`${value.width}x${value.height}`}</output>
    </>
  );
}

describe('size selection', () => {
  it('bounds width and height to 50-4000 whole pixels with the contract messages', () => {
    expect(sizeProblem('width', '50')).toBeUndefined();
    expect(sizeProblem('height', '4000')).toBeUndefined();
    expect(sizeProblem('width', '49')).toBe('width must be between 50 and 4000');
    expect(sizeProblem('height', '4001')).toBe('height must be between 50 and 4000');
    expect(sizeProblem('width', '120.5')).toBe('width must be a whole number between 50 and 4000');
    expect(sizeProblem('width', '')).toBe('width must be between 50 and 4000');
    expect([presetOf('1200', '630'), presetOf('1080', '1920'), presetOf('1000', '630')]).toEqual(['social', 'story', 'custom']);
  });

  it('applies presets and shows the bound message under a custom size', async () => {
    const user = userEvent.setup();
    render(<SizeHarness initial={{ width: '1200', height: '630' }} />);
    expect(screen.getByRole('radio', { name: /Social card/ })).toHaveAttribute('aria-checked', 'true');
    await user.click(screen.getByRole('radio', { name: /Story/ }));
    expect(screen.getByTestId('size')).toHaveTextContent('1080x1920');
    expect(screen.getByRole('radio', { name: /Story/ })).toHaveAttribute('aria-checked', 'true');
    const width = screen.getByLabelText('Width (px)');
    fireEvent.change(width, { target: { value: '4001' } });
    // Validated on blur: nothing while typing.
    expect(screen.queryByText('width must be between 50 and 4000')).toBeNull();
    fireEvent.blur(width);
    expect(await screen.findByText('width must be between 50 and 4000')).toBeInTheDocument();
    expect(screen.getByRole('radio', { name: /Custom/ })).toHaveAttribute('aria-checked', 'true');
    fireEvent.change(width, { target: { value: '4000' } });
    expect(screen.queryByText('width must be between 50 and 4000')).toBeNull();
    fireEvent.change(screen.getByLabelText('Height (px)'), { target: { value: '10' } });
    fireEvent.blur(screen.getByLabelText('Height (px)'));
    expect(screen.getByText('height must be between 50 and 4000')).toBeInTheDocument();
  });
});

const template = (overrides: Partial<TemplateView>): TemplateView => ({
  id: '5fa7e1a0-0000-4000-8000-000000000001',
  name: 'Card',
  width: 1200,
  height: 630,
  svg: svg('<text data-variable="title">T</text>'),
  variables: [{ name: 'title', type: 'text', defaultValue: 'T' }],
  variablesCount: 1,
  creatorName: 'Render API',
  isPublic: true,
  isOwner: false,
  starCount: 0,
  isStarred: false,
  createdAt: '2026-11-01T00:00:00.000Z',
  updatedAt: '2026-11-01T00:00:00.000Z',
  ...overrides,
});

describe('the list: tabs, sort and search', () => {
  it('asks the right call for each tab (docs/spec/calls.md)', () => {
    expect(listRequestPath({ tab: 'public', sort: 'date', page: 1 })).toBe('/api/template/public?sortBy=date&page=1&pageSize=24');
    expect(listRequestPath({ tab: 'public', sort: 'stars', q: ' card ', page: 2 })).toBe(
      '/api/template/public?q=card&sortBy=stars&page=2&pageSize=24',
    );
    expect(listRequestPath({ tab: 'mine', sort: 'stars', q: 'x', page: 1 })).toBe('/api/template/user?q=x&pageSize=50');
    expect(listRequestPath({ tab: 'favorites', sort: 'date', page: 1 })).toBe('/api/template/starred?pageSize=50');
  });

  it('reads the options from the URL, visitors on Public only', () => {
    expect(readListSearch({}, true)).toEqual({ tab: 'mine', q: undefined, sort: 'date', page: 1 });
    expect(readListSearch({}, false).tab).toBe('public');
    expect(readListSearch({ tab: 'favorites' }, false).tab).toBe('public');
    expect(readListSearch({ tab: 'nope', sort: 'stars', page: '3' }, true)).toMatchObject({ tab: 'mine', sort: 'stars', page: 3 });
  });

  it('sorts own and starred lists by date or stars', () => {
    const a = template({ id: 'a', starCount: 1, createdAt: '2026-11-03T00:00:00.000Z' });
    const b = template({ id: 'b', starCount: 5, createdAt: '2026-11-01T00:00:00.000Z' });
    const c = template({ id: 'c', starCount: 5, createdAt: '2026-11-02T00:00:00.000Z' });
    expect(sortTemplates([a, b, c], 'date').map((t) => t.id)).toEqual(['a', 'c', 'b']);
    expect(sortTemplates([a, b, c], 'stars').map((t) => t.id)).toEqual(['c', 'b', 'a']);
  });

  function stubList() {
    const calls: string[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) => {
        calls.push(String(url));
        const data = [template({ name: 'Starter card', starCount: 3 })];
        return new Response(JSON.stringify({ data, pagination: { page: 1, pageSize: 24, total: 1 } }), {
          status: 200,
          headers: { 'content-type': 'application/json' },
        });
      }),
    );
    return calls;
  }

  it('sends the tab, search and sort chosen, with Apply', async () => {
    const calls = stubList();
    const user = userEvent.setup();
    renderPage(TemplateListPage, { path: '/template/list', session: signedIn() });
    await screen.findByText('Starter card');
    expect(calls.at(-1)).toContain('/api/template/user?pageSize=50');
    await user.click(screen.getByRole('tab', { name: 'Public' }));
    await waitFor(() => expect(calls.at(-1)).toContain('/api/template/public?sortBy=date&page=1&pageSize=24'));
    await user.type(screen.getByLabelText('Search templates'), 'card');
    await user.selectOptions(screen.getByLabelText('Sort by'), 'stars');
    await user.click(screen.getByRole('button', { name: 'Apply' }));
    await waitFor(() => expect(calls.at(-1)).toContain('/api/template/public?q=card&sortBy=stars&page=1&pageSize=24'));
    await user.click(screen.getByRole('tab', { name: 'Favorites' }));
    await waitFor(() => expect(calls.at(-1)).toContain('/api/template/starred?q=card&pageSize=50'));
    // Every call carries the session.
    const [, init] = (fetch as unknown as ReturnType<typeof vi.fn>).mock.calls.at(-1) as [string, RequestInit];
    expect((init.headers as Record<string, string>).authorization).toBe('Bearer token-1');
  });

  it('shows visitors the public list and asks them to sign in for the others', async () => {
    const calls = stubList();
    const store = createSessionStore();
    store.signOut();
    const user = userEvent.setup();
    renderPage(TemplateListPage, { path: '/template/list', session: store });
    const card = await screen.findByTestId('template-card');
    expectTexts(card, ['Starter card', '1200 × 630', '1 variable', 'Render API', 'Public']);
    expect(calls).toEqual([expect.stringContaining('/api/template/public?sortBy=date')]);
    await user.click(screen.getByRole('tab', { name: 'My Templates' }));
    expect(await screen.findByRole('dialog', { name: 'Sign in required' })).toBeInTheDocument();
    await user.keyboard('{Escape}');
    await user.click(within(card).getByTestId('star-button'));
    expect(await screen.findByRole('dialog', { name: 'Sign in required' })).toBeInTheDocument();
    expect(calls).toHaveLength(1);
  });
});

describe('the generate form', () => {
  const t = template({
    variables: [
      { name: 'title', type: 'text', defaultValue: 'T' },
      { name: 'count', type: 'number', defaultValue: '1' },
      { name: 'photo', type: 'image', defaultValue: '' },
    ],
  });

  it('validates image URLs (http/https) and numbers, and quality for JPEG', () => {
    const values = { variables: { title: 'x', count: 'abc', photo: 'javascript:alert(1)' }, format: 'jpeg' as const, quality: '0' };
    expect(generateProblems(t, values)).toEqual({
      count: 'numberValue',
      photo: 'Please enter a valid URL (including http:// or https://)',
      quality: 'quality must be between 1 and 100',
    });
    expect(generateProblems(t, { variables: { photo: 'https://x.test/a.png', count: '2' }, format: 'png', quality: '0' })).toEqual({});
  });

  it('sends only the values that differ from the defaults, numbers as numbers', () => {
    expect(generateBody(t, { variables: { title: 'T', count: '7', photo: '' }, format: 'webp', quality: '60' })).toEqual({
      templateId: t.id,
      variables: { count: 7 },
      format: 'webp',
      quality: 60,
    });
    // AVIF takes a quality; optimize goes only with png.
    expect(generateBody(t, { variables: {}, format: 'avif', quality: '45', optimize: true })).toEqual({
      templateId: t.id,
      format: 'avif',
      quality: 45,
    });
    expect(generateBody(t, { variables: {}, format: 'png', quality: '80', optimize: true })).toEqual({
      templateId: t.id,
      format: 'png',
      optimize: true,
    });
  });

  it('puts the signed URL parameters in the order the signature covers', () => {
    expect(signedTemplateUrlPairs({ templateId: 'x', variables: { title: 'Hi', a: '1', empty: '' }, format: 'png' })).toEqual([
      ['a', '1'],
      ['format', 'png'],
      ['title', 'Hi'],
    ]);
  });
});
