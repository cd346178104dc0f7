import { Link } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';

/** The way back to the templates list, above a template page's title. */
export function TemplateListCrumb() {
  const { t } = useTranslation('templates');
  return (
    <p className="text-sm text-zinc-600">
      <Link to="/template/list" className="hover:underline">
        {t('list.title')}
      </Link>
    </p>
  );
}
