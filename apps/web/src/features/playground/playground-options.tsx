import { useTranslation } from 'react-i18next';
import { OptionGroup } from '../../components/render-form/option-group.tsx';
import { OptionField } from './option-field.tsx';
import type { FieldGroup, PlaygroundDefinition } from './playground-definitions.ts';
import type { PlaygroundState } from './use-playground.ts';
import { WebhookField } from './webhook-field.tsx';

const GROUPS: FieldGroup[] = ['content', 'size', 'frame', 'advanced'];

/** The page's options, one group each (content, size, frame, advanced), the webhook last for signed-in visitors. */
export function PlaygroundOptions({ definition, playground }: { definition: PlaygroundDefinition; playground: PlaygroundState }) {
  const { t } = useTranslation('playground');
  const { values, visibleProblems, change, blur, webhook } = playground;
  return GROUPS.map((group) => {
    const fields = definition.fields.filter((field) => field.group === group && (!field.visible || field.visible(values)));
    if (!fields.length) return null;
    return (
      <OptionGroup key={group} legend={t(`groups.${group}`)}>
        <div className="grid gap-4 sm:grid-cols-2">
          {fields.map((field) => (
            <OptionField
              key={field.name}
              pageId={definition.id}
              field={field}
              values={values}
              options={playground.optionsFor(field.name)}
              error={visibleProblems[field.name]}
              onChange={change}
              onBlur={blur}
            />
          ))}
          {group === 'advanced' && playground.signedIn && (
            <WebhookField
              value={webhook.value}
              enabled={webhook.enabled}
              error={visibleProblems.webhook}
              onChange={webhook.set}
              onBlur={() => blur('webhook')}
            />
          )}
        </div>
      </OptionGroup>
    );
  });
}

/** "Use my API key": the render goes with the visitor's credentials (asks visitors to sign in first). */
export function ApiKeyToggle({ checked, onChange }: { checked: boolean; onChange: (checked: boolean) => void }) {
  const { t } = useTranslation('playground');
  return (
    <label className="flex items-center gap-2 text-sm text-zinc-800">
      <input
        type="checkbox"
        name="useApiKey"
        checked={checked}
        onChange={(event) => onChange(event.target.checked)}
        className="size-4 accent-accent-600"
      />
      {t('useApiKey')}
    </label>
  );
}
