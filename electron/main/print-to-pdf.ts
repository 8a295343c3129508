// Prints a self-contained HTML page (a period statement) to PDF with Chromium's printer: an offscreen window that runs
// no script, in its own session partition (nothing shared with the app's pages), closed whatever happens.
import type { BrowserWindowConstructorOptions, WebContents } from 'electron';

/** The part of a BrowserWindow the printer uses. */
export interface PrintWindow {
  readonly webContents: Pick<WebContents, 'loadURL' | 'printToPDF'>;
  destroy(): void;
}

/** How the print window is made: hidden, offscreen, no script, no Node, sandboxed, its own partition. */
export const PRINT_WINDOW_OPTIONS: BrowserWindowConstructorOptions = {
  show: false,
  webPreferences: {
    offscreen: true,
    javascript: false,
    sandbox: true,
    contextIsolation: true,
    nodeIntegration: false,
    webSecurity: true,
    disableBlinkFeatures: 'Auxclick',
    partition: 'treasury-desk-print',
  },
};

/** The page as a PDF (A4; the page's own @page rule decides orientation and margins). */
export async function printHtmlToPdf(createWindow: () => PrintWindow, html: string): Promise<Uint8Array> {
  const window = createWindow();
  try {
    await window.webContents.loadURL(`data:text/html;charset=utf-8,${encodeURIComponent(html)}`);
    return await window.webContents.printToPDF({ pageSize: 'A4', preferCSSPageSize: true, printBackground: false });
  } finally {
    window.destroy();
  }
}
