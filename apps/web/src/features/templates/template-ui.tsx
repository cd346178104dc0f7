import { FileQuestion, LogIn, ShieldAlert, TriangleAlert } from 'lucide-react';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SignInRequiredDialog } from '../../components/sign-in-required-dialog.tsx';
import { Button } from '../../components/ui/button.tsx';
import { LinkButtons } from '../../components/ui/link-buttons.tsx';
import { PageSpinner } from '../../components/ui/spinner.tsx';
import { WebMessages } from '../../i18n/message-ids.ts';
import { useMessageText } from '../../i18n/use-message.ts';
import { ApiError } from '../../lib/api-client.ts';
import { useSession } from '../../lib/session/session.context.tsx';
import { usePageTitle } from '../../lib/use-page-title.ts';
import { type TemplateView, useTemplate } from './template-api.ts';

/** The SVG as an image: an <img> with a data: URL, so nothing in it runs or loads (never innerHTML). */
export function svgDataUrl(svg: string): string {
  return `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
}

export function SvgImage({ svg, alt, className = '' }: { svg: string; alt: string; className?: string }) {
  return <img src={svgDataUrl(svg)} alt={alt} className={className} loading="lazy" decoding="async" draggable={false} />;
}

/**
 * docs/spec/roles.md: someone else's template is "Access denied" (403 screen style); a template that is missing or
 * not permitted is "Template Not Found"; a failed load says so.
 */
export function TemplateStateScreen({ kind, detail }: { kind: 'notFound' | 'forbidden' | 'failed'; detail?: unknown }) {
  const { t } = useTranslation('templates');
  const common = useTranslation().t;
  const message = useMessageText();
  const title =
    kind === 'forbidden'
      ? message(WebMessages.accessDenied)
      : kind === 'notFound'
        ? message('Template Not Found')
        : message(WebMessages.templateLoadFailed);
  const body =
    kind === 'forbidden'
      ? message('You do not have permission to modify this template')
      : kind === 'notFound'
        ? t('state.notFoundBody')
        : detail !== undefined
          ? message(detail)
          : t('state.failedBody');
  usePageTitle(title);
  const Icon = kind === 'forbidden' ? ShieldAlert : kind === 'notFound' ? FileQuestion : TriangleAlert;
  return (
    <section className="mx-auto flex max-w-xl flex-col items-center px-4 py-24 text-center" data-testid={`template-${kind}`}>
      <p className="flex items-center gap-2 text-sm font-semibold text-accent-700">
        <Icon className="size-4" aria-hidden />
        {kind === 'forbidden' ? '403' : kind === 'notFound' ? '404' : ''}
      </p>
      <h1 className="mt-2 text-3xl font-semibold tracking-tight text-zinc-900">{title}</h1>
      <p className="mt-3 text-zinc-600">{body}</p>
      <div className="mt-8 flex flex-wrap justify-center gap-2">
        <LinkButtons
          links={[
            { to: '/template/list', label: t('state.backToList'), variant: 'primary' },
            { to: '/', label: common('errors.goHome'), variant: 'secondary' },
          ]}
        />
      </div>
    </section>
  );
}

/** Signed-out visitors: templates are kept in an account (docs/spec/roles.md). */
export function SignInScreen({ title, body }: { title: string; body: string }) {
  const { t } = useTranslation('templates');
  const [open, setOpen] = useState(false);
  usePageTitle(title);
  return (
    <section className="mx-auto flex max-w-xl flex-col items-center px-4 py-24 text-center" data-testid="template-sign-in">
      <LogIn className="size-8 text-accent-600" aria-hidden />
      <h1 className="mt-4 text-3xl font-semibold tracking-tight text-zinc-900">{title}</h1>
      <p className="mt-3 text-zinc-600">{body}</p>
      <div className="mt-8 flex flex-wrap justify-center gap-2">
        <Button onClick={() => setOpen(true)}>{t('editor.signIn')}</Button>
        <LinkButtons links={[{ to: '/template/list', label: t('state.backToList'), variant: 'secondary' }]} />
      </div>
      <SignInRequiredDialog open={open} onOpenChange={setOpen} />
    </section>
  );
}

/**
 * The page's template once the session and the template are loaded: a spinner meanwhile, the sign-in
 * screen for visitors, and the state screens for a failed load (404 or a malformed id is "Template Not
 * Found"; a 403 is "Access denied" where the page edits, else not found, docs/spec/roles.md).
 */
export function TemplateLoader({
  id,
  signIn,
  forbidden,
  children,
}: {
  id: string;
  signIn: { title: string; body: string };
  forbidden: 'forbidden' | 'notFound';
  children: (template: TemplateView) => ReactNode;
}) {
  const session = useSession();
  const signedIn = session.status === 'signedIn';
  const query = useTemplate(id, signedIn);
  if (session.status === 'loading') return <PageSpinner />;
  if (!signedIn) return <SignInScreen title={signIn.title} body={signIn.body} />;
  if (query.isPending) return <PageSpinner />;
  if (query.isError) {
    const status = query.error instanceof ApiError ? query.error.status : 0;
    const kind = status === 403 ? forbidden : status === 404 || status === 400 ? 'notFound' : 'failed';
    return <TemplateStateScreen kind={kind} detail={query.error} />;
  }
  return <>{children(query.data)}</>;
}
