import { Link } from '@tanstack/react-router';
import { Copy, Globe, Lock, Pencil, Play, Star, Trash2, User, Variable } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Button, buttonClass } from '../../components/ui/button.tsx';
import type { TemplateView } from './template-api.ts';
import { SvgImage } from './template-ui.tsx';

export interface CardActions {
  onStar: (template: TemplateView) => void;
  onDuplicate: (template: TemplateView) => void;
  onDelete: (template: TemplateView) => void;
  busyId?: string;
}

/** The card's icon buttons after star and edit: duplicate, and delete for its owner (in red). */
function iconActions(template: TemplateView, actions: CardActions) {
  const duplicate = { name: 'duplicate', Icon: Copy, run: actions.onDuplicate, className: '' };
  const remove = { name: 'delete', Icon: Trash2, run: actions.onDelete, className: ' text-red-700' };
  return template.isOwner ? [duplicate, remove] : [duplicate];
}

/** One template: a preview of its SVG, what it is, who made it, and what can be done with it. */
export function TemplateCard({ template, actions }: { template: TemplateView; actions: CardActions }) {
  const { t } = useTranslation('templates');
  const busy = actions.busyId === template.id;
  const editable = template.isOwner && !template.isPublic;
  return (
    <article
      className="flex flex-col overflow-hidden rounded-xl border border-zinc-200 bg-white"
      data-testid="template-card"
      aria-labelledby={`tpl-${template.id}`}
    >
      <div className="relative aspect-[16/10] border-b border-zinc-200 bg-[repeating-conic-gradient(#f4f4f5_0_25%,#fff_0_50%)] bg-[length:16px_16px]">
        <SvgImage
          svg={template.svg}
          alt={t('card.previewAlt', { name: template.name })}
          className="absolute inset-3 h-[calc(100%-1.5rem)] w-[calc(100%-1.5rem)] object-contain drop-shadow-sm"
        />
      </div>
      <div className="flex flex-1 flex-col gap-3 p-4">
        <div className="flex items-start justify-between gap-2">
          <h2 id={`tpl-${template.id}`} className="min-w-0 break-words text-sm font-semibold text-zinc-900">
            {template.name}
          </h2>
          <span
            className={`inline-flex shrink-0 items-center gap-1 rounded-full px-2 py-0.5 text-xs font-medium ${
              template.isPublic ? 'bg-emerald-50 text-emerald-800' : 'bg-zinc-100 text-zinc-700'
            }`}
          >
            {template.isPublic ? <Globe className="size-3" aria-hidden /> : <Lock className="size-3" aria-hidden />}
            {template.isPublic ? t('card.public') : t('card.private')}
          </span>
        </div>
        <dl className="grid grid-cols-2 gap-x-3 gap-y-1 text-xs text-zinc-600">
          <div className="flex items-center gap-1">
            <dt className="sr-only">{t('card.size')}</dt>
            <dd>{`${template.width} × ${template.height}`}</dd>
          </div>
          <div className="flex items-center gap-1">
            <Variable className="size-3.5" aria-hidden />
            <dt className="sr-only">{t('card.variables')}</dt>
            <dd>{t('card.variablesCount', { count: template.variablesCount })}</dd>
          </div>
          <div className="col-span-2 flex min-w-0 items-center gap-1">
            <User className="size-3.5 shrink-0" aria-hidden />
            <dt className="sr-only">{t('card.creator')}</dt>
            <dd className="truncate">{template.creatorName}</dd>
          </div>
        </dl>
        <div className="mt-auto flex flex-wrap items-center gap-1.5 pt-1">
          <Link to="/template/generate/$id" params={{ id: template.id }} className={buttonClass('primary', 'px-3! py-1.5!')}>
            <Play className="size-3.5" aria-hidden />
            {t('card.use')}
          </Link>
          <Button
            variant="secondary"
            className="px-2! py-1.5!"
            aria-pressed={template.isStarred}
            title={template.isStarred ? t('card.unstarShort') : t('card.starShort')}
            onClick={() => actions.onStar(template)}
            disabled={busy}
            data-testid="star-button"
          >
            <Star className={`size-3.5 ${template.isStarred ? 'fill-amber-400 text-amber-500' : ''}`} aria-hidden />
            <span className="sr-only">
              {template.isStarred ? t('card.unstar', { name: template.name }) : t('card.star', { name: template.name })}
            </span>
            <span data-testid="star-count">{template.starCount}</span>
          </Button>
          {editable && (
            <Link
              to="/template/edit/$id"
              params={{ id: template.id }}
              className={buttonClass('secondary', 'px-2! py-1.5!')}
              aria-label={t('card.edit', { name: template.name })}
              title={t('card.editShort')}
            >
              <Pencil className="size-3.5" aria-hidden />
            </Link>
          )}
          {iconActions(template, actions).map(({ name, Icon, run, className }) => (
            <Button
              key={name}
              variant="secondary"
              className={`px-2! py-1.5!${className}`}
              aria-label={t(`card.${name}`, { name: template.name })}
              title={t(`card.${name}Short`)}
              onClick={() => run(template)}
              disabled={busy}
              data-testid={`${name}-button`}
            >
              <Icon className="size-3.5" aria-hidden />
            </Button>
          ))}
        </div>
      </div>
    </article>
  );
}

export function TemplateCardSkeleton() {
  // The card's own boxes at their heights (preview, name line, the two facts' lines, the buttons' row), so a row of
  // skeletons is as tall as a row of cards.
  return (
    <div className="flex flex-col overflow-hidden rounded-xl border border-zinc-200 bg-white" aria-hidden>
      <div className="aspect-[16/10] animate-pulse border-b border-zinc-200 bg-zinc-100" />
      <div className="flex flex-col gap-3 p-4">
        <div className="h-5 w-2/3 animate-pulse rounded bg-zinc-100" />
        <div className="space-y-1">
          <div className="h-4 w-1/2 animate-pulse rounded bg-zinc-100" />
          <div className="h-4 w-1/3 animate-pulse rounded bg-zinc-100" />
        </div>
        <div className="pt-1">
          <div className="h-8 w-full animate-pulse rounded bg-zinc-100" />
        </div>
      </div>
    </div>
  );
}
