import { Link, useNavigate } from '@tanstack/react-router';
import { Globe, Play } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { Button, buttonClass } from '../../../components/ui/button.tsx';
import { useMessageText } from '../../../i18n/use-message.ts';
import { usePageTitle } from '../../../lib/use-page-title.ts';
import { type TemplateView, useTemplateAction } from '../template-api.ts';

/** A public template can no longer be edited (docs/spec/states.md): say so, and offer to use or duplicate it. */
export function PublicTemplateNotice({ template }: { template: TemplateView }) {
  const { t } = useTranslation('templates');
  const message = useMessageText();
  const navigate = useNavigate();
  const duplicate = useTemplateAction('duplicate');
  usePageTitle(template.name);
  const copy = async () => {
    try {
      const created = await duplicate.mutateAsync(template.id);
      toast.success(t('toasts.duplicated'));
      if (created) void navigate({ to: '/template/edit/$id', params: { id: created.id } });
    } catch (error) {
      toast.error(message(error));
    }
  };
  return (
    <section className="mx-auto flex max-w-xl flex-col items-center px-4 py-24 text-center" data-testid="template-public-notice">
      <Globe className="size-8 text-emerald-700" aria-hidden />
      <h1 className="mt-4 text-3xl font-semibold tracking-tight text-zinc-900">{template.name}</h1>
      <p className="mt-3 text-zinc-600">{t('editor.publicNotice')}</p>
      <div className="mt-8 flex flex-wrap justify-center gap-2">
        <Link to="/template/generate/$id" params={{ id: template.id }} className={buttonClass('primary')}>
          <Play className="size-4" aria-hidden />
          {t('card.use')}
        </Link>
        <Button variant="secondary" onClick={() => void copy()} busy={duplicate.isPending}>
          {t('card.duplicateShort')}
        </Button>
      </div>
    </section>
  );
}
