import { fileExtension, type RenderWarning } from '@render/contracts';
import { AlertTriangle, Download, ExternalLink, FileText, ImageIcon } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CopyButton } from '../../components/copy-button.tsx';
import { buttonClass } from '../../components/ui/button.tsx';
import { PanelTitle } from '../../components/ui/panel-title.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { WebMessages } from '../../i18n/message-ids.ts';
import { formatBytes, type RenderedImage } from '../../lib/render-api.ts';

/**
 * A blob: URL of a PDF result, for opening it in the browser's own viewer in a new tab (a data: URL cannot
 * be opened there); revoked when the result changes.
 */
function usePdfUrl(image: RenderedImage | null): string | undefined {
  const [url, setUrl] = useState<string>();
  useEffect(() => {
    if (image?.format !== 'pdf' || typeof URL.createObjectURL !== 'function') {
      setUrl(undefined);
      return;
    }
    const bytes = Uint8Array.from(atob(image.base64), (c) => c.charCodeAt(0));
    const objectUrl = URL.createObjectURL(new Blob([bytes], { type: 'application/pdf' }));
    setUrl(objectUrl);
    return () => URL.revokeObjectURL(objectUrl);
  }, [image]);
  return url;
}

/** The rendered image with its size and timing, and what can be done with it. */
export function ResultPanel({ image, busy, fileBase }: { image: RenderedImage | null; busy: boolean; fileBase: string }) {
  const { t, i18n } = useTranslation('playground');
  const language = i18n.resolvedLanguage ?? 'en';
  const pdfUrl = usePdfUrl(image);
  return (
    <section aria-labelledby="result-title" className="overflow-hidden rounded-xl border border-zinc-200 bg-white">
      <div className="flex items-center justify-between border-b border-zinc-200 px-4 py-2.5">
        <PanelTitle id="result-title" text={t('result.title')} />
        {image && (
          <p className="text-xs text-zinc-600" data-testid="result-meta">
            {t('result.meta', {
              width: image.width,
              height: image.height,
              size: formatBytes(image.size, language),
              ms: image.renderMs ?? image.totalMs,
            })}
          </p>
        )}
      </div>
      <div className="relative flex min-h-64 items-center justify-center bg-[repeating-conic-gradient(#f4f4f5_0_25%,#fff_0_50%)] bg-[length:20px_20px] p-4">
        {image?.format === 'pdf' ? (
          <div className="flex flex-col items-center gap-3 text-sm text-zinc-700" data-testid="result-pdf">
            <p className="flex items-center gap-2">
              <FileText className="size-5" aria-hidden />
              {t('result.pdfReady')}
            </p>
            {pdfUrl && (
              <a href={pdfUrl} target="_blank" rel="noopener" className={buttonClass('primary', 'px-3 py-1.5')} data-testid="open-pdf">
                <ExternalLink className="size-4" aria-hidden />
                {t('result.openPdf')}
              </a>
            )}
          </div>
        ) : image?.content !== undefined ? (
          // The page's text as text: an html result is shown as its source, never rendered here.
          <figure className="w-full">
            <figcaption className="sr-only">{t('result.contentLabel')}</figcaption>
            <pre
              className="max-h-[36rem] w-full overflow-auto whitespace-pre-wrap break-words rounded bg-white p-3 text-left font-mono text-xs text-zinc-800 shadow-sm"
              data-testid="result-content"
            >
              {image.content}
            </pre>
          </figure>
        ) : image?.mimeType.startsWith('video/') ? (
          // A screenshot recorded as mp4 or webm (a gif is an image): played in a loop, muted (it has no sound).
          <video
            src={image.dataUrl}
            aria-label={t('result.alt')}
            className="max-h-[36rem] max-w-full shadow-sm"
            controls
            autoPlay
            loop
            muted
            playsInline
            data-testid="result-video"
          />
        ) : image ? (
          <img
            src={image.dataUrl}
            alt={t('result.alt')}
            className="max-h-[36rem] max-w-full object-contain shadow-sm"
            data-testid="result-image"
          />
        ) : busy ? (
          <Spinner className="size-8 text-zinc-500" />
        ) : (
          <p className="flex flex-col items-center gap-2 text-center text-sm text-zinc-600">
            <ImageIcon className="size-8 text-zinc-400" aria-hidden />
            {t('result.empty')}
          </p>
        )}
        {busy && image && (
          <div className="absolute inset-0 flex items-center justify-center bg-white/60">
            <Spinner className="size-8 text-zinc-600" />
          </div>
        )}
      </div>
      {image?.metadata && (
        <figure className="border-t border-zinc-200 bg-zinc-50 px-4 py-3">
          <figcaption className="text-xs font-semibold text-zinc-700">{t('result.metadataLabel')}</figcaption>
          <pre className="mt-1 max-h-64 overflow-auto font-mono text-xs text-zinc-800" data-testid="result-metadata">
            {JSON.stringify(image.metadata, null, 2)}
          </pre>
        </figure>
      )}
      {image && image.warnings.length > 0 && <WarningList warnings={image.warnings} />}
      {image && (
        <div className="sticky bottom-0 flex flex-wrap gap-2 border-t border-zinc-200 bg-white px-4 py-3">
          <a
            href={image.dataUrl}
            download={`${fileBase}.${fileExtension(image.format)}`}
            className={buttonClass('secondary', 'px-3 py-1.5')}
            data-testid="download-link"
          >
            <Download className="size-4" aria-hidden />
            {t('result.download')}
          </a>
          <span data-testid="copy-base64">
            <CopyButton text={image.base64} toastMessage={WebMessages.base64Copied} label={t('result.copyBase64')} tone="light" />
          </span>
        </div>
      )}
    </section>
  );
}

/** What went wrong in a render that still made the image (the API's `warnings`), in the order the worker saw it. */
function WarningList({ warnings }: { warnings: RenderWarning[] }) {
  const { t } = useTranslation('playground');
  return (
    <div className="border-t border-amber-200 bg-amber-50 px-4 py-3 text-sm text-amber-900" data-testid="result-warnings">
      <h3 className="flex items-center gap-2 font-semibold">
        <AlertTriangle className="size-4" aria-hidden />
        {t('result.warnings', { count: warnings.length })}
      </h3>
      <ul className="mt-2 space-y-1">
        {warnings.map((warning, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: the list is replaced whole with each result.
          <li key={index} className="break-words">
            <span className="mr-2 rounded bg-amber-100 px-1.5 py-0.5 text-xs font-medium">
              {t(`result.warningCodes.${warning.code}`, { defaultValue: warning.code })}
            </span>
            {warning.message}
          </li>
        ))}
      </ul>
    </div>
  );
}
