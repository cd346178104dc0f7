import type { AsyncRenderAccepted, AsyncRenderView } from '@render/contracts';
import { fileExtension } from '@render/contracts';
import { useQuery } from '@tanstack/react-query';
import { CircleAlert, Download, Webhook } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { buttonClass } from '../../components/ui/button.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { useMessageText } from '../../i18n/use-message.ts';
import { ApiError } from '../../lib/api-client.ts';
import { formatBytes, renderImageBlob, renderStatus } from '../../lib/render-api.ts';

/** A render accepted for a webhook (202), with the credentials it was made with (its status is the owner's only). */
export interface AcceptedRender {
  render: AsyncRenderAccepted['data'];
  apiKey?: string;
}

/** How often the status is asked while the render runs. */
export const ASYNC_POLL_MS = 1000;

const finished = (view: AsyncRenderView | undefined) => view?.status === 'done' || view?.status === 'failed';
/** A 4xx (an expired or unknown render, credentials gone) will not change by asking again; a 5xx or no answer may. */
const hopeless = (error: unknown) => error instanceof ApiError && error.status >= 400 && error.status < 500;

/** An object URL for a blob, revoked when the blob changes or the component goes. */
function useObjectUrl(blob: Blob | undefined): string | undefined {
  const [url, setUrl] = useState<string>();
  useEffect(() => {
    if (!blob || typeof URL.createObjectURL !== 'function') {
      setUrl(undefined);
      return;
    }
    const objectUrl = URL.createObjectURL(blob);
    setUrl(objectUrl);
    return () => URL.revokeObjectURL(objectUrl);
  }, [blob]);
  return url;
}

/**
 * The result panel of a webhook render: the 202's id and status, polled (`GET /api/renders/{id}`) every
 * second until done or failed, then the image (`GET /api/renders/{id}/image`, with the same credentials)
 * or the failure. Polling stops when the panel goes (TanStack Query stops an interval without observers).
 */
export function AsyncResultPanel({ accepted, fileBase }: { accepted: AcceptedRender; fileBase: string }) {
  const { t, i18n } = useTranslation('playground');
  const message = useMessageText();
  const language = i18n.resolvedLanguage ?? 'en';
  const { id } = accepted.render;
  const status = useQuery({
    queryKey: ['playground', 'async-render', id],
    queryFn: ({ signal }) => renderStatus(id, accepted.apiKey, signal),
    refetchInterval: (query) => (finished(query.state.data) || hopeless(query.state.error) ? false : ASYNC_POLL_MS),
    staleTime: 0,
  });
  const view = status.data;
  const image = useQuery({
    queryKey: ['playground', 'async-render', id, 'image'],
    queryFn: ({ signal }) => renderImageBlob(id, accepted.apiKey, signal),
    enabled: view?.status === 'done',
    staleTime: Number.POSITIVE_INFINITY,
  });
  const imageUrl = useObjectUrl(image.data);
  const current = view?.status ?? accepted.render.status;
  const format = view?.format ?? 'png';

  return (
    <section
      aria-labelledby="result-title"
      className="overflow-hidden rounded-xl border border-zinc-200 bg-white"
      data-testid="async-result"
    >
      <div className="flex flex-wrap items-center justify-between gap-2 border-b border-zinc-200 px-4 py-2.5">
        <h2 id="result-title" className="text-sm font-semibold text-zinc-900">
          {t('result.title')}
        </h2>
        {view?.status === 'done' && view.width !== undefined && view.height !== undefined && (
          <p className="text-xs text-zinc-600" data-testid="result-meta">
            {t('async.meta', { width: view.width, height: view.height, size: formatBytes(view.size ?? 0, language) })}
          </p>
        )}
      </div>
      <div className="space-y-1 border-b border-zinc-200 bg-zinc-50 px-4 py-3 text-sm">
        <p className="flex items-center gap-2 font-medium text-zinc-900">
          <Webhook className="size-4 text-zinc-500" aria-hidden />
          {t('async.accepted')}
        </p>
        <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 gap-y-1 text-zinc-700">
          <dt className="text-zinc-600">{t('async.id')}</dt>
          <dd className="break-all font-mono text-xs leading-5" data-testid="async-id">
            {id}
          </dd>
          <dt className="text-zinc-600">{t('async.status')}</dt>
          <dd>
            {/* The live region sits inside the dd: a role on the dd itself would break the list's semantics. */}
            <span role="status" aria-live="polite" data-testid="async-status">
              {t(`async.statuses.${current}`, { defaultValue: current })}
            </span>
          </dd>
        </dl>
      </div>
      <div className="relative flex min-h-64 items-center justify-center bg-[repeating-conic-gradient(#f4f4f5_0_25%,#fff_0_50%)] bg-[length:20px_20px] p-4">
        {view?.status === 'failed' ? (
          <AsyncError text={t('async.failed', { message: message(view.error?.message ?? t('async.noDetail')) })} />
        ) : status.isError && (hopeless(status.error) || !view) ? (
          <AsyncError text={t('async.statusError', { message: message(status.error) })} />
        ) : image.isError ? (
          <AsyncError text={t('async.imageError', { message: message(image.error) })} />
        ) : imageUrl && format !== 'pdf' ? (
          <img
            src={imageUrl}
            alt={t('result.alt')}
            className="max-h-[36rem] max-w-full object-contain shadow-sm"
            data-testid="result-image"
          />
        ) : imageUrl ? (
          <p className="text-sm text-zinc-700" data-testid="result-pdf">
            {t('result.pdfReady')}
          </p>
        ) : (
          <div className="flex flex-col items-center gap-3 text-sm text-zinc-600">
            <Spinner className="size-8 text-zinc-500" />
            <p>{t('async.waiting')}</p>
          </div>
        )}
      </div>
      {imageUrl && (
        <div className="sticky bottom-0 flex flex-wrap gap-2 border-t border-zinc-200 bg-white px-4 py-3">
          <a
            href={imageUrl}
            download={`${fileBase}.${fileExtension(format)}`}
            className={buttonClass('secondary', 'px-3 py-1.5')}
            data-testid="download-link"
          >
            <Download className="size-4" aria-hidden />
            {t('result.download')}
          </a>
        </div>
      )}
    </section>
  );
}

/** Why the render or its image did not come, in the image's place. */
function AsyncError({ text }: { text: string }) {
  return (
    <p
      className="flex max-w-md items-start gap-2 rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800"
      role="alert"
      data-testid="async-error"
    >
      <CircleAlert className="mt-0.5 size-4 shrink-0" aria-hidden />
      <span>{text}</span>
    </p>
  );
}
