import { useBlocker, useNavigate } from '@tanstack/react-router';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { useMessageText } from '../../../i18n/use-message.ts';
import { type TemplateView, useSaveTemplate, useTemplateAction } from '../template-api.ts';
import { dimensionValue } from '../template-rules.ts';
import { type Draft, draftOf } from './draft.ts';
import { useApiPreview } from './use-api-preview.ts';
import { useTemplateDraft } from './use-template-draft.ts';

/**
 * The editor of a new (no `template`) or a private template: the draft, when its problems show (the
 * name once left, all of them once Save was pressed), saving, publishing, the API preview, and the
 * guard that asks before leaving unsaved changes.
 */
export function useTemplateEditor(template: TemplateView | undefined, initial: Draft) {
  const { t } = useTranslation('templates');
  const message = useMessageText();
  const navigate = useNavigate();
  const model = useTemplateDraft(initial);
  const { draft, dirtyRef, blocking } = model;
  const [showErrors, setShowErrors] = useState(false);
  const [nameTouched, setNameTouched] = useState(false);
  /** Save was pressed while the draft had problems: said beside the button until they are fixed. */
  const [saveRefused, setSaveRefused] = useState(false);
  const [publishOpen, setPublishOpen] = useState(false);
  const save = useSaveTemplate(template?.id);
  const publish = useTemplateAction('publish');

  const blocker = useBlocker({
    shouldBlockFn: () => dirtyRef.current,
    enableBeforeUnload: () => dirtyRef.current,
    withResolver: true,
  });

  const onSave = async () => {
    setShowErrors(true);
    setNameTouched(true);
    if (blocking) {
      // Said in place, not as a toast: a toast at the top right lay over this very button, and under a
      // pointer resting on it the toast stays (hover pauses it), so the next press hit the toast.
      setSaveRefused(true);
      focusFirstProblem();
      return;
    }
    setSaveRefused(false);
    try {
      const result = await save.mutateAsync({
        name: draft.name.trim(),
        width: dimensionValue(draft.size.width) as number,
        height: dimensionValue(draft.size.height) as number,
        svg: draft.svg,
        variables: draft.variables.map((v) => ({ name: v.name, type: v.type, defaultValue: v.defaultValue })),
      });
      const next = draftOf(result);
      model.markSaved(next);
      toast.success(t('toasts.saved'));
      if (next.svg !== draft.svg) toast.info(t('toasts.sanitised'));
      if (!template) void navigate({ to: '/template/edit/$id', params: { id: result.id }, replace: true });
    } catch (error) {
      toast.error(message(error));
    }
  };

  const onPublish = async () => {
    if (!template) return;
    try {
      await publish.mutateAsync(template.id);
      setPublishOpen(false);
      toast.success(t('toasts.published'));
      void navigate({ to: '/template/generate/$id', params: { id: template.id } });
    } catch (error) {
      toast.error(message(error));
    }
  };

  const preview = useApiPreview(
    model,
    useCallback(() => setShowErrors(true), []),
  );

  return {
    ...model,
    showErrors,
    saveRefused: saveRefused && blocking,
    nameTouched,
    touchName: () => setNameTouched(true),
    saving: save.isPending,
    onSave,
    publishing: publish.isPending,
    publishOpen,
    setPublishOpen,
    onPublish,
    blocker,
    preview,
  };
}

export type TemplateEditorState = ReturnType<typeof useTemplateEditor>;

/** Once the problems show (after this render), the first field that has one, so the caller lands on it. */
function focusFirstProblem(): void {
  setTimeout(() => document.querySelector<HTMLElement>('main [aria-invalid="true"]')?.focus(), 0);
}
