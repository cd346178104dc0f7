import { Languages } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { FieldLabel, OptionList } from '../components/ui/form-field.tsx';
import { LANGUAGES } from '../i18n/i18n.ts';
import { whenPageLive } from '../lib/page-live.ts';

/** Changing the language stores it under `language` (the detector's cache) and updates <html lang>. */
export function LanguageSwitch({ id = 'language-switch' }: { id?: string }) {
  const { t, i18n } = useTranslation();
  return (
    <div className="flex items-center gap-1.5">
      <Languages className="size-4 text-zinc-500" aria-hidden />
      <FieldLabel htmlFor={id} text={t('language.label')} srOnly />
      <select
        id={id}
        name="language"
        value={i18n.resolvedLanguage}
        onChange={(event) => {
          const language = event.target.value;
          // Chosen while a prerendered page hydrates: applied once it is live (lib/page-live.ts).
          void whenPageLive().then(() => i18n.changeLanguage(language));
        }}
        className="rounded-md border border-zinc-300 bg-white px-2 py-1 text-sm text-zinc-800"
      >
        <OptionList values={LANGUAGES} label={(lng) => t(`language.${lng}`)} />
      </select>
    </div>
  );
}
