import { Link } from '@tanstack/react-router';
import { KeyRound, Link2 } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { CopyButton } from '../../../components/copy-button.tsx';
import { FieldLabel, inputClass } from '../../../components/ui/form-field.tsx';
import type { TemplateView } from '../template-api.ts';
import type { GenerateValues } from './generate-values.ts';
import { useSignedUrl } from './use-signed-url.ts';

/**
 * A signed image URL for <img> tags and social meta tags: signed with the owner's API key, so only the
 * owner can make one; others are told to duplicate the template first.
 */
export function SignedUrlBuilder({ template, values, apiKey }: { template: TemplateView; values: GenerateValues; apiKey: string | null }) {
  const { t } = useTranslation('templates');
  const url = useSignedUrl(template, values, apiKey);
  return (
    <section aria-labelledby="signed-url-title" className="rounded-xl border border-zinc-200 bg-white p-4" data-testid="signed-url">
      <h2 id="signed-url-title" className="flex items-center gap-2 text-sm font-semibold text-zinc-900">
        <Link2 className="size-4 text-accent-600" aria-hidden />
        {t('signed.title')}
      </h2>
      <p className="mt-1 text-xs text-zinc-600">{t('signed.hint')}</p>
      {!template.isOwner ? (
        <p className="mt-3 text-sm text-zinc-700">{t('signed.notOwner')}</p>
      ) : !apiKey ? (
        <p className="mt-3 flex flex-wrap items-center gap-2 text-sm text-zinc-700">
          <KeyRound className="size-4" aria-hidden />
          {t('signed.noKey')}
          <Link to="/dashboard" className="font-medium">
            {t('signed.dashboard')}
          </Link>
        </p>
      ) : (
        <SignedUrlCopy template={template} url={url} />
      )}
    </section>
  );
}

/** The URL itself, and buttons to copy it or an <img> tag using it. */
function SignedUrlCopy({ template, url }: { template: TemplateView; url: string }) {
  const { t } = useTranslation('templates');
  return (
    <div className="mt-3 space-y-2">
      <FieldLabel htmlFor="signed-url-value" text={t('signed.title')} srOnly />
      <textarea
        id="signed-url-value"
        readOnly
        value={url}
        rows={3}
        className={`${inputClass} resize-none break-all font-mono text-xs`}
        data-testid="signed-url-value"
      />
      <div className="flex flex-wrap gap-2">
        <CopyButton text={url} toastMessage={t('signed.copied')} label={t('signed.copyUrl')} tone="light" />
        <CopyButton
          text={`<img src="${url}" width="${template.width}" height="${template.height}" alt="${template.name.replace(/"/g, '&quot;')}">`}
          toastMessage={t('signed.copiedTag')}
          label={t('signed.copyTag')}
          tone="light"
        />
      </div>
      <p className="text-xs text-zinc-600">{t('signed.billing')}</p>
    </div>
  );
}
