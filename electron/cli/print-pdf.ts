// Prints a self-contained HTML page (a period statement) to PDF for the CLI, which has no Electron: a Chromium found on
// PATH, headless, with a throwaway profile in a private temporary folder that is removed whatever happens. Without
// one, a clear error says to install Chromium or to save the PDF from the app.
import { execFileSync } from 'node:child_process';
import { accessSync, constants, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { readRegularFile } from '../core/files/bounded-read';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { QUIET_CHROMIUM_FLAGS } from './chromium-flags';
import { UsageError } from './errors';

/** The names Chromium goes by, in the order they are looked for on PATH. */
export const CHROMIUM_NAMES = ['chromium', 'chromium-browser', 'google-chrome-stable', 'google-chrome'] as const;

/** How long the browser may take to print one statement. */
const PRINT_TIMEOUT_MS = 120_000;
/** A period statement printed by Chromium is a few hundred KB; anything past this is not what we printed. */
const PDF_MAX_BYTES = 64 * 1024 * 1024;

/** The first Chromium on `PATH`, or null. */
export function findChromium(env: Readonly<Record<string, string | undefined>>): string | null {
  for (const folder of (env['PATH'] ?? '').split(delimiter).filter((entry) => entry !== '')) {
    for (const name of CHROMIUM_NAMES) {
      const candidate = join(folder, name);
      try {
        accessSync(candidate, constants.X_OK);
        return candidate;
      } catch {
        // not here
      }
    }
  }
  return null;
}

/** The page printed to PDF by headless Chromium. */
export function printHtmlWithHeadlessChromium(html: string, env: Readonly<Record<string, string | undefined>>): Uint8Array {
  const browser = findChromium(env);
  if (browser === null) {
    throw new UsageError(
      `printing a PDF needs Chromium, and none of ${CHROMIUM_NAMES.join(', ')} is on PATH: install it (Debian and Ubuntu: apt-get install chromium), or save the PDF from the app's Statements screen, or write --csv instead.`,
    );
  }
  const folder = mkdtempSync(join(tmpdir(), 'treasury-desk-print-'));
  try {
    const page = join(folder, 'statement.html');
    const pdf = join(folder, 'statement.pdf');
    writeFileSync(page, html, { mode: 0o600 });
    const flags = [
      '--headless',
      ...QUIET_CHROMIUM_FLAGS,
      '--disable-extensions',
      '--no-pdf-header-footer',
      `--user-data-dir=${join(folder, 'profile')}`,
      // Chromium refuses to start its sandbox as root (containers, CI); everyone else keeps it.
      ...(process.getuid?.() === 0 ? ['--no-sandbox'] : []),
      `--print-to-pdf=${pdf}`,
      pathToFileURL(page).href,
    ];
    try {
      execFileSync(browser, flags, { stdio: 'ignore', timeout: PRINT_TIMEOUT_MS, env: { ...env } });
      return readRegularFile(pdf, PDF_MAX_BYTES).bytes;
    } catch (error) {
      const reason = error instanceof Error ? error.message.split('\n')[0] : String(error);
      throw new UsageError(`${browser} could not print the statement (${reason}): save the PDF from the app's Statements screen, or write --csv instead.`);
    }
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}
