import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';

/** Sets the document title as "<page> · <brand>". */
export function usePageTitle(title: string | undefined) {
  const { t } = useTranslation();
  const brand = t('brand');
  useEffect(() => {
    document.title = title ? `${title} · ${brand}` : brand;
  }, [title, brand]);
}
