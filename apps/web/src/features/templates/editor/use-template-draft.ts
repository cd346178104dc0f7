import { useDeferredValue, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  applyDefaults,
  bindingProblems,
  detectBindings,
  type EditorVariable,
  nameProblem,
  SVG_MAX_BYTES,
  sizeProblem,
  suggestVariable,
  svgByteLength,
  svgProblem,
} from '../template-rules.ts';
import { type Draft, snapshot, withKey } from './draft.ts';

/**
 * The draft being edited and what the binding rules say of it: the bindings found in the SVG, the
 * problems (each once), the preview with the defaults applied, the fields' problems, and whether it
 * differs from what was last saved.
 */
export function useTemplateDraft(initial: Draft) {
  const { t } = useTranslation('templates');
  const [draft, setDraft] = useState<Draft>(initial);
  const saved = useRef(snapshot(initial));
  const dirty = snapshot(draft) !== saved.current;
  // Read by the navigation blocker, which keeps the function it was given first.
  const dirtyRef = useRef(dirty);
  dirtyRef.current = dirty;

  const deferredSvg = useDeferredValue(draft.svg);
  const detected = useMemo(() => detectBindings(deferredSvg), [deferredSvg]);
  const problems = useMemo(() => {
    const all = bindingProblems(draft.variables, detected);
    return all.filter((problem, index) => all.findIndex((other) => JSON.stringify(other) === JSON.stringify(problem)) === index);
  }, [draft.variables, detected]);
  const previewSvg = useMemo(
    () => (detected.valid ? applyDefaults(deferredSvg, draft.variables) : ''),
    [deferredSvg, detected, draft.variables],
  );
  const bytes = svgByteLength(draft.svg);
  const fieldProblems = {
    name: nameProblem(draft.name),
    svg: svgProblem(draft.svg) ?? (bytes > SVG_MAX_BYTES ? t('editor.tooLarge', { max: SVG_MAX_BYTES / 1024 }) : undefined),
    width: sizeProblem('width', draft.size.width),
    height: sizeProblem('height', draft.size.height),
  };
  const blocking = Object.values(fieldProblems).some(Boolean) || problems.length > 0;
  const declaredNames = new Set(draft.variables.map((v) => v.name));
  const undeclared = [...detected.bindings.keys()].filter((name) => !declaredNames.has(name));

  const update = (patch: Partial<Draft>) => setDraft((current) => ({ ...current, ...patch }));
  const setVariable = (index: number, patch: Partial<EditorVariable>) =>
    update({ variables: draft.variables.map((v, i) => (i === index ? { ...v, ...patch } : v)) });
  const declare = (name: string) => update({ variables: [...draft.variables, withKey(suggestVariable(name, detected))] });
  const declareAll = () => update({ variables: [...draft.variables, ...undeclared.map((n) => withKey(suggestVariable(n, detected)))] });
  const undeclare = (name: string) => update({ variables: draft.variables.filter((v) => v.name !== name) });
  /** What the service stored (sanitised SVG) is the new saved state. */
  const markSaved = (next: Draft) => {
    saved.current = snapshot(next);
    dirtyRef.current = false;
    setDraft(next);
  };

  return {
    draft,
    dirty,
    dirtyRef,
    detected,
    problems,
    previewSvg,
    bytes,
    fieldProblems,
    blocking,
    undeclared,
    update,
    setVariable,
    declare,
    declareAll,
    undeclare,
    markSaved,
  };
}

export type TemplateDraft = ReturnType<typeof useTemplateDraft>;
