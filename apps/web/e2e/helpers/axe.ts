import AxeBuilder from '@axe-core/playwright';
import type { Page } from 'playwright-core';

/** axe over the page as it stands: its serious and critical violations, one line each (empty when clean). */
export async function seriousAxeViolations(page: Page): Promise<string[]> {
  const axe = await new AxeBuilder({ page }).analyze();
  return axe.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `${v.id}: ${v.help} (${v.nodes
          .map((n) => n.target.join(' '))
          .slice(0, 3)
          .join(', ')})`,
    );
}
