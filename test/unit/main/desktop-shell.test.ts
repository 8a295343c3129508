// The app's DesktopShell over stubbed Electron modules: dialogs attach to the window and map cancel to null, the
// clipboard gets the text, only allow-listed explorer links reach the OS browser, and notices are shown as given (their
// body escaped where the system reads it as markup) and call back when clicked.
import { describe, expect, it, vi } from 'vitest';
import type { BrowserWindow } from 'electron';
import { electronDesktopShell, KEPT_NOTICES, notificationBody, type SystemNotification } from '../../../electron/main/desktop-shell';

function parts(answers: { save?: { canceled: boolean; filePath?: string }; open?: { canceled: boolean; filePaths: string[] } } = {}) {
  const window = { id: 1 } as unknown as BrowserWindow;
  return {
    clipboard: { writeText: vi.fn() },
    dialog: {
      showSaveDialog: vi.fn(async () => answers.save ?? { canceled: false, filePath: '/home/u/Documents/deposits.csv' }),
      showOpenDialog: vi.fn(async () => answers.open ?? { canceled: false, filePaths: ['/home/u/credentials.json'] }),
    },
    shell: { openExternal: vi.fn(async () => undefined) },
    parentWindow: () => window,
    startFolder: () => '/home/u/Documents',
    window,
  };
}

describe('electronDesktopShell', () => {
  it('shows a save dialog on the window, starting in Documents with the suggested name, and answers the path', async () => {
    const p = parts();
    const shell = electronDesktopShell(p as never);
    const path = await shell.showSaveDialog({ purpose: 'depositsCsv', title: 'Export deposits as CSV', defaultName: 'deposits.csv', filters: [{ name: 'CSV', extensions: ['csv'] }] });
    expect(path).toBe('/home/u/Documents/deposits.csv');
    expect(p.dialog.showSaveDialog).toHaveBeenCalledWith(p.window, expect.objectContaining({ defaultPath: '/home/u/Documents/deposits.csv', filters: [{ name: 'CSV', extensions: ['csv'] }] }));
  });

  it('answers null when the person cancels either dialog', async () => {
    const p = parts({ save: { canceled: true, filePath: '' }, open: { canceled: true, filePaths: [] } });
    const shell = electronDesktopShell(p as never);
    expect(await shell.showSaveDialog({ purpose: 'auditExport', title: 't', defaultName: 'a.jsonl', filters: [] })).toBeNull();
    expect(await shell.showOpenDialog({ purpose: 'credentials', title: 't', filters: [] })).toBeNull();
  });

  it('answers the chosen file of an open dialog', async () => {
    const shell = electronDesktopShell(parts() as never);
    expect(await shell.showOpenDialog({ purpose: 'credentials', title: 't', filters: [] })).toBe('/home/u/credentials.json');
  });

  it('writes the clipboard with Electron and opens only allow-listed explorer links', async () => {
    const p = parts();
    const shell = electronDesktopShell(p as never);
    shell.writeClipboardText('TNPeeaaFB7K9cmo4uQpcU32zGK8G1NYqeL');
    expect(p.clipboard.writeText).toHaveBeenCalledWith('TNPeeaaFB7K9cmo4uQpcU32zGK8G1NYqeL');
    await shell.openExternal('https://tronscan.org/#/address/TNPeeaaFB7K9cmo4uQpcU32zGK8G1NYqeL');
    await expect(shell.openExternal('https://evil.example/')).rejects.toThrow('not an allowed explorer link');
    await expect(shell.openExternal('file:///etc/passwd')).rejects.toThrow();
    expect(p.shell.openExternal).toHaveBeenCalledTimes(1);
  });
});

describe("Electron's notices", () => {
  class FakeNotification implements SystemNotification {
    static made: FakeNotification[] = [];
    readonly listeners = new Map<string, () => void>();
    shown = false;
    constructor(readonly options: { title?: string; body?: string }) {
      FakeNotification.made.push(this);
    }
    on(event: 'click', listener: () => void): this {
      this.listeners.set(event, listener);
      return this;
    }
    show(): void {
      this.shown = true;
    }
  }

  it('shows title and body as given and calls back on click', () => {
    const showMainWindow = vi.fn();
    const shell = electronDesktopShell({
      ...parts(),
      createNotification: (options: { title?: string; body?: string }) => new FakeNotification(options),
      showMainWindow,
      platform: 'linux',
    } as never);
    const clicked = vi.fn();
    for (let i = 0; i <= KEPT_NOTICES; i++) shell.showNotification({ id: `n${i}`, title: 'T', body: `B${i}`, onClick: clicked });
    expect(FakeNotification.made).toHaveLength(KEPT_NOTICES + 1);
    expect(FakeNotification.made.every((made) => made.shown)).toBe(true);
    expect(FakeNotification.made[3]?.options).toEqual({ title: 'T', body: 'B3' });
    FakeNotification.made[0]?.listeners.get('click')?.();
    expect(clicked).toHaveBeenCalledTimes(1);
    shell.showMainWindow();
    expect(showMainWindow).toHaveBeenCalledTimes(1);
    // On Linux the body is markup: a memo's tags and entities are shown as typed, never applied.
    shell.showNotification({ id: 'm', title: 'T', body: 'Memo: "<a href=\'x\'>pay</a> & <b>now</b>"', onClick: clicked });
    expect(FakeNotification.made.at(-1)?.options.body).toBe('Memo: "&lt;a href=\'x\'&gt;pay&lt;/a&gt; &amp; &lt;b&gt;now&lt;/b&gt;"');
  });

  it('escapes markup only where the body is markup', () => {
    expect(notificationBody('a <b> & c', 'linux')).toBe('a &lt;b&gt; &amp; c');
    expect(notificationBody('a <b> & c', 'win32')).toBe('a <b> & c');
    expect(notificationBody('a <b> & c', 'darwin')).toBe('a <b> & c');
  });
});
