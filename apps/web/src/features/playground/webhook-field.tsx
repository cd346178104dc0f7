import { Link } from '@tanstack/react-router';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { FieldError, FieldLabel, inputClass } from '../../components/ui/form-field.tsx';

interface WebhookFieldProps {
  value: string;
  /** Off while the request goes without the visitor's credentials (a webhook render needs an account). */
  enabled: boolean;
  error?: string;
  onChange: (value: string) => void;
  onBlur: () => void;
}

/**
 * `webhook`: render in the background and POST the outcome to this URL. Shown to signed-in visitors only;
 * usable once "Use my API key" sends their credentials. The hint points to the signing secret's card.
 */
export function WebhookField({ value, enabled, error, onChange, onBlur }: WebhookFieldProps) {
  const { t } = useTranslation('playground');
  const id = `webhook-${useId()}`;
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  return (
    <div className="sm:col-span-2" data-testid="webhook-field">
      <FieldLabel htmlFor={id} text={t('fields.webhook')} />
      <input
        id={id}
        name="webhook"
        type="url"
        inputMode="url"
        autoComplete="off"
        spellCheck={false}
        value={value}
        disabled={!enabled}
        onChange={(event) => onChange(event.target.value)}
        onBlur={onBlur}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${hintId} ${errorId}` : hintId}
        className={`${inputClass} disabled:cursor-not-allowed disabled:bg-zinc-100 disabled:text-zinc-500`}
        placeholder={t('placeholders.webhook')}
      />
      <p id={hintId} className="mt-1 text-xs text-zinc-600">
        {enabled ? t('webhook.hint') : t('webhook.needsKey')}{' '}
        <Link to="/dashboard/api-key" className="font-medium text-accent-700 underline underline-offset-2 hover:text-accent-800">
          {t('webhook.secretLink')}
        </Link>
      </p>
      <FieldError id={errorId} message={enabled ? error : undefined} />
    </div>
  );
}
