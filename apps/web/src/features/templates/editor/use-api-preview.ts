import { RenderHeads } from '@render/contracts/route-heads';
import { useCallback, useState } from 'react';
import { useRenderRun } from '../../../components/render-form/use-render-run.ts';
import { type RenderedImage, renderImage } from '../../../lib/render-api.ts';
import type { TemplateDraft } from './use-template-draft.ts';

export type PreviewView = 'live' | 'api';

/**
 * Ctrl/Cmd+Enter (or the button): the real render of the current SVG (with its defaults) through the API,
 * shown instead of the live preview until the user switches back. `onInvalid` when the draft cannot render.
 */
export function useApiPreview({ draft, detected, fieldProblems, previewSvg }: TemplateDraft, onInvalid: () => void) {
  const [rendered, setRendered] = useState<RenderedImage | null>(null);
  const [view, setView] = useState<PreviewView>('live');
  const { busy: rendering, run } = useRenderRun('Failed to generate image');
  const renderWithApi = useCallback(async () => {
    if (!detected.valid || fieldProblems.width || fieldProblems.height) {
      onInvalid();
      return;
    }
    setView('api');
    await run(async (current) => {
      setRendered(
        await renderImage({
          route: RenderHeads.svg,
          body: { svg: previewSvg, width: Number(draft.size.width), height: Number(draft.size.height), format: 'png' },
          outputField: 'output',
          signal: current.signal,
        }),
      );
    });
  }, [detected.valid, fieldProblems.width, fieldProblems.height, previewSvg, draft.size, onInvalid, run]);
  return { rendered, rendering, view, setView, renderWithApi };
}

export type ApiPreview = ReturnType<typeof useApiPreview>;
