// The app's DesktopShell over stubbed Electron modules: dialogs attach to the window and map cancel to null, the
// clipboard gets the text, and only allow-listed explorer links reach the OS browser.
import { describe, expect, it, vi } from 'vitest';
import type { BrowserWindow } from 'electron';
import { electronDesktopShell } from '../../../electron/main/desktop-shell';

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
