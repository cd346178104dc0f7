/** Numbers, dates and sizes in the reader's language (en-US or fr-FR). */
const locale = (language: string) => (language.startsWith('fr') ? 'fr-FR' : 'en-US');

export const formatNumber = (value: number, language: string) => new Intl.NumberFormat(locale(language)).format(value);

export const formatDate = (iso: string, language: string) =>
  new Intl.DateTimeFormat(locale(language), { dateStyle: 'long' }).format(new Date(iso));

export const formatDateTime = (iso: string, language: string) =>
  new Intl.DateTimeFormat(locale(language), { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));

/** A 'YYYY-MM-DD' day as a short label ("Nov 3" / "3 nov."), read as that calendar day whatever the time zone. */
export const formatDay = (day: string, language: string, style: 'short' | 'long' = 'short') =>
  new Intl.DateTimeFormat(locale(language), {
    day: 'numeric',
    month: style === 'short' ? 'short' : 'long',
    ...(style === 'long' ? { year: 'numeric' } : {}),
    timeZone: 'UTC',
  }).format(new Date(`${day}T00:00:00Z`));

export function formatBytes(bytes: number, language: string): string {
  const units = language.startsWith('fr') ? ['o', 'ko', 'Mo'] : ['B', 'kB', 'MB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  const digits = unit === 0 || value >= 100 ? 0 : 1;
  return `${new Intl.NumberFormat(locale(language), { maximumFractionDigits: digits }).format(value)} ${units[unit]}`;
}

export const formatMoney = (amount: number, currency: string, language: string) =>
  new Intl.NumberFormat(locale(language), {
    style: 'currency',
    currency: currency.toUpperCase(),
    maximumFractionDigits: Number.isInteger(amount) ? 0 : 2,
  }).format(amount);
