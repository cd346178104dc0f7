import AxeBuilder from '@axe-core/playwright';
import type { Page } from 'playwright-core';

/** axe over the page as it stands: its serious and critical violations, one line each (empty when clean). */
export async function seriousAxeViolations(page: Page): Promise<string[]> {
  // Contrast read halfway through a fade (a toast coming in) is not the contrast anyone reads: let finite
  // animations and transitions end first (spinners loop forever and are left alone).
  await page
    .waitForFunction(
      () =>
        document.getAnimations().every((a) => a.playState !== 'running' || a.effect?.getTiming().iterations === Number.POSITIVE_INFINITY),
      undefined,
      { timeout: 3_000 },
    )
    .catch(() => undefined);
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
