/** Spec §9 plans. Pro is 49 a month: dollars in English, euros in French. */
export const FREE_CREDITS_PER_30_DAYS = 50;
export const PRO_MONTHLY_PRICE = 49;

export const planCurrency = (language: string) => (language.startsWith('fr') ? 'EUR' : 'USD');

export function formatPrice(amount: number, language: string): string {
  return new Intl.NumberFormat(language.startsWith('fr') ? 'fr-FR' : 'en-US', {
    style: 'currency',
    currency: planCurrency(language),
    maximumFractionDigits: 0,
  }).format(amount);
}
