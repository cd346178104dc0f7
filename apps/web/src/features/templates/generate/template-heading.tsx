import { Link } from '@tanstack/react-router';
import { Globe, Lock, Pencil } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { CopyButton } from '../../../components/copy-button.tsx';
import { buttonClass } from '../../../components/ui/button.tsx';
import { WebMessages } from '../../../i18n/message-ids.ts';
import type { TemplateView } from '../template-api.ts';
import { TemplateListCrumb } from '../template-list-crumb.tsx';

/** The template being generated: its name, size, visibility and creator; copy its id, edit it (owner, private). */
export function TemplateHeading({ template }: { template: TemplateView }) {
  const { t } = useTranslation('templates');
  return (
    <header className="flex flex-wrap items-start justify-between gap-4">
      <div className="min-w-0 max-w-3xl">
        <TemplateListCrumb />
        <h1 className="mt-1 break-words text-3xl font-semibold tracking-tight text-zinc-900">{template.name}</h1>
        <p className="mt-2 flex flex-wrap items-center gap-x-3 gap-y-1 text-sm text-zinc-600">
          <span>{`${template.width} × ${template.height}`}</span>
          <span className="inline-flex items-center gap-1">
            {template.isPublic ? <Globe className="size-3.5" aria-hidden /> : <Lock className="size-3.5" aria-hidden />}
            {template.isPublic ? t('card.public') : t('card.private')}
          </span>
          <span>{t('generate.by', { name: template.creatorName })}</span>
        </p>
      </div>
      <div className="flex flex-wrap items-center gap-2">
        <span data-testid="copy-template-id">
          <CopyButton text={template.id} toastMessage={WebMessages.templateIdCopied} label={t('generate.copyId')} tone="light" />
        </span>
        {template.isOwner && !template.isPublic && (
          <Link to="/template/edit/$id" params={{ id: template.id }} className={buttonClass('secondary', 'px-3! py-1.5!')}>
            <Pencil className="size-4" aria-hidden />
            {t('card.editShort')}
          </Link>
        )}
      </div>
    </header>
  );
}
