// The app's statement printer over a fake window: the page goes in as a data URL whole, Chromium's printToPDF answers
// the bytes, and the hidden window is destroyed whether printing worked, failed or hung; it runs no script or Node.
import { describe, expect, it, vi } from 'vitest';
import { PRINT_WINDOW_OPTIONS, printHtmlToPdf, type PrintWindow } from '../../../electron/main/print-to-pdf';

function fakeWindow(print: () => Promise<Buffer>) {
  const window = {
    webContents: { loadURL: vi.fn(async (_url: string) => undefined), printToPDF: vi.fn(print) },
    destroy: vi.fn(),
  };
  return window as typeof window & PrintWindow;
}

describe('printHtmlToPdf', () => {
  it('loads the page as a data URL, prints it, and destroys the window', async () => {
    const window = fakeWindow(async () => Buffer.from('%PDF-1.7'));
    const html = '<p>50 % & <b>more</b> #1</p>';
    expect(Buffer.from(await printHtmlToPdf(() => window, html)).toString()).toBe('%PDF-1.7');
    const url = window.webContents.loadURL.mock.calls[0]?.[0] as string | undefined;
    expect(url?.startsWith('data:text/html;charset=utf-8,')).toBe(true);
    expect(decodeURIComponent(url?.slice('data:text/html;charset=utf-8,'.length) ?? '')).toBe(html);
    expect(window.webContents.printToPDF).toHaveBeenCalledWith({ pageSize: 'A4', preferCSSPageSize: true, printBackground: false });
    expect(window.destroy).toHaveBeenCalledTimes(1);
  });

  it('destroys the window when printing fails, and lets the failure through', async () => {
    const window = fakeWindow(async () => {
      throw new Error('printing failed');
    });
    await expect(printHtmlToPdf(() => window, '<p>x</p>')).rejects.toThrow('printing failed');
    expect(window.destroy).toHaveBeenCalledTimes(1);
  });

  it('gives up on a printer that never answers, and destroys the window', async () => {
    const window = fakeWindow(() => new Promise<Buffer>(() => undefined));
    await expect(printHtmlToPdf(() => window, '<p>x</p>', 20)).rejects.toThrow('printing did not finish within 0.02 s');
    expect(window.destroy).toHaveBeenCalledTimes(1);
  });

  it('prints in a hidden window that runs no script and no Node, in a partition of its own', () => {
    expect(PRINT_WINDOW_OPTIONS).toMatchObject({
      show: false,
      webPreferences: { javascript: false, nodeIntegration: false, contextIsolation: true, sandbox: true, disableBlinkFeatures: 'Auxclick', partition: 'treasury-desk-print' },
    });
    expect(PRINT_WINDOW_OPTIONS.webPreferences?.preload).toBeUndefined();
  });
});
