// E2E support: the accessibility gate (axe-core: no serious or critical violation) and screenshots of every screen
// saved under test-results/screenshots/.
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

export const SCREENSHOT_DIR = resolve('test-results/screenshots');

/**
 * Every axe finding of impact serious or critical, as readable lines (empty when clean).
 * Legacy mode runs axe.run() in the page itself. The default mode runs axe in each frame and then opens a blank page
 * of its own, injects axe there too and merges the results in it, to reach cross-origin frames; the window has no
 * frames at all (its CSP says frame-src 'none'), so the results are the same, and each check costs one script
 * injection instead of two plus a new page: side by side on one dashboard, 13 s against 25 s under load 16, with
 * identical results. The e2e gate runs 141 of these checks.
 */
export async function seriousA11yViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).setLegacyMode(true).analyze();
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.impact} ${violation.id}: ${violation.help} — ${violation.nodes.map((node) => node.target.join(' ')).slice(0, 3).join(', ')}`);
}

export async function expectAccessible(page: Page, screen: string): Promise<void> {
  const violations = await seriousA11yViolations(page);
  expect(violations, `axe-core on ${screen}`).toEqual([]);
}

/** Saves a viewport screenshot as test-results/screenshots/NAME.png and returns its path. */
export async function saveScreenshot(page: Page, name: string): Promise<string> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const path = join(SCREENSHOT_DIR, `${name}.png`);
  await page.screenshot({ path, animations: 'disabled' });
  return path;
}
