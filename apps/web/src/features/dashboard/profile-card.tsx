import { LANGUAGES, type Language, type UserView } from '@render/contracts';
import { useMutation } from '@tanstack/react-query';
import { UserRound } from 'lucide-react';
import { type ReactNode, useId } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { useMessageText } from '../../i18n/use-message.ts';
import { errorText } from '../../lib/api-client.ts';
import { useSessionStore } from '../../lib/session/session.context.tsx';
import { dashboardApi } from './dashboard-api.ts';
import { Badge, Card } from './dashboard-ui.tsx';
import { formatDate } from './format.ts';

function Row({ label, testId, children }: { label: string; testId: string; children: ReactNode }) {
  return (
    <div className="flex flex-wrap items-center justify-between gap-x-4 gap-y-1 py-2.5 first:pt-0 last:pb-0">
      <dt className="text-zinc-600">{label}</dt>
      <dd className="min-w-0 text-right font-medium text-zinc-900" data-testid={testId}>
        {children}
      </dd>
    </div>
  );
}

/** docs/spec/entities.md user: name, email, company, account type, verification status, member since. */
export function ProfileCard({ user }: { user: UserView }) {
  const { t, i18n } = useTranslation('dashboard');
  return (
    <Card title={t('profile.title')} icon={<UserRound className="size-4 text-zinc-500" aria-hidden />} testId="profile-card">
      <dl className="divide-y divide-zinc-100 text-sm">
        <Row label={t('profile.name')} testId="profile-name">
          {user.name}
        </Row>
        <Row label={t('profile.email')} testId="profile-email">
          <span className="break-all">{user.email}</span>
        </Row>
        <Row label={t('profile.company')} testId="profile-company">
          {user.company || <span className="text-zinc-600">{t('profile.noCompany')}</span>}
        </Row>
        <Row label={t('profile.accountType')} testId="profile-account-type">
          <Badge tone={user.accountType === 'administrator' ? 'accent' : 'neutral'}>{t(`profile.accountTypes.${user.accountType}`)}</Badge>
        </Row>
        <Row label={t('profile.verification')} testId="profile-verification">
          <Badge tone={user.verificationStatus === 'verified' ? 'success' : 'warning'}>
            {t(`profile.verificationStatuses.${user.verificationStatus}`)}
          </Badge>
        </Row>
        <Row label={t('profile.memberSince')} testId="profile-member-since">
          {formatDate(user.memberSince, i18n.language)}
        </Row>
        <Row label={t('profile.plan')} testId="profile-plan">
          {t(`plans.${user.plan}`)}
        </Row>
        <MailLanguage user={user} />
      </dl>
    </Card>
  );
}

/** The language the account's e-mails are written in (verification codes, reset links); saved as soon as it is chosen. */
function MailLanguage({ user }: { user: UserView }) {
  const { t } = useTranslation('dashboard');
  const message = useMessageText();
  const store = useSessionStore();
  const id = useId();
  const save = useMutation({
    mutationFn: (language: Language) => dashboardApi.updateProfile({ language }),
    onSuccess: (updated) => {
      // The answer is the updated user: the session keeps it, so the selector shows what the server stored.
      const token = store.getState().token;
      if (token) store.signIn(token, updated);
      toast.success(t('profile.mailLanguageSaved'));
    },
    onError: (error) => toast.error(t('profile.mailLanguageFailed'), { description: message(errorText(error)) }),
  });
  return (
    <div className="flex flex-wrap items-center justify-between gap-x-4 gap-y-1 py-2.5 first:pt-0 last:pb-0">
      <dt className="text-zinc-600">
        <label htmlFor={id}>{t('profile.mailLanguage')}</label>
      </dt>
      <dd className="min-w-0 text-right font-medium text-zinc-900">
        <select
          id={id}
          data-testid="profile-mail-language"
          value={save.isPending && save.variables ? save.variables : user.language}
          disabled={save.isPending}
          onChange={(event) => save.mutate(event.target.value as Language)}
          className="rounded-md border border-zinc-300 bg-white px-2 py-1 text-sm text-zinc-800"
        >
          {LANGUAGES.map((lng) => (
            <option key={lng} value={lng}>
              {t(`profile.languages.${lng}`)}
            </option>
          ))}
        </select>
      </dd>
    </div>
  );
}
