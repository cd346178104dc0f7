import { fileExtension } from '@render/contracts';
import { RenderHeads } from '@render/contracts/route-heads';
import { useTranslation } from 'react-i18next';
import { apiKeyPost, RequestPanel } from '../../components/render-form/request-panel.tsx';
import { useOrigin } from '../../lib/use-origin.ts';
import { AsyncResultPanel } from './async-result.tsx';
import { CopyImageUrl } from './copy-image-url.tsx';
import { highchartsExportRequest } from './highcharts-export-snippet.ts';
import type { PlaygroundDefinition } from './playground-definitions.ts';
import { minimalBody } from './playground-state.ts';
import { QuickChartSnippet } from './quickchart-snippet.tsx';
import { ResultPanel } from './result-panel.tsx';
import type { PlaygroundState } from './use-playground.ts';

/** The render (or the accepted webhook render being followed), then the same request as code. */
export function PlaygroundResult({ definition, playground }: { definition: PlaygroundDefinition; playground: PlaygroundState }) {
  const { t } = useTranslation('playground');
  const origin = useOrigin();
  const { accepted, image, busy, body, apiKey } = playground;
  const snippetBody = { ...minimalBody(definition, body) };
  const outputFormat = String(body.format ?? 'png');
  const exportServer = highchartsExportRequest(body, origin, apiKey ?? 'YOUR_API_KEY');
  return (
    <>
      {accepted ? (
        <AsyncResultPanel key={accepted.render.id} accepted={accepted} fileBase={`render-${definition.id}`} />
      ) : (
        <ResultPanel image={image} busy={busy} fileBase={`render-${definition.id}`} />
      )}
      {definition.route.name !== 'template' && (
        <CopyImageUrl
          kind={definition.route.name}
          body={snippetBody}
          origin={origin}
          apiKey={apiKey}
          disabled={Object.keys(playground.problems).length > 0}
        />
      )}
      <RequestPanel
        title={t('requestTitle')}
        request={apiKeyPost(
          origin,
          definition.route.url,
          snippetBody,
          apiKey,
          // A webhook call answers JSON (202 with the render id), as a JSON output does.
          body.webhook !== undefined || body[definition.outputField] === 'json' ? undefined : `image.${fileExtension(outputFormat)}`,
        )}
      />
      {definition.route === RenderHeads.chart && <QuickChartSnippet body={snippetBody} apiKey={apiKey ?? undefined} />}
      {exportServer && <RequestPanel title={t('highchartsExportTitle')} request={exportServer} />}
    </>
  );
}
