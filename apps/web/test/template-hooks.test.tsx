import { act, renderHook } from '@testing-library/react';
import i18next from 'i18next';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { type Draft, sampleDraft, withKey } from '../src/features/templates/editor/draft.ts';
import { useTemplateDraft } from '../src/features/templates/editor/use-template-draft.ts';
import { changedVariables } from '../src/features/templates/generate/generate-values.ts';
import { useGenerateForm } from '../src/features/templates/generate/use-generate-form.ts';
import { readListSearch, writeListSearch } from '../src/features/templates/list/list-search.ts';
import type { TemplateView } from '../src/features/templates/template-api.ts';

const generateTemplateImage = vi.hoisted(() => vi.fn());
vi.mock('../src/features/templates/template-api.ts', async (original) => ({
  ...(await original<typeof import('../src/features/templates/template-api.ts')>()),
  generateTemplateImage,
}));

// Loaded first, so the hooks' translations do not suspend.
beforeAll(() => i18next.loadNamespaces(['messages', 'errors', 'templates']));

const svg =
  '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><text data-variable="title">Hi</text><text data-variable="sub">S</text></svg>';
const draft = (patch: Partial<Draft> = {}): Draft => ({
  name: 'Card',
  svg,
  variables: [withKey({ name: 'title', type: 'text', defaultValue: 'Hi' })],
  size: { width: '100', height: '100' },
  ...patch,
});

describe('useTemplateDraft', () => {
  it('is dirty once changed, clean again once saved, and the saved state is what the service answered', () => {
    const { result } = renderHook(() => useTemplateDraft(draft()));
    expect(result.current.dirty).toBe(false);
    act(() => result.current.update({ name: 'Card 2' }));
    expect(result.current.dirty).toBe(true);
    expect(result.current.dirtyRef.current).toBe(true);
    act(() => result.current.markSaved(draft({ name: 'Card 2', svg: svg.replace('Hi', 'Hello') })));
    expect(result.current.dirty).toBe(false);
    expect(result.current.draft.svg).toContain('Hello');
    act(() => result.current.update({ name: 'Card' }));
    expect(result.current.dirty).toBe(true);
  });

  it('lists the undeclared bindings, declares one or all, and removes a variable', () => {
    const { result } = renderHook(() => useTemplateDraft(draft({ variables: [] })));
    expect(result.current.undeclared).toEqual(['title', 'sub']);
    expect(result.current.blocking).toBe(true);
    act(() => result.current.declare('sub'));
    expect(result.current.draft.variables.map((v) => v.name)).toEqual(['sub']);
    act(() => result.current.declareAll());
    expect(result.current.draft.variables.map((v) => v.name)).toEqual(['sub', 'title']);
    expect(result.current.undeclared).toEqual([]);
    expect(result.current.problems).toEqual([]);
    expect(result.current.blocking).toBe(false);
    act(() => result.current.undeclare('sub'));
    expect(result.current.draft.variables.map((v) => v.name)).toEqual(['title']);
    expect(result.current.problems.map((p) => p.code)).toEqual(['undeclared']);
  });

  it('edits one variable by its row, keeping the row’s key', () => {
    const { result } = renderHook(() => useTemplateDraft(draft()));
    const key = result.current.draft.variables[0]?.key;
    act(() => result.current.setVariable(0, { defaultValue: 'Bye' }));
    expect(result.current.draft.variables[0]).toMatchObject({ name: 'title', defaultValue: 'Bye', key });
  });

  it('reports each field’s problem and blocks saving while one remains', () => {
    const { result } = renderHook(() => useTemplateDraft(draft({ name: ' ', size: { width: '0', height: '100' } })));
    expect(result.current.fieldProblems.name).toBeTruthy();
    expect(result.current.fieldProblems.width).toBeTruthy();
    expect(result.current.fieldProblems.height).toBeUndefined();
    expect(result.current.blocking).toBe(true);
  });

  it('starts a new template from a sample that follows the rules', () => {
    const { result } = renderHook(() => useTemplateDraft(sampleDraft()));
    expect(result.current.problems).toEqual([]);
    expect(result.current.blocking).toBe(true); // no name yet
    expect(result.current.detected.valid).toBe(true);
    expect(result.current.previewSvg).toContain('Hello, templates');
  });
});

const template = {
  id: '11111111-1111-4111-8111-111111111111',
  name: 'Card',
  svg,
  width: 10,
  height: 10,
  variables: [
    { name: 'title', type: 'text', defaultValue: 'Hi' },
    { name: 'count', type: 'number', defaultValue: '1' },
  ],
} as unknown as TemplateView;

describe('useGenerateForm', () => {
  it('shows a field’s problem once it was left, all of them on Generate, and calls nothing while one remains', async () => {
    generateTemplateImage.mockReset();
    const { result } = renderHook(() => useGenerateForm(template));
    act(() => result.current.setVariable('count', 'many'));
    expect(result.current.problemText('count')).toBeUndefined();
    act(() => result.current.blur('count'));
    expect(result.current.problemText('count')).toBe(i18next.t('generate.numberValue', { ns: 'templates' }));
    act(() => result.current.update({ format: 'jpeg', quality: '' }));
    expect(result.current.shown('quality')).toBeUndefined();
    await act(() => result.current.generate());
    expect(result.current.shown('quality')).toBeTruthy();
    expect(generateTemplateImage).not.toHaveBeenCalled();
  });

  it('generates with the body the snippets show', async () => {
    generateTemplateImage.mockReset().mockResolvedValue({ dataUrl: 'data:image/png;base64,AA==' });
    const { result } = renderHook(() => useGenerateForm(template));
    act(() => result.current.setVariable('count', '3'));
    expect(result.current.body).toEqual({ templateId: template.id, variables: { count: 3 }, format: 'png' });
    await act(() => result.current.generate());
    expect(generateTemplateImage).toHaveBeenCalledWith(
      expect.objectContaining({ ...result.current.body, signal: expect.any(AbortSignal) }),
    );
    expect(result.current.image).toEqual({ dataUrl: 'data:image/png;base64,AA==' });
    expect(result.current.busy).toBe(false);
  });
});

describe('generate values and list options', () => {
  it('signs only the variables that differ from their defaults', () => {
    expect(changedVariables(template, { title: 'Hi', count: '2' })).toEqual({ count: '2' });
    expect(changedVariables(template, { title: '', count: '1' })).toEqual({});
  });

  it('writes the list options to the URL without defaults, and reads them back', () => {
    const params = { tab: 'public' as const, q: 'og', sort: 'stars' as const, page: 3 };
    expect(writeListSearch(params)).toEqual({ tab: 'public', q: 'og', sort: 'stars', page: 3 });
    expect(writeListSearch({ tab: 'mine', q: undefined, sort: 'date', page: 1 })).toEqual({ tab: 'mine' });
    expect(readListSearch(writeListSearch(params), false)).toEqual(params);
  });
});
