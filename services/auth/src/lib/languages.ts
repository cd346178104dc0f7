import type { Language } from '@render/contracts';

/**
 * The caller's first-ranked language among those we write in: French when the Accept-Language header ranks
 * a French tag first (by q, then order), English otherwise (no header, or any other language first).
 */
export function languageFromAcceptLanguage(header: string | undefined): Language {
  if (!header) return 'en';
  const ranked = header
    .split(',')
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find(Boolean);
      return { tag: tag.trim().toLowerCase(), q: q === undefined ? 1 : Number(q), index };
    })
    .filter((l) => l.tag && l.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index);
  return ranked[0]?.tag.split('-')[0] === 'fr' ? 'fr' : 'en';
}
