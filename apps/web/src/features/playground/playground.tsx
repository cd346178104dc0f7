import { useTranslation } from 'react-i18next';
import { GenerateButton } from '../../components/render-form/generate-button.tsx';
import { RenderFormPage } from '../../components/render-form/render-form-page.tsx';
import { SignInRequiredDialog } from '../../components/sign-in-required-dialog.tsx';
import { usePageTitle } from '../../lib/use-page-title.ts';
import type { PlaygroundDefinition } from './playground-definitions.ts';
import { ApiKeyToggle, PlaygroundOptions } from './playground-options.tsx';
import { PlaygroundResult } from './playground-result.tsx';
import { usePlayground } from './use-playground.ts';

/**
 * A converter playground (docs/spec/screens.md, design brief): options grouped on the left, the real render on the
 * right, the same request as code under it. Driven by one definition per page.
 */
export function Playground({ definition }: { definition: PlaygroundDefinition }) {
  const { t } = useTranslation('playground');
  usePageTitle(t(`pages.${definition.id}.title`));
  const playground = usePlayground(definition);
  return (
    <RenderFormPage
      header={
        <header className="max-w-3xl">
          <h1 className="text-3xl font-semibold tracking-tight text-zinc-900">{t(`pages.${definition.id}.title`)}</h1>
          <p className="mt-2 text-zinc-600">{t(`pages.${definition.id}.subtitle`)}</p>
        </header>
      }
      formLabel={t('optionsLabel')}
      formClassName="space-y-6"
      onGenerate={() => void playground.generate()}
      result={<PlaygroundResult definition={definition} playground={playground} />}
      stickyResult
      after={<SignInRequiredDialog open={playground.signInOpen} onOpenChange={playground.setSignInOpen} />}
    >
      <PlaygroundOptions definition={definition} playground={playground} />
      <div className="flex flex-wrap items-center justify-between gap-3">
        <ApiKeyToggle checked={playground.useApiKey} onChange={playground.toggleApiKey} />
        <GenerateButton busy={playground.busy} label={t('generate')} shortcut={t('generateShortcut')} />
      </div>
    </RenderFormPage>
  );
}
