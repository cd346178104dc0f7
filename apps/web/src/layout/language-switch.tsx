import { Languages } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { LANGUAGES } from '../i18n/i18n.ts';
import { whenPageLive } from '../lib/page-live.ts';

/** Changing the language stores it under `language` (the detector's cache) and updates <html lang>. */
export function LanguageSwitch({ id = 'language-switch' }: { id?: string }) {
  const { t, i18n } = useTranslation();
  return (
    <div className="flex items-center gap-1.5">
      <Languages className="size-4 text-zinc-500" aria-hidden />
      <label htmlFor={id} className="sr-only">
        {t('language.label')}
      </label>
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
        {LANGUAGES.map((lng) => (
          <option key={lng} value={lng}>
            {t(`language.${lng}`)}
          </option>
        ))}
      </select>
    </div>
  );
}
