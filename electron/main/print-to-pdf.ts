// Prints a self-contained HTML page (a period statement) to PDF with Chromium's printer: a hidden window that runs no
// script, in its own session partition (nothing shared with the app's pages), closed whatever happens, given a minute.
import type { BrowserWindowConstructorOptions, WebContents } from 'electron';

/** The part of a BrowserWindow the printer uses. */
export interface PrintWindow {
  readonly webContents: Pick<WebContents, 'loadURL' | 'printToPDF'>;
  destroy(): void;
}

/** How the print window is made: hidden, no script, no Node, sandboxed, its own partition. */
export const PRINT_WINDOW_OPTIONS: BrowserWindowConstructorOptions = {
  show: false,
  webPreferences: {
    javascript: false,
    sandbox: true,
    contextIsolation: true,
    nodeIntegration: false,
    webSecurity: true,
    disableBlinkFeatures: 'Auxclick',
    partition: 'treasury-desk-print',
  },
};

/** A statement prints in a second or two; a printer still busy after this is given up (and its window closed). */
export const PRINT_TIMEOUT_MS = 60_000;

/** The page as a PDF (A4; the page's own @page rule decides orientation and margins). */
export async function printHtmlToPdf(createWindow: () => PrintWindow, html: string, timeoutMs: number = PRINT_TIMEOUT_MS): Promise<Uint8Array> {
  const window = createWindow();
  let timer: NodeJS.Timeout | undefined;
  const givenUp = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`printing did not finish within ${timeoutMs / 1000} s`)), timeoutMs);
  });
  const printing = (async () => {
    await window.webContents.loadURL(`data:text/html;charset=utf-8,${encodeURIComponent(html)}`);
    return window.webContents.printToPDF({ pageSize: 'A4', preferCSSPageSize: true, printBackground: false });
  })();
  try {
    return await Promise.race([printing, givenUp]);
  } finally {
    clearTimeout(timer);
    window.destroy();
  }
}
