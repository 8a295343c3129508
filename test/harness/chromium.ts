// Test harness only: how this project launches a browser — Debian's Chromium (Playwright's own download is impossible
// here) with flags that keep it from phoning home. Shared by playwright.config.ts and the UI benchmark; it also prints
// statements to PDF for the harness's desktop double and the PDF tests.
import { QUIET_CHROMIUM_FLAGS } from '../../electron/cli/chromium-flags';
export const CHROMIUM_PATH = '/usr/bin/chromium';
export const CHROMIUM_FLAGS: readonly string[] = ['--no-sandbox', ...QUIET_CHROMIUM_FLAGS, '--disable-quic'];

/**
 * Prints a self-contained HTML page to PDF with this Chromium (Playwright's page.pdf, what the app's printToPDF is in
 * the browser harness): a fresh browser per page, scripts off, closed whatever happens.
 */
export async function printHtmlWithChromium(html: string): Promise<Uint8Array> {
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: [...CHROMIUM_FLAGS] });
  try {
    const page = await browser.newPage({ javaScriptEnabled: false });
    await page.setContent(html, { waitUntil: 'load' });
    return await page.pdf({ format: 'A4', preferCSSPageSize: true });
  } finally {
    await browser.close();
  }
}
