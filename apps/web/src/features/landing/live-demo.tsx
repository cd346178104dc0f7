import { RenderHeads } from '@render/contracts/route-heads';
import { Play } from 'lucide-react';
import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../components/ui/button.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { useMessageText } from '../../i18n/use-message.ts';
import type { RenderedImage } from '../../lib/render-api.ts';
import { DEMO_SIZE, demoHtml, demoImageUrl } from './demo-sample.ts';

/**
 * A real render through the API, right in the hero: edit the HTML, render, see the image and its timing. Until the
 * visitor presses Render it shows the sample's ready image (made by `scripts/render-hero.mjs`), so a visit costs
 * no render and the hero paints without waiting for one.
 */
export function LiveDemo() {
  const { t, i18n } = useTranslation('landing');
  const text = useMessageText();
  const inputId = useId();
  const lang = i18n.resolvedLanguage === 'fr' ? 'fr' : 'en';
  const sample = demoHtml(t('demo.sampleHeading'), lang);
  const [html, setHtml] = useState(sample);
  // Until the visitor edits it, the sample follows the language switch (and is rendered again).
  const edited = useRef(false);
  const [image, setImage] = useState<RenderedImage | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const controller = useRef<AbortController | null>(null);
  // The render client loads with the first press of Render: the page shows a ready image until then (issue 28's
  // first-load budget), and an image in state means it has loaded.
  const renderApi = useRef<typeof import('../../lib/render-api.ts') | null>(null);

  const render = useCallback(async (source: string) => {
    controller.current?.abort();
    const current = new AbortController();
    controller.current = current;
    setBusy(true);
    setError(null);
    try {
      renderApi.current ??= await import('../../lib/render-api.ts');
      const result = await renderApi.current.renderImage({
        route: RenderHeads.html,
        body: { html: source, ...DEMO_SIZE },
        outputField: 'output',
        signal: current.signal,
      });
      setImage(result);
    } catch (caught) {
      if ((caught as Error)?.name !== 'AbortError') setError(caught);
    } finally {
      if (controller.current === current) setBusy(false);
    }
  }, []);

  useEffect(() => {
    if (edited.current) return;
    // Back to the sample of the new language and its ready image (a live render of the old one would not match).
    controller.current?.abort();
    setHtml(sample);
    setImage(null);
    setError(null);
  }, [sample]);
  useEffect(() => () => controller.current?.abort(), []);

  return (
    <div className="overflow-hidden rounded-xl border border-zinc-200 bg-white shadow-sm" data-testid="live-demo">
      <div className="flex items-center justify-between border-b border-zinc-200 px-4 py-2">
        <label htmlFor={inputId} className="text-sm font-medium text-zinc-800">
          {t('demo.label')}
        </label>
        <Button onClick={() => void render(html)} busy={busy} className="px-3 py-1.5">
          {!busy && <Play className="size-4" aria-hidden />}
          {t('demo.render')}
        </Button>
      </div>
      <textarea
        id={inputId}
        name="html"
        value={html}
        onChange={(event) => {
          edited.current = true;
          setHtml(event.target.value);
        }}
        onKeyDown={(event) => {
          if (event.key === 'Enter' && (event.metaKey || event.ctrlKey)) void render(html);
        }}
        spellCheck={false}
        rows={5}
        className="block w-full resize-y bg-zinc-950 px-4 py-3 font-mono text-xs leading-5 text-zinc-100 focus:outline-none"
      />
      <div className="relative flex aspect-[800/420] items-center justify-center bg-zinc-100">
        <img
          src={image?.dataUrl ?? demoImageUrl(lang)}
          alt={t('demo.alt')}
          width={DEMO_SIZE.width}
          height={DEMO_SIZE.height}
          fetchPriority="high"
          className="size-full object-contain"
          data-testid="live-demo-image"
          data-live={image ? 'true' : 'false'}
        />
        {busy && !image && <Spinner className="absolute size-6 text-white" />}
        {error != null && (
          <p className="absolute inset-x-4 bottom-4 rounded-md bg-red-50 px-3 py-2 text-sm text-red-800" role="alert">
            {text(error)}
          </p>
        )}
      </div>
      <p className="border-t border-zinc-200 px-4 py-2 text-xs text-zinc-600" aria-live="polite">
        {image
          ? t('demo.meta', {
              width: image.width,
              height: image.height,
              size: renderApi.current?.formatBytes(image.size, i18n.resolvedLanguage ?? 'en'),
              ms: image.renderMs ?? image.totalMs,
            })
          : busy
            ? t('demo.waiting')
            : t('demo.ready', DEMO_SIZE)}
      </p>
    </div>
  );
}
