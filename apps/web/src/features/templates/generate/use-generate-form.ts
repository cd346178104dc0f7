import { useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useRenderRun } from '../../../components/render-form/use-render-run.ts';
import { useMessageText } from '../../../i18n/use-message.ts';
import type { RenderedImage } from '../../../lib/render-api.ts';
import { generateTemplateImage, type TemplateView } from '../template-api.ts';
import { type GenerateValues, generateBody, generateProblems, initialValues } from './generate-values.ts';

/**
 * A template's generate form: the values, the problems to show (a field's once it was left, all of them
 * once Generate was pressed), the request body and the generated image.
 */
export function useGenerateForm(template: TemplateView) {
  const { t } = useTranslation('templates');
  const message = useMessageText();
  const [values, setValues] = useState<GenerateValues>(() => initialValues(template));
  const [touched, setTouched] = useState<Set<string>>(new Set());
  const [showAll, setShowAll] = useState(false);
  const [image, setImage] = useState<RenderedImage | null>(null);
  const { busy, run } = useRenderRun('Failed to generate image');

  const problems = useMemo(() => generateProblems(template, values), [template, values]);
  const body = useMemo(() => generateBody(template, values), [template, values]);
  /** The message shown under a field, translated (undefined while it is hidden or fine). */
  const shown = (name: string) => (showAll || touched.has(name) ? problems[name] : undefined);
  const problemText = (name: string) => {
    const problem = shown(name);
    return problem === 'numberValue' ? t('generate.numberValue') : problem ? message(problem) : undefined;
  };

  const generate = useCallback(async () => {
    setShowAll(true);
    if (Object.keys(problems).length > 0) return;
    await run(async (current) => {
      setImage(await generateTemplateImage({ ...body, signal: current.signal }));
    });
  }, [problems, body, run]);

  const update = (patch: Partial<GenerateValues>) => setValues((v) => ({ ...v, ...patch }));
  const setVariable = (name: string, value: string) => setValues((v) => ({ ...v, variables: { ...v.variables, [name]: value } }));
  const blur = (name: string) => setTouched((current) => new Set(current).add(name));

  return { values, update, setVariable, blur, shown, problemText, body, generate, busy, image };
}

export type GenerateForm = ReturnType<typeof useGenerateForm>;
