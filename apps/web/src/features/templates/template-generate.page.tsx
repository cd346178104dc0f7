import { fileExtension } from '@render/contracts';
import { RenderHeads } from '@render/contracts/route-heads';
import { Navigate, useParams, useSearch } from '@tanstack/react-router';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { GenerateButton } from '../../components/render-form/generate-button.tsx';
import { RenderFormPage } from '../../components/render-form/render-form-page.tsx';
import { apiKeyPost, RequestPanel } from '../../components/render-form/request-panel.tsx';
import { useSession } from '../../lib/session/session.context.tsx';
import { useOrigin } from '../../lib/use-origin.ts';
import { usePageTitle } from '../../lib/use-page-title.ts';
import { ResultPanel } from '../playground/result-panel.tsx';
import { OutputOptions } from './generate/output-options.tsx';
import { SignedUrlBuilder } from './generate/signed-url-builder.tsx';
import { TemplateHeading } from './generate/template-heading.tsx';
import { useGenerateForm } from './generate/use-generate-form.ts';
import { VariableInputs } from './generate/variable-inputs.tsx';
import type { TemplateView } from './template-api.ts';
import { TemplateListPage } from './template-list.page.tsx';
import { TemplateLoader } from './template-ui.tsx';

/** `/image/generate?templateId=…` (docs/spec/screens.md) goes to the generate page of that template. */
export function ImageGenerateRedirect() {
  const search = useSearch({ strict: false }) as { templateId?: unknown };
  const id = typeof search.templateId === 'string' ? search.templateId : '';
  if (!id) return <Navigate to="/template/list" replace />;
  return <Navigate to="/template/generate/$id" params={{ id }} replace />;
}

/** `/template/generate` without an id shows the list (docs/spec/screens.md). */
export const TemplateGenerateIndexPage = TemplateListPage;

export function TemplateGeneratePage() {
  const { t } = useTranslation('templates');
  const { id } = useParams({ strict: false }) as { id: string };
  return (
    <TemplateLoader id={id} signIn={{ title: t('generate.signInTitle'), body: t('generate.signInBody') }} forbidden="notFound">
      {(template) => <GenerateForm key={template.id} template={template} />}
    </TemplateLoader>
  );
}

/** The playground's render form for a template: its variables and output on the left, the image, signed URL and request on the right. */
function GenerateForm({ template }: { template: TemplateView }) {
  const { t } = useTranslation('templates');
  const session = useSession();
  const apiKey = session.status === 'signedIn' ? session.user.apiKey : null;
  const origin = useOrigin();
  usePageTitle(template.name);
  const formId = useId();
  const form = useGenerateForm(template);
  return (
    <RenderFormPage
      header={<TemplateHeading template={template} />}
      formLabel={t('generate.formLabel')}
      formClassName="min-w-0 space-y-6"
      onGenerate={() => void form.generate()}
      result={
        <>
          <ResultPanel image={form.image} busy={form.busy} fileBase={`template-${template.id.slice(0, 8)}`} />
          <SignedUrlBuilder template={template} values={form.values} apiKey={apiKey} />
          <RequestPanel
            title={t('generate.request')}
            request={apiKeyPost(origin, RenderHeads.template.url, form.body, apiKey, `image.${fileExtension(form.values.format)}`)}
          />
        </>
      }
    >
      <VariableInputs template={template} form={form} formId={formId} />
      <OutputOptions form={form} formId={formId} />
      <div className="flex justify-end">
        <GenerateButton busy={form.busy} label={t('generate.generate')} shortcut={t('generate.shortcut')} />
      </div>
    </RenderFormPage>
  );
}
