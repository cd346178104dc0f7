import { Link } from '@tanstack/react-router';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';

/** docs/spec/errors.md: a logo that fails to load is hidden (the product name stays as the link text). */
export function Logo() {
  const { t } = useTranslation();
  const [failed, setFailed] = useState(false);
  // On a prerendered page the image may have failed before React was listening: look once it is attached.
  const seeIfBroken = useCallback((img: HTMLImageElement | null) => {
    if (img?.complete && img.naturalWidth === 0) setFailed(true);
  }, []);
  return (
    <Link to="/" className="flex shrink-0 items-center gap-2 whitespace-nowrap font-semibold text-zinc-900" aria-label={t('nav.homeLabel')}>
      {!failed && (
        <img ref={seeIfBroken} src="/logo.svg" alt="" width={28} height={28} onError={() => setFailed(true)} data-testid="logo" />
      )}
      <span>{t('brand')}</span>
    </Link>
  );
}
