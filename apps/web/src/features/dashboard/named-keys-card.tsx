import { type ApiKeyScope, ApiKeyScopes, CreateApiKeyBody } from '@render/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { KeySquare, Plus, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { CopyButton } from '../../components/copy-button.tsx';
import { Button } from '../../components/ui/button.tsx';
import { SelectField, TextField } from '../../components/ui/form-field.tsx';
import { useMessageText } from '../../i18n/use-message.ts';
import { fieldProps, useContractForm } from '../../lib/use-contract-form.ts';
import { dashboardApi, dashboardKeys, FRESH, type NamedApiKey } from './dashboard-api.ts';
import { Badge, Card, ErrorNote, LoadingBlock } from './dashboard-ui.tsx';
import { formatDateTime } from './format.ts';
import { STATS_ERROR } from './usage-cards.tsx';

interface NewKeyValues {
  name: string;
  scope: ApiKeyScope | '';
  /** A local date and time from the input (`YYYY-MM-DDTHH:mm`), or '' for a key that never expires. */
  expiresAt: string;
}

/** The form's values as the contract's body: the name trimmed, the expiry as an ISO instant (none when empty). */
export function newKeyBody(values: NewKeyValues): Record<string, unknown> {
  const expires = values.expiresAt ? new Date(values.expiresAt) : undefined;
  return {
    name: values.name.trim(),
    scope: values.scope === '' ? undefined : values.scope,
    ...(expires ? { expiresAt: Number.isNaN(expires.getTime()) ? values.expiresAt : expires.toISOString() } : {}),
  };
}

/**
 * Named API keys (issue 30 §6) beside the default key: the list (name, scope, created, expires, last used, a
 * revoke button that asks first), and a form that creates one and shows its secret this once, with a copy
 * button. The form checks with the contract's schema, as the server does (`useContractForm`).
 */
export function NamedKeysCard() {
  const { t } = useTranslation('dashboard');
  const message = useMessageText();
  const queryClient = useQueryClient();
  const keys = useQuery({ queryKey: dashboardKeys.apiKeys, queryFn: dashboardApi.apiKeys, ...FRESH });
  const [secret, setSecret] = useState<{ name: string; value: string } | null>(null);
  const [revoking, setRevoking] = useState<NamedApiKey | null>(null);

  const revoke = useMutation({
    mutationFn: (id: string) => dashboardApi.revokeApiKey(id),
    onSuccess: async () => {
      setRevoking(null);
      toast.success(t('keys.revoked'));
      await queryClient.invalidateQueries({ queryKey: dashboardKeys.apiKeys });
    },
    onError: (error) => toast.error(message(error)),
  });

  return (
    <Card title={t('keys.title')} icon={<KeySquare className="size-4 text-zinc-500" aria-hidden />} testId="named-keys-card">
      <p className="mb-4 text-sm text-zinc-600">{t('keys.intro')}</p>
      {secret && (
        <div
          className="mb-4 rounded-md border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900"
          role="status"
          data-testid="new-key-secret"
        >
          <p className="font-medium">{t('keys.secretOnce', { name: secret.name })}</p>
          <div className="mt-2 flex min-w-0 flex-wrap items-center gap-2">
            <code className="min-w-0 flex-1 break-all rounded bg-white px-2 py-1 font-mono text-zinc-900" data-testid="new-key-value">
              {secret.value}
            </code>
            <CopyButton text={secret.value} toastMessage={t('keys.copied')} label={t('keys.copy')} tone="light" />
          </div>
        </div>
      )}
      {keys.isPending ? (
        <LoadingBlock label={t('loading')} />
      ) : keys.isError ? (
        <ErrorNote testId="named-keys-error">{message(STATS_ERROR)}</ErrorNote>
      ) : (
        <KeyList keys={keys.data} onRevoke={setRevoking} />
      )}
      <NewKeyForm
        onCreated={async (name, value) => {
          setSecret({ name, value });
          await queryClient.invalidateQueries({ queryKey: dashboardKeys.apiKeys });
        }}
      />
      <ConfirmDialog
        open={revoking !== null}
        onOpenChange={(open) => !open && setRevoking(null)}
        title={t('keys.confirmTitle', { name: revoking?.name ?? '' })}
        confirmLabel={t('keys.confirmAction')}
        cancelLabel={t('confirm.keep')}
        onConfirm={() => revoking && revoke.mutate(revoking.id)}
        busy={revoke.isPending}
      >
        <p>{t('keys.confirmBody')}</p>
      </ConfirmDialog>
    </Card>
  );
}

function KeyList({ keys, onRevoke }: { keys: NamedApiKey[]; onRevoke: (key: NamedApiKey) => void }) {
  const { t, i18n } = useTranslation('dashboard');
  const lng = i18n.language;
  if (keys.length === 0) return <p className="text-sm text-zinc-600">{t('keys.none')}</p>;
  const when = (value: string | null, none: string) => (value ? formatDateTime(value, lng) : none);
  const expired = (key: NamedApiKey) => key.expiresAt !== null && Date.parse(key.expiresAt) <= Date.now();
  return (
    <ul className="divide-y divide-zinc-100" data-testid="named-keys">
      {keys.map((key) => (
        <li key={key.id} className="flex flex-wrap items-start justify-between gap-3 py-3" data-testid="named-key">
          <div className="min-w-0">
            <p className="flex flex-wrap items-center gap-2 font-medium text-zinc-900">
              {key.name}
              <Badge tone="accent">{t(`keys.scopes.${key.scope}`)}</Badge>
              {expired(key) && <Badge tone="warning">{t('keys.expired')}</Badge>}
            </p>
            <p className="mt-0.5 font-mono text-xs text-zinc-600">{key.prefix}…</p>
            <dl className="mt-1 grid grid-cols-[auto_1fr] gap-x-3 text-xs text-zinc-600">
              <dt>{t('keys.created')}</dt>
              <dd>{formatDateTime(key.createdAt, lng)}</dd>
              <dt>{t('keys.expires')}</dt>
              <dd>{when(key.expiresAt, t('keys.never'))}</dd>
              <dt>{t('keys.lastUsed')}</dt>
              <dd data-testid="named-key-last-used">{when(key.lastUsedAt, t('keys.notUsed'))}</dd>
            </dl>
          </div>
          <Button variant="secondary" onClick={() => onRevoke(key)} aria-label={t('keys.revokeNamed', { name: key.name })}>
            <Trash2 className="size-4" aria-hidden />
            {t('keys.revoke')}
          </Button>
        </li>
      ))}
    </ul>
  );
}

function NewKeyForm({ onCreated }: { onCreated: (name: string, secret: string) => Promise<void> }) {
  const { t } = useTranslation('dashboard');
  const message = useMessageText();
  const form = useContractForm<NewKeyValues>(CreateApiKeyBody, {
    prepare: newKeyBody,
    defaultValues: { name: '', scope: 'render', expiresAt: '' },
  });
  const errors = form.formState.errors;
  const create = useMutation({
    mutationFn: (values: NewKeyValues) => dashboardApi.createApiKey(newKeyBody(values) as CreateApiKeyBody),
    onSuccess: async (answer) => {
      form.reset();
      toast.success(t('keys.createdToast'));
      await onCreated(answer.data.name, answer.secret);
    },
    onError: (error) => toast.error(message(error)),
  });
  return (
    <form
      className="mt-5 grid gap-3 border-t border-zinc-100 pt-4 sm:grid-cols-3"
      onSubmit={form.handleSubmit((values) => create.mutate(values))}
      noValidate
      data-testid="new-key-form"
    >
      <TextField label={t('keys.name')} {...fieldProps(form, 'name')} error={message(errors.name?.message) || undefined} />
      <SelectField
        label={t('keys.scope')}
        options={ApiKeyScopes.map((scope) => ({ value: scope, label: t(`keys.scopes.${scope}`) }))}
        {...fieldProps(form, 'scope')}
        error={message(errors.scope?.message) || undefined}
      />
      <TextField
        label={t('keys.expiresAt')}
        hint={t('keys.expiresHint')}
        type="datetime-local"
        {...fieldProps(form, 'expiresAt')}
        error={message(errors.expiresAt?.message) || undefined}
      />
      <div className="sm:col-span-3">
        <Button type="submit" disabled={create.isPending}>
          <Plus className="size-4" aria-hidden />
          {t('keys.create')}
        </Button>
      </div>
    </form>
  );
}

/** The usage page's filter: the whole account's renders, or one named key's. */
export function UsageKeyFilter({ value, onChange }: { value: string | undefined; onChange: (keyId: string | undefined) => void }) {
  const { t } = useTranslation('dashboard');
  const keys = useQuery({ queryKey: dashboardKeys.apiKeys, queryFn: dashboardApi.apiKeys, ...FRESH });
  return (
    <div className="max-w-xs" data-testid="usage-key-filter">
      <SelectField
        label={t('keys.filter')}
        name="keyId"
        value={value ?? ''}
        onChange={(event) => onChange(event.target.value || undefined)}
        options={[{ value: '', label: t('keys.allKeys') }, ...(keys.data ?? []).map((key) => ({ value: key.id, label: key.name }))]}
      />
    </div>
  );
}
